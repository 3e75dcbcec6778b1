package ranks

import "github.com/nccllog/nccllog/parser"

// heldEvent is a held event as Ranks folds it: the event where its list holds it, with the
// file and host its indexes name. The fold reads the event in place: a RankEvent built for
// each (260 bytes written and copied) cost more than the rest of folding a call.
type heldEvent struct {
	*event
	l          *events
	file, host string
}

// time is the event's wall time as an At.
func (h *heldEvent) time() At { return At{Stamp: h.at} }

// commLine is a communicator line's details, in l.comm (the next call overwrites them).
func (h *heldEvent) commLine() *parser.CommEvent {
	h.l.commEvent(&h.l.comm, &h.l.rare[h.rare])
	return &h.l.comm
}

// warn is a WARN line's text and whether it names no fault.
func (h *heldEvent) warn() (string, bool) {
	r := &h.l.rare[h.rare]
	return h.l.strs[r.text], r.advice
}

// watchdog is a watchdog line's details, nil where there are none.
func (h *heldEvent) watchdog() *parser.Watchdog {
	if h.rare < 0 {
		return nil
	}
	if r := &h.l.rare[h.rare]; r.dog >= 0 {
		return h.l.dogs[r.dog]
	}
	return nil
}

// opName is a call's op, by its string.
func (h *heldEvent) opName() parser.Op { return parser.Op(h.l.strs[h.op]) }

// Add folds one event of the input file into the state. Events of a file come in order.
func (r *Ranks) Add(file string, e *RankEvent) {
	var l events
	if l.addRankEvent(e) != nil {
		return // a line without its fields: nothing to fold
	}
	l.Items[0].at = e.Time.Stamp
	r.fold(&heldEvent{event: &l.Items[0], l: &l, file: file, host: e.Host})
}

// foldHeld folds l's events into the state, in order.
func (r *Ranks) foldHeld(l *events) {
	h := heldEvent{l: l}
	for i := range l.Items {
		h.event = &l.Items[i]
		h.file, h.host = l.strs[h.event.file], l.strs[h.event.host]
		r.fold(&h)
	}
}
