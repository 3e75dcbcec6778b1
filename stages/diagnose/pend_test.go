package diagnose

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// commLog is lines of n processes' communicators: each starts, most complete, some abort,
// some are destroyed, with Layout lines (no lifecycle event) between.
func commLog(n int) []string {
	var out []string
	for i := range n {
		host, comm := fmt.Sprintf("node-%d", i%37), 0x5500+i
		head := fmt.Sprintf("%s:%d:%d [%d] NCCL INFO comm %#x rank %d nranks %d cudaDev %d", host, 1000+i, 2000+i, i%8, comm, i%8, 8, i%8)
		out = append(out, head+" nvmlDev 0 busId 1000 commId 0x77 - Init START",
			fmt.Sprintf("%s:%d:%d [%d] NCCL INFO comm %#x rank %d nRanks 8 nNodes 1 localRanks 8 localRank %d MNNVL 0", host, 1000+i, 2000+i, i%8, comm, i%8, i%8))
		if i%5 != 0 {
			out = append(out, head+" nvmlDev 0 busId 1000 commId 0x77 - Init COMPLETE")
		}
		switch i % 7 {
		case 1:
			out = append(out, head+" busId 1000 - Abort COMPLETE", head+" busId 1000 - Abort COMPLETE")
		case 2:
			out = append(out, head+" busId 1000 - Destroy COMPLETE")
		}
	}
	return out
}

// readPart adds lines [from, to) of the file to a fresh Part and anchors them.
func readPart(t *testing.T, p *parser.Parser, lines []string, from, to int) *Part {
	t.Helper()
	part := newPart()
	for i := from; i < to; i++ {
		var l parser.Line
		p.Parse([]byte(lines[i]), &l)
		if l.Kind != parser.KindComm {
			t.Fatalf("line %d is read as %v, not a communicator line: %s", i+1, l.Kind, lines[i])
		}
		part.Add(&stages.Line{N: int64(i - from + 1), Text: []byte(lines[i]), P: &l})
	}
	part.Anchor(stages.Origin{File: "job.log", Base: int64(from)})
	return part
}

// TestCommLinesFoldAsOneRead: communicator states made from a log read whole and from its
// chunks merged (directly, or through a Partial that holds them before passing them on, as
// lines wait for a step marker) are the same, and so is the count of lifecycle lines of the
// communicators past maxComms, however the lines were cut.
func TestCommLinesFoldAsOneRead(t *testing.T) {
	n := maxComms + 700
	if testing.Short() {
		n = 3000 // under maxComms: the cap itself is met in the full run
	}
	lines := commLog(n)
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	want := readPart(t, p, lines, 0, len(lines)).Evidence()
	if n > maxComms && want.CommsLeft == 0 {
		t.Fatal("no communicator line left out past maxComms")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 4 {
		whole, held := newPart(), newPart()
		for from := 0; from < len(lines); {
			to := min(len(lines), from+1+rng.IntN(3*maxCommLines))
			chunk := readPart(t, p, lines, from, to)
			if round%2 == 1 && rng.IntN(3) > 0 {
				held.Merge(chunk) // waits, with others, before joining the whole
			} else {
				held.Merge(chunk)
				whole.Merge(held)
				held.Reset()
			}
			from = to
		}
		whole.Merge(held)
		got := whole.Evidence()
		// reflect.DeepEqual first: cmp.Diff walking 3,000 equal states was a third of the test's
		// time; it still says where any difference is.
		if !reflect.DeepEqual(want.Comms, got.Comms) {
			if diff := cmp.Diff(want.Comms, got.Comms, cmp.AllowUnexported(commState{})); diff != "" {
				t.Fatalf("round %d: states differ from one read's (-want +got):\n%s", round, diff)
			}
		}
		if got.CommsLeft != want.CommsLeft {
			t.Errorf("round %d: %d lines left out, want %d", round, got.CommsLeft, want.CommsLeft)
		}
	}
}
