package diagnose

import (
	"fmt"
	"testing"

	"github.com/nccllog/nccllog/parser"
)

// TestCommIndexSameWord: processes of two hosts with the same pid and communicator (one
// word in commIndex) keep a state each, read whole or in chunks merged.
func TestCommIndexSameWord(t *testing.T) {
	var lines []string
	for _, host := range []string{"node-a", "node-b", "node-c"} {
		head := fmt.Sprintf("%s:4242:4243 [0] NCCL INFO comm 0x5500 rank 0 nranks 8 cudaDev 0 nvmlDev 0 busId 1000 commId 0x77", host)
		lines = append(lines, head+" - Init START")
		if host != "node-b" {
			lines = append(lines, head+" - Init COMPLETE")
		}
	}
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, part *Part) {
		t.Helper()
		e := part.Evidence()
		if len(e.Comms) != 3 {
			t.Fatalf("%s: %d communicator states, want 3", name, len(e.Comms))
		}
		for _, c := range e.Comms {
			if done := c.Complete != nil; done != (c.Host != "node-b") || c.Start == nil || c.Pid != 4242 {
				t.Errorf("%s: %s's state %+v", name, c.Host, c)
			}
		}
		for _, c := range e.Comms {
			if got := part.comms.get(&c.commKey); got != c {
				t.Errorf("%s: %s's state found as %v", name, c.Host, got)
			}
		}
	}
	check("whole", readPart(t, p, lines, 0, len(lines)))
	for cut := 1; cut < len(lines); cut++ {
		for _, foldB := range []bool{false, true} {
			a, b := readPart(t, p, lines, 0, cut), readPart(t, p, lines, cut, len(lines))
			a.fold() // a holds states, so b's lines fold into them, or b's states merge
			if foldB {
				b.fold()
			}
			a.Merge(b)
			check(fmt.Sprintf("cut at %d, b folded %v", cut, foldB), a)
		}
	}
}
