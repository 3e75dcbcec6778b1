package stages

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
)

// ErrPartialMismatch is returned by Decode where a partial cannot stand for its logs in a run.
var ErrPartialMismatch = errors.New("partial result does not fit this run")

// Decode reads a partial result for a run of plan, within lim (see NewLimits): it must have
// been made with the same step selection, and hold every stage the plan needs. It reads the
// JSON as a stream, a stage at a time, and checks what each stage declares as it reads it.
func Decode(rd io.Reader, plan *Plan, lim *Limits) (*Result, error) {
	dec := json.NewDecoder(newCapped(rd, lim))
	if err := expectDelim(dec, '{'); err != nil {
		return nil, notPartial(err)
	}
	var f partialFile
	var r *Result
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, notPartial(err)
		}
		if key == "stages" {
			if r, err = decodeStages(dec, &f, plan, lim); err != nil {
				return nil, err
			}
			continue
		}
		if err := decodeHeaderField(dec, key, &f); err != nil {
			return nil, err
		}
	}
	if r == nil {
		return nil, fmt.Errorf("not a readable partial result: it holds no analyses")
	}
	return r, nil
}

func notPartial(err error) error {
	if err == nil || errors.Is(err, ErrPartialLimit) {
		return err
	}
	return fmt.Errorf("not a readable partial result: %w", err)
}

// decodeHeaderField reads the field key of the header (what comes before the stages) into f.
func decodeHeaderField(dec *json.Decoder, key json.Token, f *partialFile) error {
	var v any
	switch key {
	case "format":
		v = &f.Format
	case "version":
		v = &f.Version
	case "steps":
		v = &f.Steps
	case "boundary":
		v = &f.Boundary
	case "inputs":
		v = &f.Inputs
	case "parse":
		v = &f.Parse
	default:
		v = new(json.RawMessage) // a field of a later version: skipped
	}
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, ErrPartialLimit) {
			return err
		}
		return notPartial(fmt.Errorf("its %v: %w", key, err))
	}
	return nil
}

// checkHeader says whether a partial with header f can stand for its logs in a run of plan.
func checkHeader(f *partialFile, plan *Plan) error {
	switch {
	case f.Format != "nccllog-partial":
		return fmt.Errorf("not a partial result (format %q)", f.Format)
	case f.Version != PartialVersion:
		return fmt.Errorf("%w: written in partial-result format %d by another nccllog, this nccllog reads format %d: summarize the logs again with this nccllog", ErrPartialMismatch, f.Version, PartialVersion)
	case !sameSteps(f.Steps, plan.Steps) || f.Boundary != plan.Boundary.String():
		return fmt.Errorf("%w: made with %s, this run selects %s (give this run the partial's --steps and --boundary, or summarize the logs again with this run's)", ErrPartialMismatch,
			selectionText(f.Steps, f.Boundary), selectionText(plan.Steps, plan.Boundary.String()))
	}
	return checkInputs(f)
}

// decodeStages reads the stages array, once the header is read and fits plan, restoring each
// stage the plan runs straight from the stream.
func decodeStages(dec *json.Decoder, f *partialFile, plan *Plan, lim *Limits) (*Result, error) {
	if err := checkHeader(f, plan); err != nil {
		return nil, err
	}
	r := &Result{Inputs: f.Inputs, Set: NewSet(plan), Parse: f.Parse}
	if err := expectDelim(dec, '['); err != nil {
		return nil, notPartial(err)
	}
	done := make([]bool, len(plan.Stages))
	for dec.More() {
		if err := decodeStage(dec, r, plan, lim, done); err != nil {
			return nil, err
		}
	}
	if err := expectDelim(dec, ']'); err != nil {
		return nil, notPartial(err)
	}
	for i, st := range plan.Stages {
		if !done[i] {
			return nil, fmt.Errorf("%w: it holds no %s analysis (%s needs the logs themselves)", ErrPartialMismatch, st.Name(), st.Name())
		}
	}
	return r, checkResult(r)
}

// decodeStage reads one {"name": ..., "data": ...} of the stages array.
func decodeStage(dec *json.Decoder, r *Result, plan *Plan, lim *Limits, done []bool) error {
	if err := expectDelim(dec, '{'); err != nil {
		return notPartial(err)
	}
	k := -1
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return notPartial(err)
		}
		switch key {
		case "name":
			var name string
			if err := dec.Decode(&name); err != nil {
				return notPartial(err)
			}
			k = slices.IndexFunc(plan.Stages, func(st Stage) bool { return st.Name() == name })
			if k >= 0 && done[k] {
				return notPartial(fmt.Errorf("it holds the %s analysis twice", name))
			}
		case "data":
			if err := restoreStage(dec, r, plan, lim, k, done); err != nil {
				return err
			}
			k = -1
		default:
			if err := dec.Decode(new(json.RawMessage)); err != nil {
				return notPartial(err)
			}
		}
	}
	return notPartial(expectDelim(dec, '}'))
}

// restoreStage restores stage k of plan from the value dec is at (skipped where the plan
// does not run that stage: k < 0).
func restoreStage(dec *json.Decoder, r *Result, plan *Plan, lim *Limits, k int, done []bool) error {
	if k < 0 {
		if err := dec.Decode(new(json.RawMessage)); err != nil {
			return notPartial(err)
		}
		return nil
	}
	name := plan.Stages[k].Name()
	rs, ok := r.Set.Parts[k].(Restorer)
	if !ok {
		return fmt.Errorf("%w: it holds no %s analysis (%s needs the logs themselves)", ErrPartialMismatch, name, name)
	}
	if err := rs.Restore(dec, lim); err != nil {
		return fmt.Errorf("reading its %s analysis: %w", name, err)
	}
	done[k] = true
	return nil
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != want {
		return fmt.Errorf("found %v where %v belongs", tok, want)
	}
	return nil
}

func sameSteps(a, b *StepRange) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// selectionText names a step selection. The boundary is named also with every step: it
// decides which step each call is counted in, which the partial's calls and steps keep.
func selectionText(s *StepRange, boundary string) string {
	if s == nil {
		return "every step with --boundary " + boundary
	}
	return fmt.Sprintf("--steps %d-%d --boundary %s", s.From, s.To, boundary)
}
