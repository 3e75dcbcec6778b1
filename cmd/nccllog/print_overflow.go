package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/nccllog/nccllog/stages/ranks"
)

// overflowJSON is what ranks, comms, hang and check say, in JSON, of the communicators past
// the cap: how many, and their exact totals.
type overflowJSON struct {
	MaxComms int                   `json:"max_comms"`
	Comms    int64                 `json:"comms"`
	Closed   int64                 `json:"closed"`
	Ranks    int64                 `json:"ranks"`
	Calls    int64                 `json:"calls"`
	Bytes    int64                 `json:"bytes"`
	BusBytes float64               `json:"bus_bytes"`
	ByOp     map[string]volumeJSON `json:"by_op"`
}

// overflowValue is the overflow of r for JSON, nil where every communicator is kept in detail.
func overflowValue(r *ranks.Ranks) *overflowJSON {
	o := r.Overflow()
	if o.Comms() == 0 {
		return nil
	}
	v := o.Volume()
	out := &overflowJSON{MaxComms: r.MaxCommsKept(), Comms: o.Comms(), Closed: o.Closed, Ranks: o.Ranks,
		Calls: v.Calls, Bytes: v.Bytes, BusBytes: v.BusBytes, ByOp: map[string]volumeJSON{}}
	for op, ov := range o.ByOp {
		out.ByOp[string(op)] = volumeJSON{ov.Calls, ov.Bytes, ov.BusBytes}
	}
	return out
}

// overflowNote is the one line that says the cap was met, or "".
func overflowNote(r *ranks.Ranks) string {
	o := r.Overflow()
	if o.Comms() == 0 {
		return ""
	}
	v := o.Volume()
	closed := ""
	if o.Closed > 0 {
		closed = fmt.Sprintf(", %s of them folded once closed", count(o.Closed))
	}
	return fmt.Sprintf("more than %s communicators: per-communicator detail truncated, totals exact: "+
		"%s more (%s%s) with %s calls, %s, bus %s; hang and check do not judge them",
		count(int64(r.MaxCommsKept())), count(o.Comms()), plural(o.Ranks, "rank"), closed,
		count(v.Calls), size(v.Bytes), sizeF(v.BusBytes))
}

// warnOverflow tells on stderr that the cap of communicators kept in detail was met.
func warnOverflow(w io.Writer, r *view) {
	if n := overflowNote(r.ranks); n != "" {
		fmt.Fprintf(w, "nccllog: %s\n", n)
	}
}

// overflowRow is the comms table's last row: the communicators past the cap, summed.
func overflowRow(t *table, r *ranks.Ranks) {
	o := r.Overflow()
	if o.Comms() == 0 {
		return
	}
	v := o.Volume()
	ops := slices.Sorted(maps.Keys(o.ByOp))
	names := make([]string, len(ops))
	for i, op := range ops {
		names[i] = string(op)
	}
	t.row("("+count(o.Comms())+" more)", "-", count(o.Ranks), "-", size(v.Bytes), sizeF(v.BusBytes), "",
		"totals only", strings.Join(names, " "))
}
