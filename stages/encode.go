package stages

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/nccllog/nccllog/parser"
)

// PartialMagic starts every partial result file; inputs are told to be partials by it.
const PartialMagic = `{"format":"nccllog-partial"`

// PartialVersion is the version of the encoding written; files of another version are
// refused rather than misread.
const PartialVersion = 1

// Restorer is a Partial that can be read back from the JSON of its Snapshot (or of its
// Portable form). Only stages whose Partials are Restorers can be summarized.
type Restorer interface {
	Restore(data json.RawMessage) error
}

// Portable is a Partial whose partial-result form is not its Snapshot: what it is made of
// rather than what it concluded. It keeps that only in a run with Config.Portable.
type Portable interface {
	Portable() any
}

// partialFile is the encoding of a Result: the step selection it was made with, its inputs'
// line accounting, and every stage's Snapshot.
type partialFile struct {
	Format   string         `json:"format"`
	Version  int            `json:"version"`
	Steps    *StepRange     `json:"steps"`
	Boundary string         `json:"boundary"`
	Inputs   []Input        `json:"inputs"`
	Parse    parser.Stats   `json:"parse"`
	Stages   []encodedStage `json:"stages"`
}

type encodedStage struct {
	Name string          `json:"name"`
	Data json.RawMessage `json:"data"`
}

// Encode writes r, the Result of plan, as a partial result.
func Encode(w io.Writer, r *Result, plan *Plan) error {
	f := partialFile{Format: "nccllog-partial", Version: PartialVersion, Steps: plan.Steps,
		Boundary: plan.Boundary.String(), Inputs: r.Inputs, Parse: r.Parse}
	// How many lines the grammar checked depends on which worker sampled which chunk, so it
	// differs between runs over the same logs; no output prints it, and a partial result
	// must be the same bytes for the same logs.
	f.Parse.Checked = 0
	for i, st := range plan.Stages {
		if _, ok := r.Set.Parts[i].(Restorer); !ok {
			return fmt.Errorf("the %s analysis cannot be written to a partial result", st.Name())
		}
		var v any = r.Set.Parts[i].Snapshot()
		if p, ok := r.Set.Parts[i].(Portable); ok {
			v = p.Portable()
		}
		data, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("encoding the %s analysis: %w", st.Name(), err)
		}
		f.Stages = append(f.Stages, encodedStage{st.Name(), data})
	}
	bw := bufio.NewWriter(w)
	if err := json.NewEncoder(bw).Encode(f); err != nil {
		return err
	}
	return bw.Flush()
}

// ErrPartialMismatch is returned by Decode where a partial cannot stand for its logs in a run.
var ErrPartialMismatch = errors.New("partial result does not fit this run")

// Decode reads a partial result for a run of plan: it must have been made with the same
// step selection, and hold every stage the plan needs.
func Decode(rd io.Reader, plan *Plan) (*Result, error) {
	var f partialFile
	if err := json.NewDecoder(rd).Decode(&f); err != nil {
		return nil, fmt.Errorf("not a readable partial result: %w", err)
	}
	switch {
	case f.Format != "nccllog-partial":
		return nil, fmt.Errorf("not a partial result (format %q)", f.Format)
	case f.Version != PartialVersion:
		return nil, fmt.Errorf("%w: written as version %d, this nccllog reads version %d", ErrPartialMismatch, f.Version, PartialVersion)
	case !sameSteps(f.Steps, plan.Steps) || f.Boundary != plan.Boundary.String():
		return nil, fmt.Errorf("%w: made with %s, this run selects %s (give this run the partial's --steps and --boundary, or summarize the logs again with this run's)", ErrPartialMismatch,
			selectionText(f.Steps, f.Boundary), selectionText(plan.Steps, plan.Boundary.String()))
	}
	r := &Result{Inputs: f.Inputs, Set: NewSet(plan), Parse: f.Parse}
	for i, st := range plan.Stages {
		k := slices.IndexFunc(f.Stages, func(e encodedStage) bool { return e.Name == st.Name() })
		rs, ok := r.Set.Parts[i].(Restorer)
		if k < 0 || !ok {
			return nil, fmt.Errorf("%w: it holds no %s analysis (%s needs the logs themselves)", ErrPartialMismatch, st.Name(), st.Name())
		}
		if err := rs.Restore(f.Stages[k].Data); err != nil {
			return nil, fmt.Errorf("reading its %s analysis: %w", st.Name(), err)
		}
	}
	return r, nil
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
