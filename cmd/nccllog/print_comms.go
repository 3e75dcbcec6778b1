package main

func printComms(w *output, r *view) error {
	rep := r.ranks.CommsReport()
	switch r.opts.format {
	case "json":
		return writeJSON(w, rep)
	case "csv":
		var rows [][]string
		for _, c := range rep.Comms {
			rows = append(rows, []string{c.Comm, itoa(c.NRanks), itoa(int64(c.RanksSeen)), c.Grouping.String(),
				itoa(c.Calls), itoa(c.CallsPerRankMax), itoa(c.Bytes), ftoa(c.BusBytes), optInt(c.FirstStep),
				optInt(c.LastStep), c.Ops})
		}
		return writeCSV(w, []string{"comm", "nranks", "ranks_seen", "grouping", "calls", "calls_per_rank_max",
			"bytes", "bus_bytes", "first_step", "last_step", "ops"}, rows)
	}
	if noRanks(w, r.ranks.Groups()) {
		return nil
	}
	t := newTextTable(w, "comm", "nranks", "seen", "calls/rank", "bytes", "bus bytes", "steps", "grouping", "ops")
	for _, c := range rep.Comms {
		t.row(c.Comm, itoa(c.NRanks), itoa(int64(c.RanksSeen)), count(c.CallsPerRankMax), size(c.Bytes),
			sizeF(c.BusBytes), c.Steps, c.Grouping.String(), c.Ops)
	}
	if o := rep.Overflow; o != nil {
		t.row(o.Row()...)
	}
	t.flush()
	return nil
}
