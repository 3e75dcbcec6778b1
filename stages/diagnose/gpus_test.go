package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestFindingGPUs: a finding names the devices its evidence lines show (the envelope's
// [dev]), in JSON and after its kind in the text's facts; one whose lines show none (the
// launcher's) names none.
func TestFindingGPUs(t *testing.T) {
	data, ps := warnJob(t)
	p := ps[5] // device 1 of its host
	lines := chain(p, "transport/nvls.cc:157", "Cuda failure 1 'invalid argument'", 1, "transport/nvls.cc:328", "init.cc:1236")
	r := diagnoseBytes(t, "job.log", append(slices.Clone(data), lines...), 0)
	if len(r.Findings) == 0 {
		t.Fatalf("no finding:\n%s", js(r))
	}
	f := r.Findings[0]
	if !slices.Equal(f.GPUs, []int64{1}) || !strings.Contains(f.Facts(), "GPU 1") {
		t.Errorf("first finding's GPUs %v, facts %q: want GPU 1", f.GPUs, f.Facts())
	}
	r = diagnoseBytes(t, "job.log", append(slices.Clone(data), mpiBanner...), 0)
	if f := r.Findings[0]; len(f.GPUs) != 0 || strings.Contains(f.Facts(), "GPU") {
		t.Errorf("the launcher's notice: GPUs %v, facts %q: want none", f.GPUs, f.Facts())
	}
	two := diagnose.Finding{Kind: diagnose.KindCudaError, GPUs: []int64{0, 1, 2, 5}}
	if got := two.Facts(); got != "cuda-error, GPUs 0-2, 5" {
		t.Errorf("facts of 4 GPUs: %q", got)
	}
}
