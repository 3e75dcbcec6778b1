package agg

import (
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"

	"cmp"
	"slices"
	"strconv"
)

// AggKey is one distinct call signature.
type AggKey struct {
	Op       parser.Op
	Count    int64
	Datatype parser.Datatype
}

// Bytes is the message size of one call: count × element size, at most MaxBytes.
func (k AggKey) Bytes() int64 { return stages.MulBytes(k.Count, k.Datatype.Size()) }

// DropKey names calls that the analyses leave out, as the AWK chain did: a count of zero or
// less, or a datatype NCCL does not define.
type DropKey struct {
	Op     parser.Op
	Reason string
}

// Agg counts calls per (op, count, datatype). The per-op stats and the histogram are derived
// from it exactly, so it is the one map a call touches.
type Agg struct {
	groups  map[AggKey]int64
	dropped map[DropKey]int64
	// front counts recent calls before they reach groups: a direct-mapped table, since the
	// ranks of a job issue the same few calls over and over, interleaved.
	front [64]aggSlot
	dirty bool
	// perOp, where not nil, replaces groups: per-op sums only (see OpSum).
	perOp map[parser.Op]*OpSum
}

type aggSlot struct {
	key AggKey
	n   int64
}

// NewAgg returns an empty Agg.
func NewAgg() *Agg {
	return &Agg{groups: make(map[AggKey]int64), dropped: make(map[DropKey]int64)}
}

// Add counts one call.
func (a *Agg) Add(op parser.Op, count int64, datatype parser.Datatype) {
	switch {
	case count <= 0:
		a.dropped[DropKey{op, "count " + strconv.FormatInt(count, 10)}]++
	case datatype.Size() == 0:
		a.dropped[DropKey{op, "unknown datatype " + strconv.FormatInt(int64(datatype), 10)}]++
	default:
		a.addN(AggKey{op, count, datatype}, 1)
	}
}

// addN counts n calls of k, in the front table where k's slot holds k or nothing; otherwise
// the slot's counts move to the map and k takes the slot.
func (a *Agg) addN(k AggKey, n int64) {
	if a.perOp != nil {
		a.addOp(k, n)
		return
	}
	slot := &a.front[(uint64(k.Count)*0x9e3779b97f4a7c15>>58^uint64(len(k.Op))^uint64(k.Datatype))%uint64(len(a.front))]
	a.dirty = true
	if slot.n > 0 && slot.key == k {
		slot.n += n
		return
	}
	if slot.n > 0 {
		a.groups[slot.key] += slot.n
	}
	*slot = aggSlot{k, n}
}

// flush moves the front table into the map; every reader of groups calls it first.
func (a *Agg) flush() {
	if !a.dirty {
		return
	}
	for i := range a.front {
		if s := &a.front[i]; s.n > 0 {
			a.groups[s.key] += s.n
			*s = aggSlot{}
		}
	}
	a.dirty = false
}

// Merge adds o's counts to a. They go through a's front table: a step's calls are mostly
// the same few signatures as the steps before it, so merging a step touches no map.
func (a *Agg) Merge(o *Agg) {
	if o == a { // ranging over the map it adds to could count an entry twice
		a.flush()
		for k := range a.groups {
			a.groups[k] *= 2
		}
		for k := range a.dropped {
			a.dropped[k] *= 2
		}
		for _, s := range a.perOp {
			s.Calls, s.Total = 2*s.Calls, stages.AddBytes(s.Total, s.Total)
			for i := range s.Hist {
				s.Hist[i] *= 2
			}
		}
		return
	}
	for _, s := range o.perOp {
		a.mergeOp(*s, -1, 0)
	}
	for i := range o.front {
		if s := &o.front[i]; s.n > 0 {
			a.addN(s.key, s.n)
		}
	}
	for k, v := range o.groups {
		a.addN(k, v)
	}
	for k, v := range o.dropped {
		a.dropped[k] += v
	}
}

// reset empties a, keeping its memory.
func (a *Agg) reset() {
	clear(a.groups)
	clear(a.dropped)
	clear(a.perOp)
	a.front = [len(a.front)]aggSlot{}
	a.dirty = false
}

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
	for _, s := range a.perOp {
		n += s.Calls
	}
	return n
}
