package stages

import (
	"fmt"
	"math"
)

// WaitCap is how many bytes of input a stretch may span while it waits in memory for the
// marker that ends its step (BoundaryEnd): past it, the Merger bounds it (see Bound). An
// input read at once holds at most this much input's worth of waiting lines, and a run
// reads at most 4 inputs per core at once.
const WaitCap = 2 << 20

// Bound is how a Merger keeps a stretch that waits for the marker ending its step from
// holding memory, without giving up the step. Past Cap bytes of input it asks Ahead, an input
// that can be read again, for the next marker, and settles the stretch with its step at once;
// an input that cannot be read again (standard input, a pipe) goes to Spill instead: what the
// waiting lines made is dropped and their bytes are written out, and once the marker (or the
// end) comes, the bytes are read again with Reread and settled with its step.
type Bound struct {
	Cap    int64 // 0: WaitCap
	Ahead  Ahead
	Spill  Spill
	Reread func(data []byte) (*Chunk, error) // reads whole lines as a worker does (Read)
}

// Ahead finds the step marker that ends a waiting stretch in a second reading of the input.
type Ahead interface {
	// Marker returns the first marker that starts at or after byte from of the input (a
	// line start). Successive calls ask for increasing offsets.
	Marker(from int64) (Mark, error)
}

// Mark is a step marker found ahead: its step and the byte its line starts at. Found is
// false where the input ends first.
type Mark struct {
	Step, At int64
	Found    bool
}

// Spill keeps the bytes of a waiting stretch out of memory.
type Spill interface {
	Write(b []byte) error
	// Replay hands back the bytes written since the last Replay or Forget in runs of whole
	// lines, in order, and forgets them.
	Replay(fn func(lines []byte) error) error
	// Forget forgets the bytes written since the last Replay or Forget.
	Forget() error
}

// dropper is a waiting Partial that keeps nothing of the lines of a step the run does not
// select: lines spilled for such a step need not be read again.
type dropper interface {
	DropsUnselected() bool
}

// Bound makes m bound its waiting stretches with b.
func (m *Merger) Bound(b Bound) {
	if b.Cap <= 0 {
		b.Cap = WaitCap
	}
	m.wait.Bound = b
}

// waiting is the state of a Merger's waiting stretch.
type waiting struct {
	Bound
	// parts are the Partials that hold what their lines made until the step is known
	// (Holders that wait): what a spill drops and a replay makes again. The others hold
	// counts, which stay.
	parts   []int
	keeps   bool   // a part keeps something of an unselected step's lines
	fresh   bool   // no line waits yet
	line    int64  // lines of the input before the waiting stretch
	bytes   int64  // input bytes of the waiting stretch
	raw     []byte // those bytes while they may yet have to be spilled
	spilled bool
	ahead   ahead
}

// ahead is what the last lookahead found: every line before byte at has step.
type ahead struct {
	known, found bool
	step, at     int64
}

// newWaiting starts the waiting state of a Merger whose pending stretch is s.
func newWaiting(s *Set) waiting {
	w := waiting{fresh: true, parts: waitingParts(s)}
	for _, i := range w.parts {
		if d, ok := s.Parts[i].(dropper); !ok || !d.DropsUnselected() {
			w.keeps = true
		}
	}
	return w
}

// waitingParts lists the Partials of s that hold lines while they wait for their step.
func waitingParts(s *Set) []int {
	var out []int
	for i, p := range s.Parts {
		if _, ok := p.(Holder); !ok {
			continue
		}
		if w, ok := p.(interface{ Waits() bool }); ok && !w.Waits() {
			continue
		}
		out = append(out, i)
	}
	return out
}

// take counts data, the bytes of the open tail s, in the waiting stretch: written out where
// the stretch is spilled (and what s's lines made dropped), kept where it may be.
func (w *waiting) take(data []byte, s *Set) error {
	w.bytes += int64(len(data))
	switch {
	case w.spilled:
		for _, i := range w.parts {
			s.Parts[i].Reset()
		}
		return w.Spill.Write(data)
	case w.Ahead == nil && w.Spill != nil && len(w.parts) > 0:
		w.raw = append(w.raw, data...)
	}
	return nil
}

// over reports whether the stretch is past the cap and should be bounded now.
func (w *waiting) over() bool {
	return len(w.parts) > 0 && !w.spilled && (w.Ahead != nil || w.Spill != nil) && w.bytes > w.Cap
}

// lookahead finds the marker after byte from and returns its step (-1: none).
func (w *waiting) lookahead(from int64) (int64, error) {
	mk, err := w.Ahead.Marker(from)
	if err != nil {
		return 0, err
	}
	w.ahead = ahead{known: true, found: mk.Found, step: mk.Step, at: mk.At}
	if !mk.Found {
		w.ahead.step, w.ahead.at = -1, math.MaxInt64
	}
	return w.ahead.step, nil
}

// spill writes the stretch's bytes out and drops what its lines made in pending.
func (w *waiting) spill(pending *Set) error {
	if err := w.Spill.Write(w.raw); err != nil {
		return err
	}
	w.raw, w.spilled = nil, true
	for _, i := range w.parts {
		pending.Parts[i].Reset()
	}
	return nil
}

// ended starts a new waiting stretch.
func (w *waiting) ended() {
	w.fresh, w.bytes, w.spilled = true, 0, false
	w.raw = w.raw[:0]
}

func (a *ahead) mismatch(file string) error {
	if !a.found {
		return fmt.Errorf("%q: a step marker where none was found reading ahead: the file changed while it was read", file)
	}
	return fmt.Errorf("%q: the step marker found reading ahead (step %d at byte %d) is not where the chunks have it: the file changed while it was read",
		file, a.step, a.at)
}

// replay settles the spilled lines with step: read again, what the waiting Partials make of
// them is merged into the total, in order, before the lines that follow.
func (m *Merger) replay(step int64) error {
	if !m.wait.spilled {
		return nil
	}
	sel, base := m.plan.Selects(step), m.wait.line
	if !sel && !m.wait.keeps {
		return m.wait.Spill.Forget()
	}
	return m.wait.Spill.Replay(func(lines []byte) error {
		c, err := m.wait.Reread(lines)
		if err != nil {
			return err
		}
		if len(c.Markers) > 0 || c.Open == nil {
			return fmt.Errorf("%q: internal error: a step marker in lines that waited for one, after line %d", m.file, base)
		}
		c.Open.Settle(step, sel)
		c.Open.Anchor(Origin{File: m.file, Base: base, Data: lines})
		base += c.LineCount()
		for _, i := range m.wait.parts {
			m.Total.Parts[i].Merge(c.Open.Parts[i])
		}
		return m.Total.Commit(m.out)
	})
}

// Waiting is what a Merger holds in memory while lines wait for their step.
type Waiting struct {
	// Items is how many values (calls, rank events, line ranges) the waiting Partials hold.
	Items int64
	// Kept is how many of the stretch's input bytes are kept to be spilled should it grow.
	Kept int64
}

// Pending returns the Partials of the stretch that waits for its step (BoundaryEnd; see
// Waiting for how much they hold): m's own Set, to read between Adds, not to change. Finish
// hands it to the plan for the next input's Merger, and Pending is nil from then on.
func (m *Merger) Pending() *Set { return m.pending }

// Waiting reports what m holds for the stretch that waits for its step: once the stretch
// passes the Bound's cap both drop, the values to a reading ahead or a spill, the bytes to
// the spill file.
func (m *Merger) Waiting() Waiting {
	w := Waiting{Kept: int64(len(m.wait.raw))}
	for _, i := range m.wait.parts {
		w.Items += int64(m.pending.Parts[i].(Holder).Held())
	}
	return w
}
