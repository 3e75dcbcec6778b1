package stages

import "github.com/nccllog/nccllog/parser"

// Result is what a run over one or more inputs yielded: every stage's Partial, how each
// input's lines were read, and what the parser reports. Results of inputs, of runs and of
// machines merge into exactly the Result of one run over all of them.
type Result struct {
	Inputs []Input
	Set    *Set
	Parse  parser.Stats
}

// Input is one input of a Result and the accounting of its lines.
type Input struct {
	Name  string
	Lines Lines
	// Digest tells the log apart from others (see pipeline's digest), "" where it cannot
	// be told (standard input, a FIFO, an empty file): the same log twice in a run, or a
	// log beside a partial result made from it, would be counted twice.
	Digest string `json:",omitempty"`
	// From is the partial result the input was read from, "" for a log read itself.
	From string `json:"-"`
}

// NewResult returns an empty Result for plan.
func NewResult(plan *Plan) *Result { return &Result{Set: NewSet(plan)} }

// InputResult is the Result of one input whose stages took set.
func InputResult(name string, set *Set, parse parser.Stats) *Result {
	return &Result{Inputs: []Input{{Name: name, Lines: *LinesOf(set)}}, Set: set, Parse: parse}
}

// Merge adds o, a Result of the same plan over inputs that come after r's, to r.
func (r *Result) Merge(o *Result) {
	r.Inputs = append(r.Inputs, o.Inputs...)
	r.Set.Merge(o.Set)
	r.Parse.Merge(o.Parse)
}

// Lines is the accounting of every line of every input.
func (r *Result) Lines() *Lines { return LinesOf(r.Set) }
