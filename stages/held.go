package stages

// item is what a held list keeps: a line's value that learns its step and its place.
type item[T any] interface {
	*T
	settle(step int64)
	anchor(file string, base int64)
}

// held is the part of a Partial that keeps its lines' values in input order until they are
// committed (calls, rank events): which are anchored, and whether some wait for their step.
type held[T any, P item[T]] struct {
	items    []T
	anchored int  // items before this index have their file and absolute line
	open     bool // holds items whose step is not settled
}

func (h *held[T, P]) add(v T) {
	h.items = append(h.items, v)
	h.open = true
}

// settle gives the items their step, or drops them (keep false).
func (h *held[T, P]) settle(step int64, keep bool) {
	h.open = false
	if !keep {
		h.items, h.anchored = h.items[:0], 0
		return
	}
	for i := range h.items {
		P(&h.items[i]).settle(step)
	}
}

func (h *held[T, P]) anchor(o Origin) {
	for i := h.anchored; i < len(h.items); i++ {
		P(&h.items[i]).anchor(o.File, o.Base)
	}
	h.anchored = len(h.items)
}

// merge appends o's items. Where this one holds none it takes o's buffer rather than copy
// it (items with pointers cost write barriers to copy), and o gets this one's to reuse.
func (h *held[T, P]) merge(o *held[T, P]) {
	switch {
	case len(h.items) == 0:
		h.items, o.items = o.items, h.items[:0]
		h.anchored, o.anchored = o.anchored, 0
	case h.anchored == len(h.items):
		h.anchored += o.anchored
		fallthrough
	default:
		h.items = append(h.items, o.items...)
	}
	h.open = h.open || o.open
}

// reset empties h, keeping its buffer.
func (h *held[T, P]) reset() { *h = held[T, P]{items: h.items[:0]} }

// committed empties h once its items are committed; a large buffer is let go.
func (h *held[T, P]) committed() { h.items, h.anchored = reuse(h.items), 0 }

func (c *Call) settle(step int64) { c.Step = step }

func (c *Call) anchor(file string, base int64) { c.File, c.Line = file, c.Line+base }
