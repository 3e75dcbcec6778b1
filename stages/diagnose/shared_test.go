package diagnose_test

import (
	"slices"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// ibErr writes the IB completion error with status st that p's proxy thread prints, and its
// chain.
func ibErr(p jobProc, peer string, st string) string {
	return chain(p, "transport/net_ib.cc:1300", "NET/IB : Got completion from peer "+peer+" with error "+st+", opcode 1"+st+", len 0, vendor err 81 (Send)", 6,
		"transport/net.cc:1010", "proxy.cc:680")
}

// TestSharedCause: where every process that shows evidence met the same origin and nothing
// else, the first finding is one shared finding naming every host, not the first by log order.
// One process's error that the other only follows (a peer that closed), or two different
// errors, are not shared.
func TestSharedCause(t *testing.T) {
	data, ps := warnJob(t)
	a, b := ps[1], ps[6] // on gpu-node-00 and gpu-node-01
	closed := warnAt(b, 8006, "misc/socket.cc:540", "socketProgress: Connection closed by remote peer "+a.host+"<40001>")
	for _, c := range []struct {
		name   string
		lines  string
		shared bool
	}{
		{"same-error", ibErr(a, "10.3.0.2<41001>", "4") + ibErr(b, "10.3.0.9<52002>", "4"), true},
		{"different-status", ibErr(a, "10.3.0.2<41001>", "4") + ibErr(b, "10.3.0.9<52002>", "12"), false},
		{"one-errs-the-other-follows", ibErr(a, "10.3.0.2<41001>", "12") + closed, false},
		{"same-error-and-a-peer-closing", ibErr(a, "10.3.0.2<41001>", "4") + ibErr(ps[2], "10.3.0.9<52002>", "4") + closed, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := diagnoseBytes(t, "job.log", append(slices.Clone(data), c.lines...), 0)
			if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
				t.Fatalf("status %s, want fault:\n%s", r.Status, js(r))
			}
			f := r.Findings[0]
			if f.Kind != diagnose.KindNetworkError || f.Shared != c.shared {
				t.Fatalf("first finding %s shared %v, want network-error shared %v: %s", f.Kind, f.Shared, c.shared, f.Summary)
			}
			if c.shared {
				if !slices.Equal(f.Hosts, []string{a.host, b.host}) || !slices.Equal(f.Processes, []string{a.name(), b.name()}) || len(r.Findings) != 1 {
					t.Errorf("shared finding names hosts %v processes %v with %d findings, want %s and %s alone:\n%s", f.Hosts, f.Processes, len(r.Findings), a.name(), b.name(), js(r))
				}
				return
			}
			if !slices.Equal(f.Processes, []string{a.name()}) {
				t.Errorf("first finding names %v, want %s first by log order: %s", f.Processes, a.name(), f.Summary)
			}
		})
	}
}
