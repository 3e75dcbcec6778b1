package stages

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/nccllog/nccllog/parser"
)

// PartialMagic starts every partial result file; inputs are told to be partials by it.
const PartialMagic = `{"format":"nccllog-partial"`

// PartialVersion is the version of the encoding written; files of another version are
// refused rather than misread.
// Version 2 added each input's Digest; version 3 the failure line class (parser.KindFailure)
// to the line accounting; version 4 the callsteps stage (the calls steps are inferred from),
// which a partial of version 3 lacks; version 5 the steps followed past each process's first
// calls (callsteps' Tail), without which a partial of version 4 lists only the first steps.
const PartialVersion = 5

// Restorer is a Partial that can be read back from the JSON of its Snapshot (or of its
// Portable form), the next value of dec, within lim; it checks what the JSON declares (see
// partial_validate.go). Only stages whose Partials are Restorers can be summarized.
type Restorer interface {
	Restore(dec *json.Decoder, lim *Limits) error
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
