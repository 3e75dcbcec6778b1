package diagnose_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/sharedtest"
	"github.com/nccllog/nccllog/stages/diagnose"
)

// sampleFaults are the shared samples whose lines show a fault, and the kind of their first
// finding: the sglang excerpts each hold an NCCL WARN of an IB completion error (status=4,
// vendor err 81) followed by its `-> 6` chain. Every other sample is not a fault.
var sampleFaults = map[string]diagnose.Kind{
	"nccl-2.27.5-sglang-16rank-initcomplete-opcount-tuning-warn.log":      diagnose.KindNetworkError,
	"nccl-2.27.5-sglang-16rank-node0007-initcomplete-algomatrix-warn.log": diagnose.KindNetworkError,
}

func TestSharedSamples(t *testing.T) {
	for _, path := range sharedtest.Glob(t, "samples/*.log") {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			r := diagnoseBytes(t, name, data, 0)
			want, bad := sampleFaults[name]
			switch {
			case !bad && r.Status == diagnose.StatusFault:
				t.Errorf("a fault in a sample that shows none:\n%s", js(r))
			case bad && (r.Status != diagnose.StatusFault || r.Findings[0].Kind != want):
				t.Errorf("want a fault whose first finding is %s:\n%s", want, js(r))
			case bad && !strings.Contains(r.Findings[0].Summary, "status=4"):
				t.Errorf("the first finding does not quote the IB error: %s", r.Findings[0].Summary)
			}
		})
	}
}
