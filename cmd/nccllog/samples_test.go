package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nccllog/nccllog/internal/sharedtest"
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages/ranks"
)

// sampleCounts is how many collective, comm (init/layout/destroy) and progress lines each real
// sample holds, and how many lines are malformed (damaged NCCL output, each with a reason).
var sampleCounts = map[string][4]int{
	// file: {collective, comm, progress, malformed}
	"hf-trainer-esm2-k8s-nccl-initcomplete-socket-mixed.log":              {0, 1, 0, 0},
	"issue-dualpath-nccl-2.4.8-rings-trees-disabled-epoch.log":            {0, 0, 0, 0},
	"issue-msswift3934-garbled-interleaved-nvls-commsplit.log":            {0, 0, 0, 0},
	"issue-nccl203-tensorflow-1proc-2gpu-allreduce-opcount-hex.log":       {7, 0, 0, 0},
	"issue-nccl566-nccl-2.10.3-power9-ib-channels-trees.log":              {0, 0, 0, 0},
	"issue-openrlhf949-ray-actor-prefix-tqdm-garbled.log":                 {0, 0, 0, 1},
	"issue-tensorflow94650-1proc-4gpu-initcomplete-inittimings.log":       {0, 3, 0, 0},
	"issue-torchtitan-pr2389-unprefixed-allranks-step-lines.log":          {0, 0, 8, 0},
	"issue-torchtitan1369-tp-allgather-reducescatter-opcount.log":         {7, 0, 0, 0},
	"megatron-lm-gpt2-iteration-progress-timestamped.log":                 {0, 0, 26, 0},
	"nccl-2.18.3-ncclTests-1proc-8gpu-h800-nvls-full.log":                 {0, 24, 0, 0},
	"nccl-2.27.5-sglang-16rank-initcomplete-opcount-tuning-warn.log":      {8, 4, 0, 0},
	"nccl-2.27.5-sglang-16rank-node0007-initcomplete-algomatrix-warn.log": {0, 8, 0, 0},
	"nccl-2.30.7-gb200-mnnvl-init-version-banner.log":                     {0, 1, 0, 0},
	"nccl-2.30.7-gb200-p2p-import-register-window.log":                    {0, 0, 0, 0},
	"nccl-2.8.3-mpirun-tagoutput-16rank-2node-efa-ncclTests-full.log":     {0, 16, 0, 0},
	"nccl-platform-timestamp-every-line-doublespaced-ms-swift-grpo.log":   {0, 0, 0, 0},
	"nemo-llama3-8b-b200-tflops-per-gpu.log":                              {0, 0, 5, 0},
	"rccl-2.26.6-vllm-ray-nested-prefix-2node-init-garbled.log":           {0, 6, 0, 1},
	"rccl-msccl-8gpu-coll-plus-kernel-trace-KL-KE.log":                    {4, 0, 0, 0},
	"rccl-replayer-1proc-8comm-kernel-trace-then-coll.log":                {8, 0, 0, 0},
	"srun-l-prefix-fsdp-4node-allgather-broadcast-opcount-old-tuning.log": {9, 0, 0, 0},
}

// TestSamples reads every real sample: each line falls in one class, the counts of the classes
// that matter are as listed, and no line naming an opCount is left unread without a reason.
func TestSamples(t *testing.T) {
	files := sharedtest.Glob(t, "samples/*.log")
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var kinds [parser.NumKinds]int
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<24)
		for n := 1; sc.Scan(); n++ {
			var l parser.Line
			p.Parse(sc.Bytes(), &l)
			kinds[l.Kind]++
			if bytes.Contains(sc.Bytes(), []byte("opCount")) && l.Kind != parser.KindCollective &&
				(l.Kind != parser.KindMalformed || l.Reason == "") {
				t.Errorf("%s:%d: a line naming opCount was read as %v without a reason: %q", name, n, l.Kind, sc.Text())
			}
		}
		got := [4]int{kinds[parser.KindCollective], kinds[parser.KindComm], kinds[parser.KindProgress], kinds[parser.KindMalformed]}
		t.Logf("%-72s collective %4d  comm %3d  progress %3d  malformed %d", name, got[0], got[1], got[2], got[3])
		want, ok := sampleCounts[name]
		if !ok {
			t.Errorf("%s: new sample; add its counts %v to sampleCounts", name, got)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: {collective, comm, progress, malformed} (-want +got):\n%s", name, diff)
		}
	}
	if p.Stats.Disagree > 0 {
		t.Errorf("fast path and grammar disagreed on %d lines, first %q", p.Stats.Disagree, p.Stats.FirstDisagree)
	}
}

// TestSamplesAttribution: on every real sample, each collective line is attributed to a rank
// of a communicator, or the output says why it cannot be.
func TestSamplesAttribution(t *testing.T) {
	files := sharedtest.Glob(t, "samples/*.log")
	for _, f := range files {
		name := filepath.Base(f)
		want := sampleCounts[name][0]
		var v struct {
			Comms []struct {
				Ranks []ranks.RankReport `json:"ranks"`
			} `json:"comms"`
		}
		runJSON(t, &v, exitOK, "ranks", "--format", "json", f)
		var calls int64
		for _, c := range v.Comms {
			for _, r := range c.Ranks {
				calls += r.Calls
				if r.Rank == nil && r.NoRank == "" {
					t.Errorf("%s: %s:%d has no rank and no reason", name, r.Host, r.Pid)
				}
				if r.Rank != nil && r.RankFrom == "" {
					t.Errorf("%s: %s:%d has rank %d from nowhere", name, r.Host, r.Pid, *r.Rank)
				}
			}
		}
		if calls != int64(want) {
			t.Errorf("%s: ranks account for %d calls, the sample has %d collective lines", name, calls, want)
		}
	}
}
