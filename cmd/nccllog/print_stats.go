package main

import (
	"encoding/json"
	"sort"
	"strconv"

	"github.com/nccllog/nccllog/stages/agg"
)

type statsJSON struct {
	Op         string  `json:"op"`
	Calls      int64   `json:"calls"`
	MinBytes   int64   `json:"min_bytes"`
	AvgBytes   float64 `json:"avg_bytes"`
	MaxBytes   int64   `json:"max_bytes"`
	TotalBytes int64   `json:"total_bytes"`
}

func statsRows(a *agg.Agg) []statsJSON {
	rows := []statsJSON{}
	for _, s := range a.Stats() {
		rows = append(rows, statsJSON{string(s.Op), s.Calls, s.Min, s.Avg(), s.Max, s.Total})
	}
	return rows
}

func printStats(w *output, r *view) error {
	switch r.opts.format {
	case "json":
		return writeJSON(w, statsOut{droppedRows(r.agg), statsRows(r.agg)})
	case "csv":
		return writeCSV(w, []string{"op", "calls", "min_bytes", "avg_bytes", "max_bytes", "total_bytes"}, statsCSV(r.agg))
	case "awk":
		return printStatsAWK(w, r.agg)
	}
	if noCalls(w, r) {
		return nil
	}
	t := newTable(w, "op", "calls", "min", "avg", "max", "total")
	for _, s := range r.agg.Stats() {
		t.row(string(s.Op), count(s.Calls), size(s.Min), sizeF(s.Avg()), size(s.Max), size(s.Total))
	}
	t.flush()
	printDropped(w, r.agg)
	return nil
}

func statsCSV(a *agg.Agg) [][]string {
	var rows [][]string
	for _, s := range statsRows(a) {
		rows = append(rows, []string{s.Op, itoa(s.Calls), itoa(s.MinBytes),
			strconv.FormatFloat(s.AvgBytes, 'f', -1, 64), itoa(s.MaxBytes), itoa(s.TotalBytes)})
	}
	return rows
}

// printStatsAWK prints what the AWK chain printed, byte for byte.
func printStatsAWK(w *output, a *agg.Agg) error {
	var lines []string
	for _, s := range a.Stats() {
		lines = append(lines, string(s.Op)+" calls="+itoa(s.Calls)+" min="+itoa(s.Min)+" avg="+awkNumber(s.Avg())+
			" max="+itoa(s.Max)+" total="+itoa(s.Total))
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

type droppedJSON struct {
	Op     string `json:"op"`
	Reason string `json:"reason"`
	Calls  int64  `json:"calls"`
}

func droppedRows(a *agg.Agg) []droppedJSON {
	rows := []droppedJSON{}
	for _, d := range a.DroppedRows() {
		rows = append(rows, droppedJSON{string(d.Op), d.Reason, d.Calls})
	}
	return rows
}

// printDropped says which calls the analyses left out, as a note under a table.
func printDropped(w *output, a *agg.Agg) {
	rows := a.DroppedRows()
	if len(rows) == 0 {
		return
	}
	w.printf("\nleft out (count <= 0 or unknown datatype, as the AWK chain did):\n")
	t := newTable(w, "op", "reason", "calls")
	for _, d := range rows {
		t.row(string(d.Op), d.Reason, count(d.Calls))
	}
	t.flush()
}

func writeJSON(w *output, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// noCalls says so when there is nothing to tabulate, with the likely reason.
func noCalls(w *output, r *view) bool {
	if r.agg.Calls() > 0 || len(r.agg.DroppedRows()) > 0 {
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
