package main

import (
	"encoding/json"
	"sort"
	"strconv"

	"github.com/nccllog/nccllog/stages/agg"
)

func printStats(w *output, r *view) error {
	rep := r.agg.StatsReport()
	switch r.opts.format {
	case "json":
		return writeJSON(w, rep)
	case "csv":
		return writeCSV(w, []string{"op", "calls", "min_bytes", "avg_bytes", "max_bytes", "total_bytes"}, statsCSV(rep))
	case "awk":
		return printStatsAWK(w, rep)
	}
	if noCalls(w, r) {
		return nil
	}
	t := newTable(w, "op", "calls", "min", "avg", "max", "total")
	for _, s := range rep.Ops {
		t.row(s.Op, count(s.Calls), size(s.MinBytes), sizeF(s.AvgBytes), size(s.MaxBytes), size(s.TotalBytes))
	}
	t.flush()
	printDropped(w, rep.Dropped)
	return nil
}

func statsCSV(rep agg.StatsReport) [][]string {
	var rows [][]string
	for _, s := range rep.Ops {
		rows = append(rows, []string{s.Op, itoa(s.Calls), itoa(s.MinBytes),
			strconv.FormatFloat(s.AvgBytes, 'f', -1, 64), itoa(s.MaxBytes), itoa(s.TotalBytes)})
	}
	return rows
}

// printStatsAWK prints what the AWK chain printed, byte for byte.
func printStatsAWK(w *output, rep agg.StatsReport) error {
	var lines []string
	for _, s := range rep.Ops {
		lines = append(lines, s.Op+" calls="+itoa(s.Calls)+" min="+itoa(s.MinBytes)+" avg="+awkNumber(s.AvgBytes)+
			" max="+itoa(s.MaxBytes)+" total="+itoa(s.TotalBytes))
	}
	sort.Strings(lines)
	for _, l := range lines {
		w.printf("%s\n", l)
	}
	return nil
}

// awkNumber formats a number as awk turns it into a string: integers in full, anything
// else with %.6g.
func awkNumber(v float64) string {
	if v == float64(int64(v)) {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// printDropped says which calls the analyses left out, as a note under a table.
func printDropped(w *output, rows []agg.DroppedRow) {
	if len(rows) == 0 {
		return
	}
	w.printf("\nleft out (count <= 0 or unknown datatype, as the AWK chain did):\n")
	t := newTable(w, "op", "reason", "calls")
	for _, d := range rows {
		t.row(d.Op, d.Reason, count(d.Calls))
	}
	t.flush()
}

func writeJSON(w *output, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// noCalls says so when there is nothing to tabulate (no call counted, none left out), with
// the likely reason.
func noCalls(w *output, r *view) bool {
	if !r.agg.Empty() {
		return false
	}
	switch {
	case r.opts.cfg.Steps != nil:
		w.printf("no collective calls in steps %s (--boundary %s)\n", r.opts.steps, r.opts.cfg.Boundary)
	default:
		w.printf("no collective calls: NCCL logs them only when NCCL_DEBUG_SUBSYS includes COLL (e.g. NCCL_DEBUG_SUBSYS=INIT,COLL)\n")
	}
	return true
}
