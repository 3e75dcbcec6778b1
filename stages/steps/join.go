package steps

import (
	"cmp"
	"iter"
	"slices"
)

// Volume is what one rank issued in a step: calls, message bytes and bus bytes.
type Volume struct {
	Calls    int64
	Bytes    int64
	BusBytes float64
}

// StepVolume is one step's progress-line values (Point; only Step set where no progress line
// named the step) beside the volume issued in it.
type StepVolume struct {
	Point StepPoint
	Volume
}

// JoinVolumes joins the progress lines' points with volumes, per-step volumes that it sums
// (one per communicator, say) in the order given, for every step either knows, in step order.
func JoinVolumes(pts []StepPoint, volumes iter.Seq2[int64, Volume]) []StepVolume {
	by := make(map[int64]*StepVolume)
	at := func(n int64) *StepVolume {
		if by[n] == nil {
			by[n] = &StepVolume{Point: StepPoint{Step: n}}
		}
		return by[n]
	}
	for _, p := range pts {
		at(p.Step).Point = p
	}
	for n, v := range volumes {
		s := at(n)
		s.Calls, s.Bytes, s.BusBytes = s.Calls+v.Calls, s.Bytes+v.Bytes, s.BusBytes+v.BusBytes
	}
	out := make([]StepVolume, 0, len(by))
	for _, s := range by {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b StepVolume) int { return cmp.Compare(a.Point.Step, b.Point.Step) })
	return out
}
