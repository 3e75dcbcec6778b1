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
// are parsed. markers is a second parser that looks ahead for the next marker, so that the
// parser behind parse reads each line it is given once.
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
	next  func(off int) (start, end int, step int64)
	parse func(*stages.Chunk, []byte, int)
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
	for m, e, step := s.next(0); m >= 0; m, e, step = s.next(e) {
		s.read(off, m, step)
		s.parse(s.c, s.data[m:e], m)
		off = e
	}
	s.parse(s.c, s.data[off:], off) // they end at a marker in a later chunk
}

// byStart: the lines after a marker are its step's; those before the first one are not known.
func (s *selection) byStart() {
	m, e, step := s.next(0)
	if m < 0 {
		m = len(s.data)
	}
	s.parse(s.c, s.data[:m], 0) // they start at a marker in an earlier chunk
	for m < len(s.data) {
		nm, ne, nstep := s.next(e)
		if nm < 0 {
			nm = len(s.data)
		}
		s.parse(s.c, s.data[m:e], m)
		s.read(e, nm, step)
		m, e, step = nm, ne, nstep
	}
}

// markerFinder returns a function that finds the first step marker starting at or after off
// (a line start): its start, the end of its line (after the newline) and its step; start -1
// where there is none. Only lines that may be markers are read, with markers.
func markerFinder(data []byte, markers *parser.Parser) func(off int) (start, end int, step int64) {
	find := parser.NewProgressFinder(data)
	var l parser.Line
	return func(off int) (int, int, int64) {
		for off < len(data) {
			m := find.Next(off)
			if m < 0 {
				return -1, 0, 0
			}
			e := len(data)
			if i := bytes.IndexByte(data[m:], '\n'); i >= 0 {
				e = m + i + 1
			}
			markers.Parse(bytes.TrimSuffix(data[m:e], []byte{'\n'}), &l)
			if l.Kind == parser.KindProgress {
				return m, e, l.Prog.Step
			}
			off = e
		}
		return -1, 0, 0
	}
}
