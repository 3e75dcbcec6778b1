package stages

import (
	"bytes"

	"github.com/nccllog/nccllog/parser"
)

// Read runs the plan's stages over one chunk's data (whole lines) and returns the Chunk. p
// parses the lines; markers is a second parser that looks ahead for step markers where the
// plan reads only the selected steps (nil otherwise). How much is read is the plan's
// decision: only the markers (split, steps), only the selected steps' lines (--steps), or
// every line.
func Read(plan *Plan, data []byte, p, markers *parser.Parser) *Chunk {
	r := reading{c: NewChunk(plan), plan: plan, data: data, p: p}
	switch {
	case plan.Reads() <= ReadsBytes:
		r.markersOnly()
	case plan.ReadsSelectedOnly():
		r.next = markerFinder(data, markers)
		if plan.Boundary == BoundaryEnd {
			r.byEnd()
		} else {
			r.byStart()
		}
	default:
		r.parse(0, len(data))
	}
	r.c.Finish()
	return r.c
}

// reading is one chunk being read.
type reading struct {
	c    *Chunk
	plan *Plan
	data []byte
	p    *parser.Parser
	l    parser.Line
	next func(off int) (mark, bool)
}

// parse parses the lines of data[from:to].
func (r *reading) parse(from, to int) {
	lines := parser.NewLines(r.data[from:to])
	for line, off, end, ok := lines.Next(); ok; line, off, end, ok = lines.Next() {
		r.p.Parse(line, &r.l)
		r.c.Add(line, int64(from+off), int64(from+end), &r.l)
	}
}

// unread counts the lines of data[from:to] as passed over.
func (r *reading) unread(from, to int) {
	if to > from {
		r.c.AddUnread(parser.CountLines(r.data[from:to]), int64(from), int64(to))
	}
}

// markersOnly passes over the lines that cannot be step markers unread and parses the rest.
func (r *reading) markersOnly() {
	find := parser.NewProgressFinder(r.data)
	for off := 0; off < len(r.data); {
		next := find.Next(off)
		if next < 0 {
			next = len(r.data)
		}
		if next > off {
			r.unread(off, next)
			off = next
			continue
		}
		end := parser.LineEnd(r.data, off)
		r.parse(off, end)
		off = end
	}
}

// The lines of the selected steps, and every step marker, are parsed; the lines of other
// steps are passed over unread wherever the chunk itself tells their step: a step's lines end
// at its marker (BoundaryEnd) or start at it (BoundaryStart), so only the lines after the
// chunk's last marker, or before its first, wait for the Merger to settle their step. Those
// are parsed.

// mark is a step marker: its line, from start to end (after its newline), and how it read.
type mark struct {
	start, end int
	line       parser.Line
}

// add gives the chunk a marker as the look-ahead read it.
func (r *reading) add(m *mark) {
	r.c.Add(bytes.TrimSuffix(r.data[m.start:m.end], []byte{'\n'}), int64(m.start), int64(m.end), &m.line)
}

// stretch parses data[from:to], or counts its lines unread where its step is not selected.
func (r *reading) stretch(from, to int, step int64) {
	switch {
	case to <= from:
	case r.plan.Selects(step):
		r.parse(from, to)
	default:
		r.unread(from, to)
	}
}

// byEnd: the lines up to a marker are its step's; those after the last one are not known.
func (r *reading) byEnd() {
	off := 0
	for m, ok := r.next(0); ok; m, ok = r.next(off) {
		r.stretch(off, m.start, m.line.Prog.Step)
		r.add(&m)
		off = m.end
	}
	r.parse(off, len(r.data)) // they end at a marker in a later chunk
}

// byStart: the lines after a marker are its step's; those before the first one are not known.
func (r *reading) byStart() {
	m, ok := r.next(0)
	if !ok {
		r.parse(0, len(r.data)) // no marker: the Merger settles these lines' step
		return
	}
	r.parse(0, m.start) // they start at a marker in an earlier chunk
	for ok {
		nm, nok := r.next(m.end)
		to := len(r.data)
		if nok {
			to = nm.start
		}
		r.add(&m)
		r.stretch(m.end, to, m.line.Prog.Step)
		m, ok = nm, nok
	}
}

// markerFinder returns a function that finds the first step marker starting at or after off
// (a line start); ok is false where there is none. Only lines that may be markers are read,
// with markers.
func markerFinder(data []byte, markers *parser.Parser) func(off int) (mark, bool) {
	find := parser.NewProgressFinder(data)
	return func(off int) (mark, bool) {
		var m mark
		for off < len(data) {
			if m.start = find.Next(off); m.start < 0 {
				return m, false
			}
			m.end = parser.LineEnd(data, m.start)
			markers.Parse(bytes.TrimSuffix(data[m.start:m.end], []byte{'\n'}), &m.line)
			if m.line.Kind == parser.KindProgress {
				return m, true
			}
			off = m.end
		}
		return m, false
	}
}
