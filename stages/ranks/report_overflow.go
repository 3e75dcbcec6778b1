package ranks

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// VolumeReport is the calls and bytes of one op, in JSON.
type VolumeReport struct {
	Calls    int64   `json:"calls"`
	Bytes    int64   `json:"bytes"`
	BusBytes float64 `json:"bus_bytes"`
}

// OverflowReport is what ranks, comms, hang and check say, in JSON, of the communicators
// past the cap: how many, and their exact totals.
type OverflowReport struct {
	MaxComms int                     `json:"max_comms"`
	Comms    int64                   `json:"comms"`
	Closed   int64                   `json:"closed"`
	Ranks    int64                   `json:"ranks"`
	Calls    int64                   `json:"calls"`
	Bytes    int64                   `json:"bytes"`
	BusBytes float64                 `json:"bus_bytes"`
	ByOp     map[string]VolumeReport `json:"by_op"`
	// Ops names its ops, sorted, space-separated.
	Ops string `json:"-"`
}

// OverflowReport is the overflow of r, nil where every communicator is kept in detail.
func (r *Ranks) OverflowReport() *OverflowReport {
	r.settle()
	o := r.Overflow()
	if o.Comms() == 0 {
		return nil
	}
	v := o.Volume()
	out := &OverflowReport{MaxComms: r.MaxCommsKept(), Comms: o.Comms(), Closed: o.Closed, Ranks: o.Ranks,
		Calls: v.Calls, Bytes: v.Bytes, BusBytes: v.BusBytes, ByOp: map[string]VolumeReport{}}
	ops := slices.Sorted(maps.Keys(o.ByOp))
	names := make([]string, len(ops))
	for i, op := range ops {
		ov := o.ByOp[op]
		out.ByOp[string(op)] = VolumeReport{ov.Calls, ov.Bytes, ov.BusBytes}
		names[i] = string(op)
	}
	out.Ops = strings.Join(names, " ")
	return out
}

// OverflowNote is the one line that says the cap was met, or "".
func (r *Ranks) OverflowNote() string {
	if r.over.Comms() == 0 && !r.mayOverflow() {
		return "" // the deferred events, folded, would put none past the cap
	}
	r.settle()
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

// Row is the comms table's last row for the communicators past the cap, summed.
func (o *OverflowReport) Row() []string {
	return []string{"(" + count(o.Comms) + " more)", "-", count(o.Ranks), "-", size(o.Bytes), sizeF(o.BusBytes), "",
		"totals only", o.Ops}
}
