package main

import (
	"sort"
	"strings"

	"github.com/nccllog/nccllog/stages/agg"
)

func printHist(w *output, r *view) error {
	rep := r.agg.HistReport()
	switch r.opts.format {
	case "json":
		return writeJSON(w, rep)
	case "csv":
		var rows [][]string
		for _, b := range rep.Buckets {
			hi := ""
			if b.HiBytes != nil {
				hi = itoa(*b.HiBytes)
			}
			rows = append(rows, []string{b.Op, itoa(b.LoBytes), hi, itoa(b.Calls)})
		}
		return writeCSV(w, []string{"op", "lo_bytes", "hi_bytes", "calls"}, rows)
	case "awk":
		return printHistAWK(w, rep)
	}
	if noCalls(w, r) {
		return nil
	}
	t := newTable(w, "op", "size", "calls", "")
	top := rep.Top()
	for _, b := range rep.Buckets {
		t.row(b.Op, bucketLabel(b.LoBytes, b.HiBytes), count(b.Calls), bar(b.Calls, top))
	}
	t.flush()
	return nil
}

// bucketLabel names the bucket [lo, hi), or >= lo where hi is nil (the last).
func bucketLabel(lo int64, hi *int64) string {
	if hi == nil {
		return ">= " + size(lo)
	}
	return "[" + size(lo) + ", " + size(*hi) + ")"
}

// bar draws a call count relative to the largest bucket's, top.
func bar(n, top int64) string {
	const width = 30
	k := int(n * width / top)
	if k == 0 && n > 0 {
		k = 1
	}
	return strings.Repeat("█", k) + " "
}

// printHistAWK prints what the AWK chain printed, byte for byte (default edges only).
func printHistAWK(w *output, rep agg.HistReport) error {
	var lines []string
	for _, b := range rep.Buckets {
		lines = append(lines, b.Op+":"+b.AWKBucket()+" "+itoa(b.Calls))
	}
	sort.Strings(lines)
	for _, l := range lines {
		w.printf("%s\n", l)
	}
	return nil
}
