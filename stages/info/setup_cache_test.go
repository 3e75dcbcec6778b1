package info

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nccllog/nccllog/parser"
)

// TestSetupCacheReadsAsParser feeds the cache more distinct messages than it keeps, some
// repeating at once and some after they were dropped: every reading is ParseSetup's, and the
// cache never holds more than maxSeen messages, each at its own slot.
func TestSetupCacheReadsAsParser(t *testing.T) {
	var c setupCache
	msg := func(i int) []byte {
		switch i % 3 {
		case 0:
			return fmt.Appendf(nil, "Bootstrap : Using ib0:10.0.%d.%d<0>", i/256, i%256)
		case 1:
			return fmt.Appendf(nil, "Channel %02d/0 : %d[%d] -> %d[%d] via P2P/IPC", i%32, i, i%8, i+1, (i+1)%8)
		}
		return []byte("Connected all trees")
	}
	for _, i := range append(seq(0, 3*maxSeen), seq(0, maxSeen)...) {
		m := msg(i)
		gs, gok := c.parse(m)
		ws, wok := parser.ParseSetup(m)
		if gok != wok || !cmp.Equal(gs, ws) {
			t.Fatalf("message %q: got %+v, %v; want %+v, %v", m, gs, gok, ws, wok)
		}
		if len(c.at) > maxSeen || len(c.slots) > maxSeen {
			t.Fatalf("after message %d: %d messages in %d slots, more than %d", i, len(c.at), len(c.slots), maxSeen)
		}
		for k, j := range c.at {
			if c.slots[j].msg != k {
				t.Fatalf("message %q is at slot %d, which holds %q", k, j, c.slots[j].msg)
			}
		}
	}
}

func seq(from, to int) []int {
	s := make([]int, 0, to-from)
	for i := from; i < to; i++ {
		s = append(s, i)
	}
	return s
}
