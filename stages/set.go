package stages

import "unsafe"

// Set holds one Partial of every stage of a plan: what the stages took from one stretch of
// lines. Lines go only to the Partials whose stage asked for their kind.
type Set struct {
	Parts  []Partial // in the plan's order
	byKind [KindUnread + 1][]Partial
}

// NewSet returns a Set of empty Partials for plan.
func NewSet(plan *Plan) *Set {
	s := &Set{Parts: make([]Partial, len(plan.Stages))}
	for i, st := range plan.Stages {
		s.Parts[i] = st.New(&plan.Config)
		kinds := st.Kinds()
		for k := range s.byKind {
			if kinds.Has(k) {
				s.byKind[k] = append(s.byKind[k], s.Parts[i])
			}
		}
	}
	return s
}

// Add gives one line to the Partials that want its kind.
func (s *Set) Add(l *Line) {
	k := KindUnread
	if l.P != nil {
		k = int(l.P.Kind)
	}
	ps := s.byKind[k]
	for i := range ps {
		ps[i].Add(l)
	}
}

// Settle settles every Partial (see Partial.Settle).
func (s *Set) Settle(step int64, selected bool) {
	for _, p := range s.Parts {
		p.Settle(step, selected)
	}
}

// Anchor anchors every Partial (see Partial.Anchor).
func (s *Set) Anchor(o Origin) {
	for _, p := range s.Parts {
		p.Anchor(o)
	}
}

// Merge appends o, a Set of the same plan whose lines follow s's.
func (s *Set) Merge(o *Set) {
	for i, p := range s.Parts {
		p.Merge(o.Parts[i])
	}
}

// Reset empties every Partial.
func (s *Set) Reset() {
	for _, p := range s.Parts {
		p.Reset()
	}
}

// Commit commits what the Committers hold (see Committer), in plan order.
func (s *Set) Commit(out Out) error {
	for _, p := range s.Parts {
		if c, ok := p.(Committer); ok {
			if err := c.Commit(out); err != nil {
				return err
			}
		}
	}
	return nil
}

// MergeCommit merges o into s and commits, as Merge(o) and then Commit(out) do, where s
// commits all it holds (an input's Total): the Folders among s's Partials commit o's lines
// from o, which keeps its buffers. o is to be reset after.
func (s *Set) MergeCommit(o *Set, out Out) error {
	var folds uint64 // bit i: Parts[i] folds o's
	for i, p := range s.Parts {
		if f, ok := p.(Folder); ok && i < 64 && f.CanFold(o.Parts[i]) {
			folds |= 1 << i
			continue
		}
		p.Merge(o.Parts[i])
	}
	for i, p := range s.Parts {
		var err error
		if folds&(1<<i) != 0 {
			err = p.(Folder).Fold(o.Parts[i], out)
		} else if c, ok := p.(Committer); ok {
			err = c.Commit(out)
		}
		if err != nil {
			// The Partials after it hold o's lines uncommitted, as Merge and Commit leave them.
			for j := i + 1; j < len(s.Parts); j++ {
				if folds&(1<<j) != 0 {
					s.Parts[j].Merge(o.Parts[j])
				}
			}
			return err
		}
	}
	return nil
}

// Part returns the Partial of type T in s, and whether there is one.
func Part[T Partial](s *Set) (T, bool) {
	for _, p := range s.Parts {
		if t, ok := p.(T); ok {
			return t, true
		}
	}
	var zero T
	return zero, false
}

// keptBytes is the most a committed buffer keeps for reuse, about a chunk's lines: a larger
// one (a stretch that waited long for its step) is let go, or every input's Result would
// hold one to the end.
const keptBytes = 1 << 20

// reuse empties s for reuse, or lets it go where it is large.
func Reuse[T any](s []T) []T {
	var v T
	if uintptr(cap(s))*unsafe.Sizeof(v) > keptBytes {
		return nil
	}
	return s[:0]
}
