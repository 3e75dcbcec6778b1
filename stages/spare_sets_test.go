package stages_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
	"github.com/nccllog/nccllog/stages/ranks"
)

// TestFinishedInputLendsItsWaitingSet: the waiting Set of an input that finished serves the
// next input's Merger, emptied, with the same result as a Set made anew; once the plan lets
// go of its spares, a Merger makes its own.
func TestFinishedInputLendsItsWaitingSet(t *testing.T) {
	var b strings.Builder
	for i := range 200 { // calls and no marker: every line waits for the input's end
		fmt.Fprintf(&b, "node1:7:7 [%d] NCCL INFO AllReduce: opCount %x sendbuff 0x1 recvbuff 0x2 count 4 datatype 7 op 0 root 0 comm 0xa%d [nranks=2] stream 0x3\n", i%2, i/2, i%2)
	}
	data := []byte(b.String())
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	plan := stages.MustPlan(stages.Config{}, all.Registry(), "ranks")
	run := func() (*stages.Set, string) {
		m := stages.NewMerger(plan, "rank.log", &written{})
		pending := m.Pending()
		if err := m.Add(stages.Read(plan, data, p, p), data); err != nil {
			t.Fatal(err)
		}
		if held := pending.Parts[1].(*ranks.RanksPart).Held(); held != 200 {
			t.Fatalf("the waiting stretch holds %d calls, want 200", held)
		}
		if err := m.Finish(); err != nil {
			t.Fatal(err)
		}
		j, err := json.Marshal(m.Total.Parts[1].Snapshot())
		if err != nil {
			t.Fatal(err)
		}
		return pending, string(j)
	}
	first, want := run()
	second, got := run()
	if second != first {
		t.Error("the second input's Merger made a waiting Set anew")
	}
	if got != want {
		t.Errorf("the lent Set gave another result:\n got %s\nwant %s", got, want)
	}
	plan.ReleaseChunks()
	if third, _ := run(); third == first {
		t.Error("a Merger took a Set the plan had let go")
	}
}
