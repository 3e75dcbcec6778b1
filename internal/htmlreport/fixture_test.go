package htmlreport

import (
	"fmt"

	"github.com/nccllog/nccllog/stages/info"
	"github.com/nccllog/nccllog/stages/ranks"
	"github.com/nccllog/nccllog/stages/strag"
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
		Lags:    fixtureLags(nRanks, nSteps),
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

// fixtureLags is the stragglers report and lag map of the fixture's job, as strag lays them
// out: rank 37 late by 40 ms on every step (chronic), rank 12 by 60 ms on step 3 (one-off),
// the others a few µs either way; at most strag.MaxMapRows ranks and strag.MaxMapColumns
// columns.
func fixtureLags(nRanks, nSteps int) *Lags {
	per := max(1, (nSteps+strag.MaxMapColumns-1)/strag.MaxMapColumns)
	m := strag.LagMap{Axis: strag.AxisSteps, Ranks: nRanks, PerColumn: per}
	for s := 0; s < nSteps; s += per {
		m.Columns = append(m.Columns, strag.LagColumn{From: uint64(s), To: uint64(min(s+per, nSteps) - 1)})
	}
	for r := range min(nRanks, strag.MaxMapRows) {
		row := strag.LagRow{Rank: int64(r), Host: fmt.Sprintf("gpu-node-%02d", r/8), Pid: int64(50000 + r), Dev: int64(r % 8)}
		for c := range m.Columns {
			lag := 0.001 * float64((r*7+c*3)%11-5)
			switch {
			case r == 37:
				lag = 40
			case r == 12 && c == 3/per:
				lag = 60
			}
			row.Cells = append(row.Cells, strag.LagCell{Col: c, LagMs: lag})
		}
		row.MedianLagMs = row.Cells[0].LagMs
		row.Straggler, row.Kind = r == 37 || r == 12, map[bool]strag.Kind{true: strag.Chronic, false: strag.OneOff}[r == 37]
		m.Rows = append(m.Rows, row)
	}
	rep := strag.StragglersReport{ThresholdMs: 10, Compared: nSteps * 27, TimedCalls: int64(nSteps * 27 * nRanks),
		Stragglers: []strag.Straggler{
			{Rank: 37, Host: "gpu-node-04", Pid: 50037, Kind: strag.Chronic, LastShare: 1, MedianLagMs: 40, P95LagMs: 41.2, LateSteps: nSteps, TimedSteps: nSteps},
			{Rank: 12, Host: "gpu-node-01", Pid: 50012, Kind: strag.OneOff, LastShare: 0.04, MedianLagMs: 0.002, P95LagMs: 60, LateSteps: 1, TimedSteps: nSteps,
				Steps: []strag.StepLag{{Step: 3, LagMs: 60}}}}}
	return &Lags{Report: rep, Map: m}
}
