package diff

import (
	"encoding/json"
	"testing"

	"github.com/nccllog/nccllog/stages/agg"
	"github.com/nccllog/nccllog/stages/info"
	"github.com/nccllog/nccllog/stages/ranks"
	"github.com/nccllog/nccllog/stages/steps"
)

func side(ranks int, calls int64, stepTimes ...float64) *Side {
	r := &info.InfoReport{Processes: ranks}
	for i := range ranks {
		r.Ranks = append(r.Ranks, info.ProcRow{Rank: int64(i), Ranks: []int64{int64(i)}})
	}
	st := steps.Report{N: len(stepTimes)}
	for i, v := range stepTimes {
		st.Steps = append(st.Steps, steps.StepRow{Step: int64(i), TimeS: &v})
	}
	return &Side{Info: r, Stats: agg.StatsReport{Ops: []agg.StatRow{{Op: "AllReduce", Calls: calls, TotalBytes: calls * 8}}}, Steps: st}
}

// TestCompareOrderAndRules: sections come in Section order; step times within Tolerance are
// the same and beyond it differ; runs of different sizes compare calls per rank.
func TestCompareOrderAndRules(t *testing.T) {
	same := Compare(side(2, 100, 1, 1), side(2, 100, 1.04, 1.04))
	if same.Differ() || len(same.Same) != int(numSections) {
		t.Errorf("within tolerance: %+v", same)
	}
	d := Compare(side(2, 100, 1, 1), side(4, 200, 2, 2))
	var whats []string
	for _, x := range d.Differences {
		whats = append(whats, x.Section.String()+"/"+x.What)
	}
	want := []string{"identity/processes", "steps/step time median", "steps/step time p95"}
	if len(whats) != len(want) {
		t.Fatalf("want %q, got %q", want, whats)
	}
	for i := range want {
		if whats[i] != want[i] {
			t.Errorf("difference %d: want %q, got %q", i, want[i], whats[i])
		}
	}
	b, _ := json.Marshal(d.Differences[1])
	if string(b) != `{"section":"steps","what":"step time median","a":"1 s","b":"2 s","ratio":2}` {
		t.Errorf("JSON: %s", b)
	}
	// Twice the calls on the same two ranks is a difference.
	if d := Compare(side(2, 100), side(2, 200)); len(d.Differences) != 2 || d.Differences[0].What != "AllReduce calls" {
		t.Errorf("same size: %+v", d.Differences)
	}
}

// TestBusSpread: one rank of the largest communicator moving twice the bus volume of the
// others is a difference; a smaller communicator's imbalance is not looked at.
func TestBusSpread(t *testing.T) {
	comm := func(n int64, bus ...float64) ranks.RankComm {
		c := ranks.RankComm{NRanks: n}
		for _, b := range bus {
			c.Ranks = append(c.Ranks, ranks.RankReport{BusBytes: b})
		}
		return c
	}
	a, b := side(4, 100), side(4, 100)
	a.Ranks.Comms = []ranks.RankComm{comm(2, 1, 9), comm(4, 10, 10, 10, 10)}
	b.Ranks.Comms = []ranks.RankComm{comm(2, 1, 1), comm(4, 10, 20, 10, 10)}
	d := Compare(a, b)
	if len(d.Differences) != 1 || d.Differences[0].A != "1" || d.Differences[0].B != "2" {
		t.Errorf("%+v", d.Differences)
	}
}

// TestMultisetUnknown: a host without GPU lines and a communicator whose size was not
// printed are "unknown", not a count of 0 ("0 on 1 host" read as a host with no GPU).
func TestMultisetUnknown(t *testing.T) {
	hosts := []info.HostRow{{Host: "a", GPUs: []info.GPU{{CudaDev: 0}, {CudaDev: 1}}}, {Host: "b"}}
	if got, want := gpusPerHost(&info.InfoReport{Hosts: hosts}), "2 on 1 host, unknown on 1 host"; got != want {
		t.Errorf("gpusPerHost = %q, want %q", got, want)
	}
	comms := []info.CommRow{{NRanks: 16}, {NRanks: -1}, {NRanks: 0}}
	if got, want := commSizes(&info.InfoReport{Comms: comms}), "16 on 1 communicator, unknown on 2 communicators"; got != want {
		t.Errorf("commSizes = %q, want %q", got, want)
	}
}
