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
// from it exactly, so it is the one map a call touches; and since the ranks of a job issue the
// same call at about the same time, runs of equal calls are counted before they reach the map.
type Agg struct {
	groups  map[AggKey]int64
	dropped map[DropKey]int64
	run     AggKey // the call being repeated
	runN    int64  // how many times, not yet in groups
}

// NewAgg returns an empty Agg.
func NewAgg() *Agg {
	return &Agg{groups: make(map[AggKey]int64), dropped: make(map[DropKey]int64)}
}

// Add counts one call.
func (a *Agg) Add(op string, count, datatype int64) {
	switch {
	case count <= 0:
		a.dropped[DropKey{op, "count " + strconv.FormatInt(count, 10)}]++
	case DtypeSize(datatype) == 0:
		a.dropped[DropKey{op, "unknown datatype " + strconv.FormatInt(datatype, 10)}]++
	default:
		k := AggKey{op, count, datatype}
		if a.runN > 0 && k == a.run {
			a.runN++
			return
		}
		a.flush()
		a.run, a.runN = k, 1
	}
}

// flush moves the current run into the map; every reader of groups calls it first.
func (a *Agg) flush() {
	if a.runN > 0 {
		a.groups[a.run] += a.runN
		a.runN = 0
	}
}

// Merge adds o's counts to a.
func (a *Agg) Merge(o *Agg) {
	a.flush()
	o.flush()
	for k, v := range o.groups {
		a.groups[k] += v
	}
	for k, v := range o.dropped {
		a.dropped[k] += v
	}
}

// reset empties a, keeping its memory.
func (a *Agg) reset() {
	clear(a.groups)
	clear(a.dropped)
	a.runN = 0
}

// empty reports whether a holds no call.
func (a *Agg) empty() bool { return a.runN == 0 && len(a.groups)+len(a.dropped) == 0 }

// AggRow is one group for output.
type AggRow struct {
	AggKey
	Calls int64
}

// Rows returns the groups ordered by op, then bytes, then count, then datatype.
func (a *Agg) Rows() []AggRow {
	a.flush()
	rows := make([]AggRow, 0, len(a.groups))
	for k, v := range a.groups {
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
	rows := make([]DropRow, 0, len(a.dropped))
	for k, v := range a.dropped {
		rows = append(rows, DropRow{k, v})
	}
	slices.SortFunc(rows, func(x, y DropRow) int {
		return cmp.Or(cmp.Compare(x.Op, y.Op), cmp.Compare(x.Reason, y.Reason))
	})
	return rows
}

// Calls returns the number of counted calls.
func (a *Agg) Calls() int64 {
	a.flush()
	var n int64
	for _, v := range a.groups {
		n += v
	}
	return n
}
