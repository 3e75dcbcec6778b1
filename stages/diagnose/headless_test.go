package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestHeadlessWarns: a WARN pasted with its level alone (`NCCL WARN NET/OFI ...`) is read
// as one behind a head; one whose head kept its device alone (`[1] misc/shmutils.cc:103
// NCCL WARN ...`) is the process on that GPU's.
func TestHeadlessWarns(t *testing.T) {
	r := diagnoseBytes(t, "ofi.log", []byte("NCCL WARN NET/OFI Creating new endpoint for domain 0x7f9befa99380 failed: Invalid argument\n"), 0)
	if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindNetworkError {
		t.Errorf("a WARN with its level alone: want a network fault:\n%s", js(r))
	}
	lines := "[3] NCCL INFO 2 coll channels, 2 p2p channels, 2 p2p channels per peer\n" +
		"[1] misc/shmutils.cc:103 NCCL WARN Cuda failure 'invalid argument'\n" +
		"[0] misc/shmutils.cc:103 NCCL WARN Cuda failure 'invalid argument'\n"
	r = diagnoseBytes(t, "dev.log", []byte(lines), 0)
	if r.Status != diagnose.StatusFault || !slices.Equal(r.Findings[0].GPUs, []int64{1}) ||
		!strings.HasPrefix(r.Findings[0].Summary, "the process on GPU 1 ") {
		t.Errorf("heads cut to their device: want GPU 1's first:\n%s", js(r))
	}
	for _, lead := range []string{"node1: ", "> "} {
		var b strings.Builder
		for _, l := range strings.SplitAfter(lines, "\n") {
			if l != "" {
				b.WriteString(lead + l)
			}
		}
		r := diagnoseBytes(t, "dev.log", []byte(b.String()), 0)
		if r.Status != diagnose.StatusFault || !slices.Equal(r.Findings[0].GPUs, []int64{1}) {
			t.Errorf("heads cut to their device behind %q: want GPU 1's first:\n%s", lead, js(r))
		}
	}
	for _, near := range []string{"NCCL WARNING: something\n", "see NCCL WARN lines below\n"} {
		if r := diagnoseBytes(t, "near.log", []byte(near), 0); r.Status == diagnose.StatusFault {
			t.Errorf("%q: status fault, want none", near)
		}
	}
}
