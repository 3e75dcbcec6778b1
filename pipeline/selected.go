package pipeline

import (
	"bytes"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// selectedOnly parses the lines of the selected steps and every step marker, and passes over
// the lines of other steps unread wherever the chunk itself tells their step: a step's lines
// end at its marker (BoundaryEnd) or start at it (BoundaryStart), so only the lines after the
// chunk's last marker, or before its first, wait for the merger to settle their step; those
// are parsed. markers is a second parser that looks ahead for the next marker; the markers
// it finds go to the chunk as it read them.
func selectedOnly(c *stages.Chunk, cfg *stages.Config, data []byte, markers *parser.Parser, parse func(*stages.Chunk, []byte, int)) {
	s := selection{c: c, cfg: cfg, data: data, next: markerFinder(data, markers), parse: parse}
	if cfg.Boundary == stages.BoundaryEnd {
		s.byEnd()
	} else {
		s.byStart()
	}
}

// selection is one chunk being read by selectedOnly.
type selection struct {
	c     *stages.Chunk
	cfg   *stages.Config
	data  []byte
	next  func(off int) (mark, bool)
	parse func(*stages.Chunk, []byte, int)
}

// mark is a step marker: its line, from start to end (after its newline), and how it read.
type mark struct {
	start, end int
	line       parser.Line
}

// add gives the chunk a marker as the look-ahead read it.
func (s *selection) add(m *mark) {
	s.c.Add(bytes.TrimSuffix(s.data[m.start:m.end], []byte{'\n'}), int64(m.start), int64(m.end), &m.line)
}

// read parses data[from:to], or counts its lines unread where its step is not selected.
func (s *selection) read(from, to int, step int64) {
	switch {
	case to <= from:
	case s.cfg.Selects(step):
		s.parse(s.c, s.data[from:to], from)
	default:
		s.c.AddUnread(lineCount(s.data[from:to]), int64(from), int64(to))
	}
}

// byEnd: the lines up to a marker are its step's; those after the last one are not known.
func (s *selection) byEnd() {
	off := 0
	for m, ok := s.next(0); ok; m, ok = s.next(off) {
		s.read(off, m.start, m.line.Prog.Step)
		s.add(&m)
		off = m.end
	}
	s.parse(s.c, s.data[off:], off) // they end at a marker in a later chunk
}

// byStart: the lines after a marker are its step's; those before the first one are not known.
func (s *selection) byStart() {
	m, ok := s.next(0)
	if !ok {
		s.parse(s.c, s.data, 0) // no marker: the merger settles these lines' step
		return
	}
	s.parse(s.c, s.data[:m.start], 0) // they start at a marker in an earlier chunk
	for ok {
		nm, nok := s.next(m.end)
		to := len(s.data)
		if nok {
			to = nm.start
		}
		s.add(&m)
		s.read(m.end, to, m.line.Prog.Step)
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
			m.end = lineEnd(data, m.start)
			markers.Parse(bytes.TrimSuffix(data[m.start:m.end], []byte{'\n'}), &m.line)
			if m.line.Kind == parser.KindProgress {
				return m, true
			}
			off = m.end
		}
		return m, false
	}
}
