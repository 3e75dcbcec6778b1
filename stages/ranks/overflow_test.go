package ranks

import (
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/agg"
	"testing"
)

// TestBytesSaturate: byte sizes and totals past 2^63-1 stay at MaxBytes instead of wrapping
// negative (1,100 calls of count 2^50 fp64 gave a total of -7.4 EiB), and a saturated size
// falls in the histogram's last bucket.
func TestBytesSaturate(t *testing.T) {
	const fp64 = 8
	a := agg.NewAgg()
	for range 1100 {
		a.Add("AllReduce", 1<<50, fp64)
	}
	a.Add("AllGather", 1<<62, fp64) // 2^65 bytes in one call
	for _, s := range a.Stats() {
		if s.Total != stages.MaxBytes || s.Max != stages.MaxBytes && s.Op == "AllGather" {
			t.Errorf("%s: total %d, max %d; want both saturated at %d", s.Op, s.Total, s.Max, int64(stages.MaxBytes))
		}
	}
	for _, b := range a.Hist([]int64{64 << 10, 1 << 20, 16 << 20}) {
		if b.Hi != -1 {
			t.Errorf("%s: %d calls in [%d, %d), want the last bucket", b.Op, b.Calls, b.Lo, b.Hi)
		}
	}
	var v, sum Volume
	for range 1100 {
		v.add(Sig{Op: "AllReduce", Count: 1 << 50, Datatype: fp64}, 8)
	}
	sum.merge(v)
	sum.merge(v)
	if v.Bytes != stages.MaxBytes || sum.Bytes != stages.MaxBytes {
		t.Errorf("volume bytes %d, merged %d; want %d", v.Bytes, sum.Bytes, int64(stages.MaxBytes))
	}
	c := stages.Call{}
	c.Coll.Count, c.Coll.Datatype = 1<<62, fp64
	if c.Bytes() != stages.MaxBytes {
		t.Errorf("call of 2^65 bytes: Bytes() = %d", c.Bytes())
	}
}
