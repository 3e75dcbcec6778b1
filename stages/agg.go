package stages

import (
	"cmp"
	"slices"
	"strconv"
)

// AggKey is one distinct call signature.
type AggKey struct {
	Op       string
	Count    int64
	Datatype int64
}

// Bytes is the message size of one call: count × element size.
func (k AggKey) Bytes() int64 { return k.Count * DtypeSize(k.Datatype) }

// DropKey names calls that the analyses leave out, as the AWK chain did: a count of zero or
// less, or a datatype NCCL does not define.
type DropKey struct {
	Op     string
	Reason string
}

// Agg counts calls per (op, count, datatype). The per-op stats and the histogram are derived
// from it exactly, so it is the one map a call touches.
type Agg struct {
	Groups  map[AggKey]int64
	Dropped map[DropKey]int64
}

// NewAgg returns an empty Agg.
func NewAgg() *Agg {
	return &Agg{Groups: make(map[AggKey]int64), Dropped: make(map[DropKey]int64)}
}

// Add counts one call.
func (a *Agg) Add(op string, count, datatype int64) {
	switch {
	case count <= 0:
		a.Dropped[DropKey{op, "count " + strconv.FormatInt(count, 10)}]++
	case DtypeSize(datatype) == 0:
		a.Dropped[DropKey{op, "unknown datatype " + strconv.FormatInt(datatype, 10)}]++
	default:
		a.Groups[AggKey{op, count, datatype}]++
	}
}

// Merge adds o's counts to a.
func (a *Agg) Merge(o *Agg) {
	for k, v := range o.Groups {
		a.Groups[k] += v
	}
	for k, v := range o.Dropped {
		a.Dropped[k] += v
	}
}

// AggRow is one group for output.
type AggRow struct {
	AggKey
	Calls int64
}

// Rows returns the groups ordered by op, then bytes, then count, then datatype.
func (a *Agg) Rows() []AggRow {
	rows := make([]AggRow, 0, len(a.Groups))
	for k, v := range a.Groups {
		rows = append(rows, AggRow{k, v})
	}
	slices.SortFunc(rows, func(x, y AggRow) int {
		return cmp.Or(cmp.Compare(x.Op, y.Op), cmp.Compare(x.Bytes(), y.Bytes()),
			cmp.Compare(x.Count, y.Count), cmp.Compare(x.Datatype, y.Datatype))
	})
	return rows
}

// DropRow is one group of left-out calls for output.
type DropRow struct {
	DropKey
	Calls int64
}

// DroppedRows returns the left-out calls ordered by op and reason.
func (a *Agg) DroppedRows() []DropRow {
	rows := make([]DropRow, 0, len(a.Dropped))
	for k, v := range a.Dropped {
		rows = append(rows, DropRow{k, v})
	}
	slices.SortFunc(rows, func(x, y DropRow) int {
		return cmp.Or(cmp.Compare(x.Op, y.Op), cmp.Compare(x.Reason, y.Reason))
	})
	return rows
}

// Calls returns the number of counted calls.
func (a *Agg) Calls() int64 {
	var n int64
	for _, v := range a.Groups {
		n += v
	}
	return n
}
