package ranks

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages/internal/stagetest"
)

// excerptJob is a healthy generated job for the cut tests, and whether its opCounts are
// rewritten to 0 (2.8, and 2.27+ on single-node NVLink-only jobs, print 0 throughout).
type excerptJob struct {
	name   string
	cfg    gen.Config
	zeroOp bool
}

func excerptJobs() []excerptJob {
	return []excerptJob{
		{"2 ranks", gen.Config{Ranks: 2, Steps: 4, Seed: 1}, false},
		{"2 ranks, opCount 0", gen.Config{Ranks: 2, Steps: 4, Seed: 1}, true},
		{"2 ranks, one step", gen.Config{Ranks: 2, Steps: 1, Seed: 7}, false},
		{"16 ranks", gen.Config{Ranks: 16, Steps: 3, Seed: 2}, false},
		{"16 ranks, opCount 0", gen.Config{Ranks: 16, Steps: 3, Seed: 2}, true},
		{"8 GPUs a process", gen.Config{Ranks: 16, GPUsPerProcess: 8, Steps: 3, Seed: 3}, false},
		{"8 GPUs a process, opCount 0", gen.Config{Ranks: 16, GPUsPerProcess: 8, Steps: 3, Seed: 3}, true},
		{"8 ranks, noise", gen.Config{Ranks: 8, RanksPerHost: 4, Steps: 4, Noise: true, Seed: 4}, false},
		{"16 ranks, 2.27", gen.Config{Ranks: 16, Steps: 3, Seed: 5, NCCLVersion: "2.27.3"}, false},
	}
}

func (j excerptJob) events(t *testing.T, p *parser.Parser) []RankEvent {
	t.Helper()
	var b bytes.Buffer
	if _, err := gen.Write(&b, j.cfg); err != nil {
		t.Fatalf("%s: %v", j.name, err)
	}
	events := rankEvents(stagetest.ParseLines(p, b.Bytes()))
	if j.zeroOp {
		for i := range events {
			events[i].Coll.OpCount = 0
		}
	}
	return events
}

// verdicts names hang's suspects and check's findings on r, "" where there are none.
func verdicts(r *Ranks) string {
	var out string
	for _, f := range r.Hang() {
		if len(f.Suspects) > 0 {
			out += fmt.Sprintf("hang: comm of %d ranks: suspects %v (behind %d); ", f.Group.NRanks, suspectLabels(f), f.Suspects[0].Behind)
		}
	}
	for _, f := range r.Check() {
		out += fmt.Sprintf("check: comm of %d ranks: %s %s at %d; ", f.Group.NRanks, f.Kind, f.What, f.Index)
	}
	return out
}

// TestVerdictsOnHealthyCuts: the pieces people paste of a healthy job's log (the last lines,
// a middle piece, the first lines), cut after any of a few hundred lines of jobs of 2 and 16
// ranks, 8 GPUs a process, 2.27, with opCounts going up or all 0: hang and check find
// nothing on any piece that runs to the log's end, whatever call each rank's lines start at.
// A piece that ends before the log does can end with a communicator's ranks at two calls,
// the culprits behind and the others at the furthest: that is a hang's shape, which no cut
// can be told from (TestHangOnHealthyCuts), and the only finding it gets. With -short, 10
// cuts spread over each log rather than every hundredth of it.
func TestVerdictsOnHealthyCuts(t *testing.T) {
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range excerptJobs() {
		events := j.events(t, p)
		n := len(events)
		if v := verdicts(ranksOfEvents(events)); v != "" {
			t.Errorf("%s: the whole log: %s", j.name, v)
		}
		shapes, cuts, absents := 0, 0, 0
		step := max(n/100, 1)
		for _, k := range cutPoints(step, n-1, step, 10) {
			cuts += 4
			if v := verdicts(ranksOfEvents(events[k:])); v != "" {
				t.Errorf("%s: events %d-%d of %d (its end): %s", j.name, k, n, n, v)
			}
			for _, cut := range [][2]int{{0, k}, {k / 2, k + (n-k)/2}, {k, min(n, k+max(n/20, 8))}} {
				name := fmt.Sprintf("%s, events %d-%d of %d", j.name, cut[0], cut[1], n)
				r := ranksOfEvents(events[cut[0]:cut[1]])
				absent := 0
				for _, f := range r.Hang() {
					for _, s := range f.Suspects {
						// Where no line names the communicator and its opCounts are all 0,
						// nothing tells a piece from a whole log whose other rank printed
						// nothing (TestHangSentences): a rank without lines is its suspect.
						if s.Member == nil && !(j.zeroOp && f.Group.Inferred()) {
							t.Fatalf("%s: a rank without lines is a suspect: %s", name, verdicts(r))
						}
						if s.Member == nil {
							absent++
						}
					}
				}
				absents += min(absent, 1)
				if absent == 0 && hangShapeOnly(t, name, cut[1]-cut[0], r) {
					shapes++
				}
			}
		}
		t.Logf("%s: %d pieces, %d end in a hang's shape, %d name a rank without lines", j.name, cuts, shapes, absents)
	}
}
