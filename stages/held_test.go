package stages

import "testing"

// A chunk's selected list merges its stretches one by one: where it holds none but has the
// larger buffer (the last chunk's), it keeps that buffer and copies the stretch in, rather
// than take the stretch's smaller one and grow it again.
func TestHeldMergeKeepsTheLargerBuffer(t *testing.T) {
	var sel, cur Held[Call, *Call]
	sel.Reserve(100)
	big := cap(sel.Items)
	cur.Add(Call{Line: 1})
	cur.Add(Call{Line: 2})
	cur.Anchor(Origin{File: "f", Base: 10})
	sel.Merge(&cur)
	if cap(sel.Items) != big {
		t.Errorf("the selected list's buffer went from %d to %d items", big, cap(sel.Items))
	}
	if len(sel.Items) != 2 || sel.Items[1].Line != 12 || sel.Anchored != 2 || !sel.Open {
		t.Errorf("merged %+v (anchored %d, open %v), want lines 11 and 12, anchored, open", sel.Items, sel.Anchored, sel.Open)
	}
	// The other way round the empty list takes the larger buffer, and leaves its own.
	var empty Held[Call, *Call]
	empty.Merge(&sel)
	if cap(empty.Items) != big || len(empty.Items) != 2 || len(sel.Items) != 0 {
		t.Errorf("took %d of %d items, left %d", len(empty.Items), cap(empty.Items), len(sel.Items))
	}
}

func TestHeldReserve(t *testing.T) {
	var h Held[Call, *Call]
	h.Add(Call{Line: 1})
	h.Reserve(50)
	if cap(h.Items) < 50 || len(h.Items) != 1 || h.Items[0].Line != 1 {
		t.Errorf("reserved %d, holds %+v", cap(h.Items), h.Items)
	}
	h.Reserve(10) // less than it has: nothing changes
	if cap(h.Items) < 50 {
		t.Errorf("shrank to %d", cap(h.Items))
	}
}
