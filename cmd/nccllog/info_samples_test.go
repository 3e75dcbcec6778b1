package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nccllog/nccllog/internal/sharedtest"
	"github.com/nccllog/nccllog/stages/info"
)

// sampleSetup is what a reader finds in a real sample's set-up lines: the versions printed
// (bare or INFO), the hosts, the ranks (from Init lines, else the connection lines, else the
// launcher's label) and the transports and networks.
type sampleSetup struct {
	versions   []string
	hosts      []string // contained in info's hosts (a cut line can add a cut host name)
	ranks      []int64
	transports []string
}

var sampleSetups = map[string]sampleSetup{
	"hf-trainer-esm2-k8s-nccl-initcomplete-socket-mixed.log": {nil, []string{"esm2-worker-0"}, []int64{3}, []string{"NET/Socket"}},
	"issue-dualpath-nccl-2.4.8-rings-trees-disabled-epoch.log": {[]string{"NCCL 2.4.8+cuda10.0"}, []string{"lufee"}, []int64{0, 1, 2},
		[]string{"P2P/direct pointer, direct shared memory"}},
	"issue-msswift3934-garbled-interleaved-nvls-commsplit.log":      {nil, []string{"g183"}, []int64{7}, []string{"NET/IB/GDRDMA"}},
	"issue-nccl566-nccl-2.10.3-power9-ib-channels-trees.log":        {[]string{"NCCL 2.10.3+cuda10.2"}, []string{"lassen206"}, nil, []string{"IB"}},
	"issue-openrlhf949-ray-actor-prefix-tqdm-garbled.log":           {nil, []string{"d710axlp1ap0027"}, []int64{3}, []string{"P2P/IPC"}},
	"issue-tensorflow94650-1proc-4gpu-initcomplete-inittimings.log": {nil, []string{"volta"}, []int64{1, 2, 3}, nil},
	"nccl-2.18.3-ncclTests-1proc-8gpu-h800-nvls-full.log": {[]string{"NCCL 2.18.3+cuda12.2"}, []string{"nf5688m7-1"},
		[]int64{0, 1, 2, 3, 4, 5, 6, 7}, []string{"P2P/direct pointer", "Socket"}},
	"nccl-2.27.5-sglang-16rank-initcomplete-opcount-tuning-warn.log": {nil, []string{"tpgds-aihub0007"}, []int64{0, 1, 2, 4, 6}, nil},
	"nccl-2.27.5-sglang-16rank-node0007-initcomplete-algomatrix-warn.log": {nil, []string{"tpgds-aihub0007"},
		[]int64{0, 1, 2, 3, 4, 5, 6, 7}, []string{"P2P/IPC"}},
	"nccl-2.30.7-gb200-mnnvl-init-version-banner.log":  {[]string{"NCCL 2.30.7+cuda13.3"}, []string{"watchtower-navy-cn13"}, nil, []string{"IB"}},
	"nccl-2.30.7-gb200-p2p-import-register-window.log": {nil, []string{"watchtower-navy-cn13"}, nil, nil},
	"nccl-2.8.3-mpirun-tagoutput-16rank-2node-efa-ncclTests-full.log": {[]string{"NCCL 2.8.3+cuda11.2"},
		[]string{"nccl-tests-efa-worker-0", "nccl-tests-efa-worker-1"}, []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
		[]string{"AWS Libfabric", "NET/AWS Libfabric/GDRDMA", "P2P/IPC/read"}},
	"nccl-platform-timestamp-every-line-doublespaced-ms-swift-grpo.log": {nil, []string{"t-20260428141043-cmz7n-worker-0"}, []int64{1, 4, 5}, []string{"P2P/IPC"}},
	"rccl-2.26.6-vllm-ray-nested-prefix-2node-init-garbled.log": {[]string{"RCCL 2.26.6-HEAD:f224e2c", "HIP 7.0.51831-a3e329ad8", "ROCm 7.0.0.0-38-9428210"}, []string{"bootes", "corona"},
		[]int64{0, 1}, []string{"NET/Socket", "Socket"}},
	// Every process whose lines the log holds counts, also where they are calls only (or
	// INFO lines of no set-up message): srun -l labels the four nodes' ranks.
	"srun-l-prefix-fsdp-4node-allgather-broadcast-opcount-old-tuning.log": {nil, []string{"node-0"}, []int64{0, 1, 2, 3}, nil},
	"issue-nccl203-tensorflow-1proc-2gpu-allreduce-opcount-hex.log":       {nil, []string{"gpu1"}, nil, nil},
	"issue-torchtitan1369-tp-allgather-reducescatter-opcount.log":         {nil, []string{"hopper01"}, nil, nil},
	"rccl-msccl-8gpu-coll-plus-kernel-trace-KL-KE.log":                    {nil, []string{"banff-cyxtera-s78-4"}, nil, nil},
	"rccl-replayer-1proc-8comm-kernel-trace-then-coll.log":                {nil, []string{"banff-cyxtera-s78-4"}, nil, nil},
}

// TestInfoSamples: info finds in every real sample with set-up lines the versions, hosts,
// ranks and transports listed above, and no outlier (they are logs of working jobs).
func TestInfoSamples(t *testing.T) {
	for _, path := range sharedtest.Glob(t, "samples/*.log") {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			out, stderr, code := runCLI(t, "", "info", "--format", "json", path)
			var r info.InfoReport
			if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil {
				t.Fatalf("exit %d, %v: %s", code, err, stderr)
			}
			if len(r.Outliers) != 0 {
				t.Errorf("outliers on a real job: %+v", r.Outliers)
			}
			want, ok := sampleSetups[name]
			if !ok {
				if len(r.Hosts) > 0 {
					t.Fatalf("the sample has set-up lines (hosts %v): add what a reader finds in it to sampleSetups", r.Hosts)
				}
				return
			}
			got := setupSeen(&r)
			if !slices.Equal(got.versions, want.versions) || !slices.Equal(got.ranks, want.ranks) || !slices.Equal(got.transports, want.transports) {
				t.Errorf("versions %q ranks %v transports %q\nwant %q %v %q", got.versions, got.ranks, got.transports, want.versions, want.ranks, want.transports)
			}
			for _, h := range want.hosts {
				if !slices.Contains(got.hosts, h) {
					t.Errorf("hosts %q, want %q among them", got.hosts, h)
				}
			}
		})
	}
}

func setupSeen(r *info.InfoReport) sampleSetup {
	var s sampleSetup
	for _, v := range r.Versions {
		if v.What == "version" {
			s.versions = append(s.versions, v.Value)
		}
	}
	for _, b := range r.BareVersions {
		s.versions = append(s.versions, b.Lib+" "+b.Version)
	}
	for _, h := range r.Hosts {
		s.hosts = append(s.hosts, h.Host)
	}
	for _, p := range r.Ranks {
		s.ranks = append(s.ranks, p.Ranks...)
	}
	slices.Sort(s.ranks)
	s.ranks = slices.Compact(s.ranks)
	for _, f := range r.Network {
		if f.What == "network" || f.What == "inter-node transport" || f.What == "intra-node transport" {
			s.transports = append(s.transports, f.Value)
		}
	}
	slices.Sort(s.transports)
	s.transports = slices.Compact(s.transports)
	return s
}
