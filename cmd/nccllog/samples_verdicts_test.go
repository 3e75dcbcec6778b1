package main

import (
	"path/filepath"
	"testing"

	"github.com/nccllog/nccllog/internal/sharedtest"
)

// TestSampleVerdicts runs hang and check on every real sample. Healthy excerpts (a window cut
// from a running job, a node's log, one process driving several GPUs) must give no finding;
// the TensorFlow issue's excerpt, where device 1 issued a call device 0 never did, names
// device 0; the two sglang excerpts end in a real NET/IB error WARN on one rank.
func TestSampleVerdicts(t *testing.T) {
	found := map[string]bool{
		"issue-nccl203-tensorflow-1proc-2gpu-allreduce-opcount-hex.log":       true,
		"nccl-2.27.5-sglang-16rank-initcomplete-opcount-tuning-warn.log":      true,
		"nccl-2.27.5-sglang-16rank-node0007-initcomplete-algomatrix-warn.log": true,
	}
	files := sharedtest.Glob(t, "samples/*.log")
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			want := exitOK
			if found[name] {
				want = exitFound
			}
			var h hangJSON
			runJSON(t, &h, want, "hang", "--format", "json", f)
			if name == "issue-nccl203-tensorflow-1proc-2gpu-allreduce-opcount-hex.log" {
				if len(h.Comms) != 1 || len(h.Comms[0].Suspects) != 1 || h.Comms[0].Suspects[0].Calls != 3 {
					t.Errorf("hang: %+v, want one communicator of the two devices, the one with 3 calls its suspect", h.Comms)
				}
			}
			var c checkJSON
			wantCheck := exitOK
			if name == "issue-nccl203-tensorflow-1proc-2gpu-allreduce-opcount-hex.log" {
				wantCheck = exitFound
			}
			runJSON(t, &c, wantCheck, "check", "--format", "json", f)
		})
	}
}
