package stages_test

import (
	"testing"

	"github.com/nccllog/nccllog/stages"
)

// trimEvery is how many Chunks a plan releases between trims of its spares (stages'
// trimEvery): the test runs two such stretches.
const trimEvery = 64

// TestSpareChunksTrimmed: chunks released after a stretch with many in flight (several inputs
// read at once) are let go once a later stretch of trimEvery releases did not need them, and
// the ones it did need stay.
func TestSpareChunksTrimmed(t *testing.T) {
	plan := &stages.Plan{}
	var burst []*stages.Chunk
	for range 8 {
		burst = append(burst, stages.NewChunk(plan))
	}
	for _, c := range burst {
		c.Release()
	}
	if n := plan.SpareChunks(); n != 8 {
		t.Fatalf("%d chunks kept after 8 were released, want 8", n)
	}
	var last *stages.Chunk
	for i := range 2 * trimEvery {
		c := stages.NewChunk(plan)
		if last != nil && c != last {
			t.Fatalf("release %d: the chunk released last was not the one reused", i)
		}
		c.Release()
		last = c
	}
	if n := plan.SpareChunks(); n != 1 {
		t.Errorf("%d chunks kept where one at a time was in use, want 1", n)
	}
	plan.ReleaseChunks()
	if n := plan.SpareChunks(); n != 0 {
		t.Errorf("%d chunks kept after the plan let them go", n)
	}
}
