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
	return 0, fmt.Errorf("--boundary must be end or start, not %q", s)
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
		return StepRange{}, fmt.Errorf("--steps wants A-B with 0 <= A <= B, or N, not %q", s)
	}
	return StepRange{from, to}, nil
}

// Needs says which analyses a run wants; what is not needed is not computed.
type Needs uint8

const (
	NeedAgg     Needs = 1 << iota // per-op stats, histogram, aggregation
	NeedCalls                     // every call, in order
	NeedLines                     // the selected lines' bytes, in order (split)
	NeedClasses                   // every line classed, even where nothing else needs it (--strict)
	NeedRanks                     // communicators, ranks and their call sequences
	NeedInfo                      // the set-up lines: versions, network, transports, WARNs (info)
)

// MarkersOnly reports whether the run needs nothing of a line but its bytes, unless it is a
// step marker: then lines that cannot be markers need not be read. (steps needs nothing but
// the markers; split the selected lines' bytes.)
func (n Needs) MarkersOnly() bool { return n == NeedLines || n == 0 }

// Config is what the splitter and stages need to know about a run.
type Config struct {
	Steps    *StepRange // nil: every line is selected
	Boundary Boundary
	Needs    Needs
}

// ReadsSelectedOnly reports whether the lines of steps outside the selection need not be
// read: the run selects steps and wants only the analyses of the selected lines (not every
// line classed, nor the ranks' call order, which counts every call).
func (c *Config) ReadsSelectedOnly() bool {
	return c.Steps != nil && c.Needs&^(NeedAgg|NeedCalls) == 0 && !c.Needs.MarkersOnly()
}

// Selects reports whether the lines of step (-1: no step) are selected.
func (c *Config) Selects(step int64) bool {
	return c.Steps == nil || step >= 0 && c.Steps.Has(step)
}
