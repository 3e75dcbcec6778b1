package agg

import "slices"

// The JSON of the stats, hist and agg commands, and of their parts of report's JSON: field
// names and order are the README's schemas.

// StatRow is one op's message sizes.
type StatRow struct {
	Op         string  `json:"op"`
	Calls      int64   `json:"calls"`
	MinBytes   int64   `json:"min_bytes"`
	AvgBytes   float64 `json:"avg_bytes"`
	MaxBytes   int64   `json:"max_bytes"`
	TotalBytes int64   `json:"total_bytes"`
}

// DroppedRow is one group of calls the analyses left out.
type DroppedRow struct {
	Op     string `json:"op"`
	Reason string `json:"reason"`
	Calls  int64  `json:"calls"`
}

// StatsReport is the per-op message sizes, with the calls left out.
type StatsReport struct {
	Dropped []DroppedRow `json:"dropped"`
	Ops     []StatRow    `json:"ops"`
}

// HistRow is one size bucket of one op; HiBytes is nil for the last, open bucket.
type HistRow struct {
	Op      string `json:"op"`
	LoBytes int64  `json:"lo_bytes"`
	HiBytes *int64 `json:"hi_bytes"`
	Calls   int64  `json:"calls"`
}

// HistReport is the message-size histogram over DefaultEdges.
type HistReport struct {
	Buckets []HistRow `json:"buckets"`
}

// GroupRow is the calls of one (op, count, datatype).
type GroupRow struct {
	Op           string `json:"op"`
	Count        int64  `json:"count"`
	Dtype        string `json:"dtype"`
	BytesPerCall int64  `json:"bytes_per_call"`
	Calls        int64  `json:"calls"`
}

// Report is the calls per (op, count, datatype), with the calls left out.
type Report struct {
	Dropped []DroppedRow `json:"dropped"`
	Groups  []GroupRow   `json:"groups"`
}

// StatsReport returns a's per-op message sizes.
func (a *Agg) StatsReport() StatsReport {
	rows := []StatRow{}
	for _, s := range a.Stats() {
		rows = append(rows, StatRow{string(s.Op), s.Calls, s.Min, s.Avg(), s.Max, s.Total})
	}
	return StatsReport{Dropped: a.droppedReport(), Ops: rows}
}

// HistReport returns a's histogram over DefaultEdges.
func (a *Agg) HistReport() HistReport {
	rows := []HistRow{}
	for _, b := range a.Hist(DefaultEdges) {
		row := HistRow{Op: string(b.Op), LoBytes: b.Lo, Calls: b.Calls}
		if b.Hi >= 0 {
			hi := b.Hi
			row.HiBytes = &hi
		}
		rows = append(rows, row)
	}
	return HistReport{Buckets: rows}
}

// Report returns a's groups.
func (a *Agg) Report() Report {
	rows := []GroupRow{}
	for _, g := range a.Rows() {
		rows = append(rows, GroupRow{string(g.Op), g.Count, g.Datatype.Name(), g.Bytes(), g.Calls})
	}
	return Report{Dropped: a.droppedReport(), Groups: rows}
}

func (a *Agg) droppedReport() []DroppedRow {
	rows := []DroppedRow{}
	for _, d := range a.DroppedRows() {
		rows = append(rows, DroppedRow{string(d.Op), d.Reason, d.Calls})
	}
	return rows
}

// Top is the largest bucket's call count (at least 1): the histogram's bars are drawn
// relative to it.
func (h HistReport) Top() int64 {
	top := int64(1)
	for _, b := range h.Buckets {
		top = max(top, b.Calls)
	}
	return top
}

// AWKBucket is the name the AWK chain gave b's bucket (default edges only).
func (b HistRow) AWKBucket() string {
	i := 0
	for i < len(DefaultEdges) && b.LoBytes >= DefaultEdges[i] {
		i++
	}
	return awkBucketNames[i]
}

var awkBucketNames = [...]string{"<64KB", "64KB-1MB", "1MB-16MB", ">16MB"}

// TotalBytes is what the group's calls moved: bytes per call × calls.
func (g GroupRow) TotalBytes() int64 { return g.BytesPerCall * g.Calls }

// Empty reports whether a has no call at all, counted or left out.
func (a *Agg) Empty() bool { return a.Calls() == 0 && len(a.dropped) == 0 }

// Grid lays the histogram out as one row per op and one column per bucket of DefaultEdges
// (the report lists only the buckets an op has calls in), for the HTML page.
func (h HistReport) Grid() (ops []string, counts [][]int64) {
	lo := append([]int64{0}, DefaultEdges...)
	for _, b := range h.Buckets {
		if len(ops) == 0 || ops[len(ops)-1] != b.Op {
			ops = append(ops, b.Op)
			counts = append(counts, make([]int64, len(lo)))
		}
		counts[len(ops)-1][slices.Index(lo, b.LoBytes)] += b.Calls
	}
	return ops, counts
}

// GridBuckets are the columns of Grid: each bucket's bounds, Hi nil for the last.
func GridBuckets() []HistRow {
	lo := append([]int64{0}, DefaultEdges...)
	out := make([]HistRow, len(lo))
	for i, l := range lo {
		out[i].LoBytes = l
		if i+1 < len(lo) {
			hi := lo[i+1]
			out[i].HiBytes = &hi
		}
	}
	return out
}
