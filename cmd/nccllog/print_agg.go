package main

import (
	"sort"

	"github.com/nccllog/nccllog/stages/agg"
)

func printAgg(w *output, r *view) error {
	rep := r.agg.Report()
	switch r.opts.format {
	case "json":
		return writeJSON(w, rep)
	case "csv":
		var rows [][]string
		for _, g := range rep.Groups {
			rows = append(rows, []string{g.Op, itoa(g.Count), g.Dtype, itoa(g.BytesPerCall), itoa(g.Calls)})
		}
		return writeCSV(w, []string{"op", "count", "dtype", "bytes_per_call", "calls"}, rows)
	case "awk":
		return printAggAWK(w, rep)
	}
	if noCalls(w, r) {
		return nil
	}
	t := newTable(w, "op", "count", "dtype", "bytes/call", "calls", "total")
	for _, g := range rep.Groups {
		t.row(g.Op, count(g.Count), g.Dtype, size(g.BytesPerCall), count(g.Calls), size(g.TotalBytes()))
	}
	t.flush()
	printDropped(w, rep.Dropped)
	return nil
}

// printAggAWK prints what the AWK chain printed, byte for byte: rows sorted on the text
// "op count dtype bytes".
func printAggAWK(w *output, rep agg.Report) error {
	type row struct{ key, line string }
	var rows []row
	for _, g := range rep.Groups {
		key := g.Op + " " + itoa(g.Count) + " " + g.Dtype + " " + itoa(g.BytesPerCall)
		rows = append(rows, row{key, awkAggLine(itoa(g.Calls), g.Op, itoa(g.Count), g.Dtype, itoa(g.BytesPerCall))})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].key < rows[j].key })
	w.printf("%s\n", awkAggLine("calls", "op", "count", "dtype", "bytes_per_call"))
	for _, r := range rows {
		w.printf("%s\n", r.line)
	}
	return nil
}

func awkAggLine(calls, op, count, dtype, bytes string) string {
	return pad(calls, 10) + " " + pad(op, 15) + " " + pad(count, 12) + " " + pad(dtype, 10) + " " + pad(bytes, 12)
}

func pad(s string, n int) string {
	for len(s) < n {
		s += " "
	}
	return s
}
