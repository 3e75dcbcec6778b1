package pipeline

import (
	"errors"
	"fmt"

	"github.com/nccllog/nccllog/stages"
)

// ErrSameSource is returned by RunAll where a partial result holds a log read also
// otherwise: the partial given twice, two partials made from one log, a partial given
// beside a log it was made from. Read twice, its calls would count twice (and hang would
// take its ranks for another job's), so the run stops rather than guess which to keep. A log
// given twice as itself is read twice, as before: that is plain on the command line.
var ErrSameSource = errors.New("the same log twice")

// sources collects a run's inputs, in input order, to find a log that comes twice, at least
// once in a partial result, by digest (see digest). Only a run with a partial result needs
// the logs' digests, so a run that does not write one takes them after reading, and only
// then.
type sources struct {
	all     []source1
	partial bool // an input was a partial result
}

// source1 is a log and where it was read: as input at of the run, at path, itself or in a
// partial result (From).
type source1 struct {
	stages.Input
	at   int
	path string
}

// add takes the logs of the run's input at, at path.
func (s *sources) add(at int, path string, ins []stages.Input) {
	for _, in := range ins {
		s.all = append(s.all, source1{in, at, path})
		s.partial = s.partial || in.From != ""
	}
}

// check returns the first log found in two inputs where one of the two is a partial
// result. A partial that holds a log twice was made of a run given it twice, which is read
// as that run read it.
func (s *sources) check() error {
	if !s.partial {
		return nil
	}
	by := make(map[string]source1)
	for _, src := range s.all {
		if src.Digest == "" && src.From == "" && src.path != "-" {
			src.Digest = digestFile(src.path)
		}
		if src.Digest == "" {
			continue
		}
		if first, ok := by[src.Digest]; ok && first.at != src.at && (first.From != "" || src.From != "") {
			what, todo := sameSource(first, src)
			return fmt.Errorf("%w: %s (the same size and content digest): %s", ErrSameSource, what, todo)
		}
		by[src.Digest] = src
	}
	return nil
}

// sameSource says where a and b, the same log, were read, and what to do.
func sameSource(a, b source1) (what, todo string) {
	switch {
	case a.From == b.From:
		return fmt.Sprintf("the partial result %q is given twice", a.From), "give it once"
	case a.From == "" || b.From == "":
		log, part := a, b
		if log.From != "" {
			log, part = b, a
		}
		return fmt.Sprintf("%q is also summarized in the partial result %q", log.Name, part.From), "give either the log or the partial result"
	default:
		return fmt.Sprintf("%q and %q both summarize %q", a.From, b.From, b.Name), "give each log once, as itself or in one partial result"
	}
}
