package stages

import (
	"runtime"
	"testing"

	"github.com/nccllog/nccllog/parser"
)

// retained is how many heap bytes the value build returns keeps alive.
func retained(build func() any) int64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc)
}

// TestAggPerOpMemory: stats and hist print one row per op (and bucket), so a log of many
// distinct (op, count, datatype) costs them no more than one of a few. The full table (agg)
// does grow with them.
func TestAggPerOpMemory(t *testing.T) {
	const n = 200_000
	shapes := func(cfg *Config) func() any {
		return func() any {
			p := AggStage{}.New(cfg).(*AggPart)
			for i := range int64(n) {
				p.Agg.Add(shapeOps[i%4], 1+i/40, shapeTypes[i/4%10])
			}
			return p
		}
	}
	full := retained(shapes(&Config{}))
	perOp := retained(shapes(&Config{AggPerOp: true}))
	t.Logf("%d distinct shapes: %d bytes with the table, %d per op", n, full, perOp)
	if perOp > 64<<10 {
		t.Errorf("per-op sums of %d distinct shapes keep %d bytes, want under 64 KiB", n, perOp)
	}
}

var (
	shapeOps   = []parser.Op{"AllReduce", "AllGather", "ReduceScatter", "Broadcast"}
	shapeTypes = []parser.Datatype{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
)
