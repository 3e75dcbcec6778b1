package stages

import "fmt"

// MalformedError stops a run with Config.StopAtMalformed at its first malformed line, before
// the chunk that holds it is merged: what split and calls write stops short of it.
type MalformedError struct{ Problem }

func (e *MalformedError) Error() string {
	return fmt.Sprintf("%s:%d: malformed line (%s): %s [--strict stops at the first]", e.File, e.Line, e.Reason, e.Excerpt)
}

// firstProblem is the first malformed line of a chunk, numbered within it.
func firstProblem(c *Chunk) (Problem, bool) {
	var first Problem
	found := false
	for _, s := range []*Set{c.Sel, c.Open} {
		if s == nil {
			continue
		}
		for _, p := range LinesOf(s).Problems {
			if !found || p.Line < first.Line {
				first, found = p, true
			}
		}
	}
	return first, found
}
