package htmlreport

import (
	"fmt"

	"github.com/nccllog/nccllog/stages/info"
	"github.com/nccllog/nccllog/stages/ranks"
)

// fixture is a report of a job with nRanks ranks on one communicator over nSteps steps, one
// rank of which stopped early, as a run would fill it.
func fixture(nRanks, nSteps int) *Data {
	d := &Data{
		Title:   "nccllog report: job.log",
		Inputs:  []Input{{Name: "job.log", Lines: 5407145}},
		Lines:   []ClassCount{{"collective", 5300000}, {"comm", 4096}, {"progress", 800}, {"info", 102249}, {"malformed", 0}},
		Version: "NCCL version 2.21.5+cuda12.4",
		Ranks:   nRanks,
		Comms:   1,
		Ops: []OpStat{
			{Op: "AllGather", Calls: 1040, Min: 64 << 10, Max: 16 << 20, Total: 7 << 30, Avg: 6.6 * (1 << 20)},
			{Op: "AllReduce", Calls: 340, Min: 4, Max: 25 << 20, Total: 331 << 20, Avg: 995 << 10},
			{Op: "ReduceScatter", Calls: 1040, Min: 64 << 10, Max: 16 << 20, Total: 6 << 30, Avg: 6 << 20},
		},
		Hist: Hist{Buckets: []string{"< 64 KiB", "64 KiB - 1 MiB", "1 - 16 MiB", "≥ 16 MiB"},
			Ops:    []string{"AllGather", "AllReduce", "ReduceScatter"},
			Counts: [][]int64{{0, 240, 600, 200}, {100, 40, 150, 50}, {0, 240, 600, 200}}},
		Dropped: []Dropped{{Op: "AllReduce", Reason: "count 0", Calls: 3}},
		Hang:    fixtureHang(),
		Setup:   fixtureSetup(),
	}
	for s := range nSteps {
		d.Steps = append(d.Steps, Step{Step: int64(s), HasTime: s > 0, TimeS: 2.4 + 0.01*float64(s%7),
			HasFLOPs: s > 0, TFLOPs: 160 + float64(s%5), Calls: 27, Bytes: int64(s+1) << 28, BusBytes: float64(int64(s+1)<<28) * 1.8})
	}
	for r := range nRanks {
		bus := float64(125<<30) * (1 + 0.001*float64(r%37))
		if r == 6 {
			bus /= 5
		}
		d.Rank = append(d.Rank, RankVolume{Comm: "0xbedb246746254890", Rank: int64(r),
			Host: fmt.Sprintf("gpu-node-%02d", r/8), Pid: int64(50000 + r), Calls: 546, Bytes: int64(bus / 7), BusBytes: bus})
	}
	return d
}

// fixtureHang is hang's report of the fixture's job: rank 6 is a suspect.
func fixtureHang() *ranks.HangReport {
	six := int64(6)
	return &ranks.HangReport{Suspects: 1, Comms: []ranks.HangComm{{Comm: "0xbedb246746254890", NRanks: 1000, RanksSeen: 1000,
		Coverage: ranks.CoverageReport{Line: "comm 0xbedb246746254890: 1000 ranks, 1000 with lines on 125 of 125 nodes; calls 0-545 seen (steps 0-399)"},
		Verdict:  "1 suspect stands out",
		Suspects: []ranks.SuspectReport{{Rank: &six, Host: "gpu-node-01", Pid: 66963, Score: 82, Who: "rank 6 (gpu-node-01:66963)",
			Evidence: []string{"issued 100 calls, 446 fewer than the furthest rank got (546)"}}}}}}
}

// fixtureSetup is info's report of the fixture's job: one version, two hosts, a WARN.
func fixtureSetup() *info.InfoReport {
	return &info.InfoReport{Processes: 16,
		Versions: []info.FactRow{{What: "version", Value: "NCCL version 2.21.5+cuda12.4", Processes: 16, Ranks: []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}}},
		Hosts:    []info.HostRow{{Host: "gpu-node-00", Processes: 8, GPUs: make([]info.GPU, 8)}, {Host: "gpu-node-01", Processes: 8, GPUs: make([]info.GPU, 8)}},
		Network:  []info.FactRow{{What: "inter-node transport", Value: "NET/IB/GDRDMA", Processes: 16}},
		Warns: []info.WarnRow{{Template: "NET/IB : Got async event : port error", Count: 3, Ranks: []int64{6, 14},
			Hosts: []string{"gpu-node-00", "gpu-node-01"}, First: info.Evidence{File: "job.log", Line: 23271}}}}
}
