package stages

import "sync"

// spareSets holds the waiting Sets of a plan's finished inputs for its later inputs. An
// input's waiting stretch takes its first chunk's held lists and grows them as later chunks
// come (and the chunk gets the stretch's empty ones, to grow again); made anew for each
// input, every one of those lists was fresh memory. On a directory of 1,024 per-process
// files, whose ranks' lines all wait for rank 0's markers, that was half of diagnose's page
// faults. It holds no more than maxSpareSets, which bounds what it keeps to a few times
// what a stretch holds at WaitCap.
type spareSets struct {
	mu   sync.Mutex
	list []*Set
}

// maxSpareSets bounds the Sets a plan keeps: more than the inputs a run reads at once on a
// few cores.
const maxSpareSets = 8

// get returns a Set released earlier, emptied, or a new one.
func (s *spareSets) get(plan *Plan) *Set {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.list)
	if n == 0 {
		return NewSet(plan)
	}
	set := s.list[n-1]
	s.list[n-1] = nil
	s.list = s.list[:n-1]
	return set
}

// put keeps set, which holds nothing, for a later input.
func (s *spareSets) put(set *Set) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.list) < maxSpareSets {
		s.list = append(s.list, set)
	}
}

// release lets go of the Sets s keeps.
func (s *spareSets) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.list)
	s.list = nil
}
