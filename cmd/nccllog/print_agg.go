package main

import (
	"sort"

	"github.com/nccllog/nccllog/stages/agg"
)

type groupJSON struct {
	Op           string `json:"op"`
	Count        int64  `json:"count"`
	Dtype        string `json:"dtype"`
	BytesPerCall int64  `json:"bytes_per_call"`
	Calls        int64  `json:"calls"`
}

func aggRows(a *agg.Agg) []groupJSON {
	rows := []groupJSON{}
	for _, g := range a.Rows() {
		rows = append(rows, groupJSON{string(g.Op), g.Count, g.Datatype.Name(), g.Bytes(), g.Calls})
	}
	return rows
}

func printAgg(w *output, r *view) error {
	switch r.opts.format {
	case "json":
		return writeJSON(w, aggOut{droppedRows(r.agg), aggRows(r.agg)})
	case "csv":
		var rows [][]string
		for _, g := range aggRows(r.agg) {
			rows = append(rows, []string{g.Op, itoa(g.Count), g.Dtype, itoa(g.BytesPerCall), itoa(g.Calls)})
		}
		return writeCSV(w, []string{"op", "count", "dtype", "bytes_per_call", "calls"}, rows)
	case "awk":
		return printAggAWK(w, r.agg)
	}
	if noCalls(w, r) {
		return nil
	}
	t := newTable(w, "op", "count", "dtype", "bytes/call", "calls", "total")
	for _, g := range r.agg.Rows() {
		t.row(string(g.Op), count(g.Count), g.Datatype.Name(), size(g.Bytes()), count(g.Calls), size(g.Bytes()*g.Calls))
	}
	t.flush()
	printDropped(w, r.agg)
	return nil
}

// printAggAWK prints what the AWK chain printed, byte for byte: rows sorted on the text
// "op count dtype bytes".
func printAggAWK(w *output, a *agg.Agg) error {
	type row struct{ key, line string }
	var rows []row
	for _, g := range aggRows(a) {
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
