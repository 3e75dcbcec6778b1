package main

import (
	"math"

	"github.com/nccllog/nccllog/stages/ranks"
)

// stepTimes is the time of every step that printed one (the ranks family skips those that
// say nothing of a bandwidth).
func stepTimes(r *view) map[int64]float64 {
	t := make(map[int64]float64)
	for _, p := range r.steps.Points() {
		if p.HasTime && !math.IsInf(p.TimeS, 0) && !math.IsNaN(p.TimeS) {
			t[p.Step] = p.TimeS
		}
	}
	return t
}

func printRanks(w *output, r *view) error {
	rep := r.ranks.RanksReport(stepTimes(r))
	switch r.opts.format {
	case "json":
		return writeJSON(w, rep)
	case "csv":
		var rows [][]string
		for _, c := range rep.Comms {
			for _, m := range c.Ranks {
				rows = append(rows, []string{c.Comm, optInt(m.Rank), m.Host, itoa(m.Pid), m.File,
					itoa(m.Calls), itoa(m.Bytes), ftoa(m.BusBytes), optInt(m.FirstStep),
					optInt(m.LastStep), m.End, ftoa(m.NeedMax)})
			}
		}
		return writeCSV(w, []string{"comm", "rank", "host", "pid", "file", "calls", "bytes", "bus_bytes",
			"first_step", "last_step", "end", "busbw_needed_max_gbps"}, rows)
	}
	if noRanks(w, r.ranks.Groups()) {
		return nil
	}
	for _, c := range rep.Comms {
		w.printf("comm %s: %d ranks, %s\n", c.Comm, c.NRanks, c.GroupedBy)
		t := newTable(w, "rank", "host:pid", "calls", "bytes", "bus bytes", "steps", "GB/s needed", "end", "top op")
		for _, m := range c.Ranks {
			t.row(m.Label, m.Host+":"+itoa(m.Pid), count(m.Calls), size(m.Bytes), sizeF(m.BusBytes),
				m.Steps, m.Need(), m.End, m.TopOp)
		}
		t.flush()
		if c.Unattributed != "" {
			w.printf("  ranks shown as host:pid have no rank number: %s\n", c.Unattributed)
		}
		w.printf("\n")
	}
	w.printf("bus bytes: message bytes × the nccl-tests bus factor of each op (AllReduce 2(n-1)/n; AllGather,\n" +
		"ReduceScatter, AlltoAll (n-1)/n on count × n; others 1). GB/s needed: the largest over steps of\n" +
		"a step's bus bytes over its time; INFO lines carry no completion times, so this is a volume, not a measurement.\n")
	return nil
}

// noRanksText is what the commands about communicators say of a log without any.
const noRanksText = "no collective calls or communicator lines: NCCL logs calls only when NCCL_DEBUG_SUBSYS includes COLL"

// diagnoseHint follows noRanksText where hang and check judge the calls: a job that failed
// before its first call, or a log without COLL lines, still tells what went wrong.
const diagnoseHint = "what went wrong, from the WARNs, launcher lines, exceptions and watchdog lines: nccllog diagnose"

func noRanks(w *output, groups []*ranks.Group) bool {
	if len(groups) > 0 {
		return false
	}
	w.printf("%s\n", noRanksText)
	return true
}
