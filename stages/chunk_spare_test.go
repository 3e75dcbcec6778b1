package stages

import "testing"

// TestSpareChunksTrimmed: chunks released after a stretch with many in flight (several inputs
// read at once) are let go once a later stretch of trimEvery releases did not need them, and
// the ones it did need stay.
func TestSpareChunksTrimmed(t *testing.T) {
	plan := &Plan{}
	var burst []*Chunk
	for range 8 {
		burst = append(burst, NewChunk(plan))
	}
	for _, c := range burst {
		c.Release()
	}
	if n := len(plan.chunks.list); n != 8 {
		t.Fatalf("%d chunks kept after 8 were released, want 8", n)
	}
	var last *Chunk
	for i := range 2 * trimEvery {
		c := NewChunk(plan)
		if last != nil && c != last {
			t.Fatalf("release %d: the chunk released last was not the one reused", i)
		}
		c.Release()
		last = c
	}
	if n := len(plan.chunks.list); n != 1 {
		t.Errorf("%d chunks kept where one at a time was in use, want 1", n)
	}
	plan.ReleaseChunks()
	if n := len(plan.chunks.list); n != 0 {
		t.Errorf("%d chunks kept after the plan let them go", n)
	}
}
