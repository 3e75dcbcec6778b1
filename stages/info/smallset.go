package info

import (
	"iter"
	"maps"
	"slices"
)

// smallSet is a set whose first members are kept in a slice, searched in order, and the
// rest in a map. A process prints one or a few of each thing info keeps of it (ranks, GPUs,
// communicators, a fact's values): on a log of communicator set-up, a map for each made most
// of info's allocation and of the merging of its chunks. Its zero value is an empty set.
type smallSet[T comparable] struct {
	few  []T
	many map[T]struct{} // nil until the set holds more than smallSetMax
}

// smallSetMax is how many members are kept in the slice.
const smallSetMax = 8

// add puts v in the set.
func (s *smallSet[T]) add(v T) {
	switch {
	case s.many != nil:
		s.many[v] = struct{}{}
	case slices.Contains(s.few, v):
	case len(s.few) < smallSetMax:
		s.few = append(s.few, v)
	default:
		s.many = make(map[T]struct{}, 2*smallSetMax)
		for _, x := range s.few {
			s.many[x] = struct{}{}
		}
		s.many[v] = struct{}{}
		s.few = nil
	}
}

// has reports whether v is in the set.
func (s *smallSet[T]) has(v T) bool {
	if s.many != nil {
		_, ok := s.many[v]
		return ok
	}
	return slices.Contains(s.few, v)
}

// len is how many members the set holds.
func (s *smallSet[T]) len() int {
	if s.many != nil {
		return len(s.many)
	}
	return len(s.few)
}

// all yields the members, in no order a caller may rely on.
func (s *smallSet[T]) all() iter.Seq[T] {
	if s.many != nil {
		return maps.Keys(s.many)
	}
	return slices.Values(s.few)
}

// deleteFunc drops the members for which drop is true.
func (s *smallSet[T]) deleteFunc(drop func(T) bool) {
	if s.many != nil {
		maps.DeleteFunc(s.many, func(v T, _ struct{}) bool { return drop(v) })
		return
	}
	s.few = slices.DeleteFunc(s.few, drop)
}
