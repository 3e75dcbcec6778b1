package stages

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
	h.Items = append(h.Items, v)
	h.Open = true
}

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
		h.Items = append(h.Items, o.Items...)
	}
	h.Open = h.Open || o.Open
}

// reset empties h, keeping its buffer.
func (h *Held[T, P]) Reset() { *h = Held[T, P]{Items: h.Items[:0]} }

// committed empties h once its items are committed; a large buffer is let go.
func (h *Held[T, P]) Committed() { h.Items, h.Anchored = Reuse(h.Items), 0 }

func (c *Call) Settle(step int64) { c.Step = step }

func (c *Call) Anchor(file string, base int64) { c.File, c.Line = file, c.Line+base }
