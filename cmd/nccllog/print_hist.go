package main

import (
	"sort"

	"github.com/nccllog/nccllog/stages/agg"
)

type bucketJSON struct {
	Op      string `json:"op"`
	LoBytes int64  `json:"lo_bytes"`
	HiBytes *int64 `json:"hi_bytes"`
	Calls   int64  `json:"calls"`
}

func histRows(a *agg.Agg) []bucketJSON {
	rows := []bucketJSON{}
	for _, b := range a.Hist(agg.DefaultEdges) {
		row := bucketJSON{Op: string(b.Op), LoBytes: b.Lo, Calls: b.Calls}
		if b.Hi >= 0 {
			hi := b.Hi
			row.HiBytes = &hi
		}
		rows = append(rows, row)
	}
	return rows
}

func printHist(w *output, r *view) error {
	switch r.opts.format {
	case "json":
		return writeJSON(w, histOut{histRows(r.agg)})
	case "csv":
		var rows [][]string
		for _, b := range histRows(r.agg) {
			hi := ""
			if b.HiBytes != nil {
				hi = itoa(*b.HiBytes)
			}
			rows = append(rows, []string{b.Op, itoa(b.LoBytes), hi, itoa(b.Calls)})
		}
		return writeCSV(w, []string{"op", "lo_bytes", "hi_bytes", "calls"}, rows)
	case "awk":
		return printHistAWK(w, r.agg)
	}
	if noCalls(w, r) {
		return nil
	}
	t := newTable(w, "op", "size", "calls", "")
	for _, b := range r.agg.Hist(agg.DefaultEdges) {
		t.row(string(b.Op), bucketLabel(b), count(b.Calls), bar(b.Calls, r.agg))
	}
	t.flush()
	return nil
}

func bucketLabel(b agg.Bucket) string {
	if b.Hi < 0 {
		return ">= " + size(b.Lo)
	}
	return "[" + size(b.Lo) + ", " + size(b.Hi) + ")"
}

// bar draws a call count relative to the largest bucket.
func bar(n int64, a *agg.Agg) string {
	var top int64
	for _, b := range a.Hist(agg.DefaultEdges) {
		top = max(top, b.Calls)
	}
	const width = 30
	k := int(n * width / max(top, 1))
	if k == 0 && n > 0 {
		k = 1
	}
	s := make([]rune, k)
	for i := range s {
		s[i] = '█'
	}
	return string(s) + " "
}

var awkBucketNames = []string{"<64KB", "64KB-1MB", "1MB-16MB", ">16MB"}

// printHistAWK prints what the AWK chain printed, byte for byte (default edges only).
func printHistAWK(w *output, a *agg.Agg) error {
	var lines []string
	for _, b := range a.Hist(agg.DefaultEdges) {
		i := 0
		for i < len(agg.DefaultEdges) && b.Lo >= agg.DefaultEdges[i] {
			i++
		}
		lines = append(lines, string(b.Op)+":"+awkBucketNames[i]+" "+itoa(b.Calls))
	}
	sort.Strings(lines)
	for _, l := range lines {
		w.printf("%s\n", l)
	}
	return nil
}
