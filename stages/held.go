package stages

import (
	"slices"
	"unsafe"
)

// item is what a held list keeps: a line's value that learns its step and its place.
type item[T any] interface {
	*T
	Settle(step int64)
	Anchor(file string, base int64)
}

// held is the part of a Partial that keeps its lines' values in input order until they are
// committed (calls, rank events): which are anchored, and whether some wait for their step.
type Held[T any, P item[T]] struct {
	Items    []T
	Anchored int  // items before this index have their file and absolute line
	Open     bool // holds items whose step is not settled
}

func (h *Held[T, P]) Add(v T) {
	h.Items = append(Room(h.Items, 1), v)
	h.Open = true
}

// Room returns s with room for n more items. Its buffer doubles as it grows, up to what a
// committed list keeps (see Reuse): append grows a large slice by a quarter at a time, which
// copied a chunk's held items about four times over as they came; past that size append's
// own growth applies, so that a buffer a list keeps is not doubled past the size it keeps.
func Room[T any](s []T, n int) []T {
	if len(s)+n <= cap(s) {
		return s
	}
	var v T
	kept := int(keptBytes / max(unsafe.Sizeof(v), 1))
	return grow(s, max(n, min(len(s), kept-len(s)), minRoom))
}

// grow returns s with room for n more items, in a buffer of the capacity append would give
// it (see appendCap) but not cleared past len(s): where it is fresh memory (a chunk's list
// grows to a megabyte and more), its pages are first touched as items fill them, and not
// all at once by the clear slices.Grow makes of room the chunk may not use.
func grow[T any](s []T, n int) []T {
	var v T
	size := max(unsafe.Sizeof(v), 1)
	want := uintptr(appendCap(len(s)+n, cap(s))) * size
	if want < largeBytes {
		return slices.Grow(s, n)
	}
	want = (want + pageBytes - 1) &^ (pageBytes - 1) // the runtime allocates whole pages
	return append(make([]T, 0, want/size), s...)
}

// appendCap is the capacity append gives a slice of capacity c grown to hold n items: twice
// c, or a quarter more at a time from 256 items (runtime.nextslicecap). A list that grows
// past what Room doubles it to, by a few items at a time, is copied a quarter more, not at
// every growth.
func appendCap(n, c int) int {
	if n > 2*c {
		return n
	}
	const threshold = 256
	if c < threshold {
		return 2 * c
	}
	for c < n {
		c += (c + 3*threshold) >> 2
	}
	return c
}

// pageBytes is the runtime's page size, by which it rounds a large allocation up.
const pageBytes = 8 << 10

// largeBytes is the size from which the runtime allocates a buffer as pages of its own,
// which it zeroes only where they were used before (runtime's maxSmallSize).
const largeBytes = 32 << 10

// Reserve returns s with room for n items in all, for a list that is about to hold them.
func Reserve[T any](s []T, n int) []T {
	if n <= cap(s) {
		return s
	}
	return grow(s, n-len(s))
}

// minRoom is the fewest items a held list makes room for when it grows.
const minRoom = 64

// settle gives the items their step, or drops them (keep false).
func (h *Held[T, P]) Settle(step int64, keep bool) {
	h.Open = false
	if !keep {
		h.Items, h.Anchored = h.Items[:0], 0
		return
	}
	for i := range h.Items {
		P(&h.Items[i]).Settle(step)
	}
}

func (h *Held[T, P]) Anchor(o Origin) {
	for i := h.Anchored; i < len(h.Items); i++ {
		P(&h.Items[i]).Anchor(o.File, o.Base)
	}
	h.Anchored = len(h.Items)
}

// merge appends o's items. Where this one holds none it takes o's buffer rather than copy
// it (items with pointers cost write barriers to copy), and o gets this one's to reuse.
func (h *Held[T, P]) Merge(o *Held[T, P]) {
	switch {
	case len(h.Items) == 0:
		h.Items, o.Items = o.Items, h.Items[:0]
		h.Anchored, o.Anchored = o.Anchored, 0
	case h.Anchored == len(h.Items):
		h.Anchored += o.Anchored
		fallthrough
	default:
		h.Items = append(Room(h.Items, len(o.Items)), o.Items...)
	}
	h.Open = h.Open || o.Open
}

// Take returns dst, which holds nothing, holding src's items, and src emptied. Where dst's
// buffer fits them they are copied and each list keeps its buffer: a chunk's selected list
// merges its stretches one by one, and a stretch's small buffer would put the chunk-sized one
// aside, to grow again. Otherwise dst takes src's buffer and src gets dst's. For items
// without pointers: a buffer kept holds nothing alive.
func Take[T any](dst, src []T) ([]T, []T) {
	if cap(dst) < len(src) {
		return src, dst[:0]
	}
	return append(dst[:0], src...), src[:0]
}

// reset empties h, keeping its buffer.
func (h *Held[T, P]) Reset() { *h = Held[T, P]{Items: h.Items[:0]} }

// committed empties h once its items are committed; a large buffer is let go.
func (h *Held[T, P]) Committed() { h.Items, h.Anchored = Reuse(h.Items), 0 }

func (c *Call) Settle(step int64) { c.Step = step }

func (c *Call) Anchor(file string, base int64) { c.File, c.Line = file, c.Line+base }
