package diagnose

// slabBlock is how many values one block of a slab holds.
const slabBlock = 64

// slab hands out pointers to values allocated a block at a time: one allocation for many
// communicator states or marks rather than one each. A full block is left as it is (never
// grown), so what was handed out stays where it is; a value is never handed out twice, so
// a slab may outlive a Reset whose values went to another Partial.
type slab[T any] struct{ block []T }

// new returns a zero value of the slab.
func (s *slab[T]) new() *T {
	if len(s.block) == cap(s.block) {
		s.block = make([]T, 0, slabBlock)
	}
	s.block = s.block[:len(s.block)+1]
	return &s.block[len(s.block)-1]
}
