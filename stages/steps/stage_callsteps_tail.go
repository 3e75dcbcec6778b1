package steps

import "fmt"

// MaxSteps is how many recurrences of its pattern are kept per process past its first
// KeptCalls calls (8 bytes each); past it later steps are not listed, and a note says so.
const MaxSteps = 100_000

// tailState follows a process's calls past its first KeptCalls: the pattern found in those
// (tailGram, on its main communicator) and the times it recurs at, one per step.
type tailState struct {
	comm uint64
	g    gram
	ok   bool       // a pattern was found in the first calls
	win  [2]winCall // the last two main-communicator calls, oldest first
	nwin int
	rec  []int64 // the time of each recurrence's first call, completed past the first calls
	cut  bool    // later recurrences were not kept: past MaxSteps, or a stretch that disagrees
}

// winCall is one recent main-communicator call: which of the pattern's three calls it
// matches (bit i for g[i]) and its time.
type winCall struct {
	M  uint8 `json:"m"`
	Ns int64 `json:"ns"`
}

// startTail begins following pc's calls once its first KeptCalls are kept.
func (pc *procCalls) startTail() {
	s := mainSeq(procKey{}, pc)
	t := &tailState{comm: s.comm}
	t.g, t.ok = tailGram(s.keys)
	pc.tail = t
	if !t.ok {
		return
	}
	for i := max(0, len(s.keys)-2); i < len(s.keys); i++ {
		t.push(t.match(s.keys[i]), s.ns[i])
	}
}

// match returns which of the pattern's calls k is.
func (t *tailState) match(k sigKey) uint8 {
	var m uint8
	for i, g := range t.g {
		if g == k {
			m |= 1 << i
		}
	}
	return m
}

// push takes the next main-communicator call, noting a recurrence that it completes.
func (t *tailState) push(m uint8, ns int64) {
	if t.nwin == 2 && m&4 != 0 && t.win[0].M&1 != 0 && t.win[1].M&2 != 0 {
		t.keep(t.win[0].Ns)
	}
	t.win[0], t.win[1] = t.win[1], winCall{m, ns}
	t.nwin = min(t.nwin+1, 2)
}

func (t *tailState) keep(ns int64) {
	if len(t.rec) >= MaxSteps {
		t.cut = true
		return
	}
	t.rec = append(t.rec, ns)
}

// call takes a call past the first KeptCalls.
func (t *tailState) call(s CallSig, ns int64) {
	if t.ok && s.Comm == t.comm {
		t.push(t.match(sigKey{string(s.Op), s.Count, int64(s.Dtype)}), ns)
	}
}

// addCall takes pc's next call: kept while fewer than KeptCalls are, then followed.
func (pc *procCalls) addCall(s CallSig, ns int64) {
	if len(pc.calls) < KeptCalls {
		pc.calls = append(pc.calls, keptCall{pc.intern(s), ns})
		if len(pc.calls) == KeptCalls {
			pc.startTail()
		}
		return
	}
	pc.tail.call(s, ns)
}

// joinTail follows pc's calls with those of o past o's first KeptCalls, which pc has just
// taken: o's recurrences are pc's where both follow the same pattern on the same
// communicator (then pc's last calls are o's); else pc's later steps are cut.
func (pc *procCalls) joinTail(o *procCalls) {
	if o.Calls <= int64(len(o.calls)) {
		return
	}
	t, ot := pc.tail, o.tail
	if t == nil {
		return
	}
	if ot == nil || !t.ok || !ot.ok || t.comm != ot.comm || t.g != ot.g {
		t.cut = true
		return
	}
	for _, ns := range ot.rec {
		t.keep(ns)
	}
	t.win, t.nwin = ot.win, ot.nwin
	t.cut = t.cut || ot.cut
}

// truncated reports whether pc's calls past its first KeptCalls were not followed.
func (pc *procCalls) truncated() bool {
	return pc.Calls > int64(len(pc.calls)) && (pc.tail == nil || !pc.tail.ok || pc.tail.cut)
}

// tailDurations continues the durations of s's steps measured at g in its first calls, the
// last of which started at pos, with those its tail pattern measures from there on: from
// the pattern's first recurrence at or after pos to each next one, one per step.
func tailDurations(s procSeq, pos int) []int64 {
	t := s.tail
	if t == nil || !t.ok {
		return nil
	}
	var at []int64
	for i := pos; i+len(t.g) <= len(s.keys); i++ {
		if gram(s.keys[i:i+len(t.g)]) == t.g {
			at = append(at, s.ns[i])
		}
	}
	at = append(at, t.rec...)
	d := make([]int64, 0, max(0, len(at)-1))
	for i := 1; i < len(at); i++ {
		d = append(d, at[i]-at[i-1])
	}
	return d
}

// TailSnapshot is a process's tailState in a partial result: Rec as the first recurrence's
// time and then each one's distance from the one before, in nanoseconds.
type TailSnapshot struct {
	Comm uint64
	Gram gram
	OK   bool
	Win  []winCall
	Rec  []int64
	Cut  bool
}

func snapTail(t *tailState) *TailSnapshot {
	if t == nil {
		return nil
	}
	s := &TailSnapshot{Comm: t.comm, Gram: t.g, OK: t.ok, Win: append([]winCall{}, t.win[2-t.nwin:]...),
		Rec: make([]int64, 0, len(t.rec)), Cut: t.cut}
	var last int64
	for _, ns := range t.rec {
		s.Rec = append(s.Rec, ns-last)
		last = ns
	}
	return s
}

// restoreTail reads a process's tail back; of names the process for errors.
func restoreTail(s *TailSnapshot, of string) (*tailState, error) {
	if len(s.Win) > 2 || len(s.Rec) > MaxSteps || !s.OK && (len(s.Win)+len(s.Rec) > 0 || s.Cut) {
		return nil, fmt.Errorf("the steps followed%s do not add up", of)
	}
	t := &tailState{comm: s.Comm, g: s.Gram, ok: s.OK, nwin: len(s.Win), cut: s.Cut}
	for i, w := range s.Win {
		if w.M > 7 {
			return nil, fmt.Errorf("the steps followed%s do not add up", of)
		}
		t.win[2-len(s.Win)+i] = w
	}
	var ns int64
	for _, d := range s.Rec {
		ns += d
		t.rec = append(t.rec, ns)
	}
	return t, nil
}
