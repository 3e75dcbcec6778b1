package stages

import (
	"fmt"
	"strconv"
	"strings"
)

// Boundary says which progress line a step's lines end at.
type Boundary uint8

const (
	// BoundaryEnd: NeMo, Megatron-LM and torchtitan print a step's progress line when the step
	// ends, so step N is the lines after the marker of N-1 up to and including the marker of N.
	BoundaryEnd Boundary = iota
	// BoundaryStart: step N is the marker of N and the lines after it, up to the next marker
	// (what the AWK chain did).
	BoundaryStart
)

// ParseBoundary reads "end" or "start".
func ParseBoundary(s string) (Boundary, error) {
	switch s {
	case "end":
		return BoundaryEnd, nil
	case "start":
		return BoundaryStart, nil
	}
	return 0, fmt.Errorf("a step boundary is end or start, not %q", s)
}

func (b Boundary) String() string { return [...]string{"end", "start"}[b] }

// StepRange is an inclusive range of step numbers.
type StepRange struct{ From, To int64 }

// Has reports whether step n is in the range.
func (r StepRange) Has(n int64) bool { return n >= r.From && n <= r.To }

// ParseStepRange reads "A-B" or "N".
func ParseStepRange(s string) (StepRange, error) {
	a, b, found := strings.Cut(s, "-")
	from, err1 := strconv.ParseInt(strings.TrimSpace(a), 10, 64)
	to, err2 := from, error(nil)
	if found {
		to, err2 = strconv.ParseInt(strings.TrimSpace(b), 10, 64)
	}
	if err1 != nil || err2 != nil || from < 0 || to < from {
		return StepRange{}, fmt.Errorf("a step range is A-B with 0 <= A <= B, or N, not %q", s)
	}
	return StepRange{from, to}, nil
}

// Config is what the step splitter and the stages need to know about a run.
type Config struct {
	Steps    *StepRange // nil: every line is selected
	Boundary Boundary
	// Strict reads and classes every line, even where no stage needs it.
	Strict bool
	// StopAtMalformed ends the run with a MalformedError at the first malformed line read,
	// before the chunk that holds it is merged (--strict).
	StopAtMalformed bool
	// Portable: the run writes a partial result, so stages whose state cannot be written
	// as it is keep what it is made of (see Portable).
	Portable bool
}

// Selects reports whether the lines of step (-1: no step) are selected.
func (c *Config) Selects(step int64) bool {
	return c.Steps == nil || step >= 0 && c.Steps.Has(step)
}
