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
// are parsed. markers is a second parser that looks ahead for the next marker, so that p
// reads every line it is given once.
func selectedOnly(c *stages.Chunk, cfg *stages.Config, data []byte, markers *parser.Parser, parse func(*stages.Chunk, []byte, int)) {
	next := markerFinder(data, markers)
	unread := func(from, to int) {
		if to > from {
			c.AddUnread(lineCount(data[from:to]), int64(from), int64(to))
		}
	}
	m, e, step := next(0)
	if cfg.Boundary == stages.BoundaryEnd {
		off := 0
		for ; m >= 0; m, e, step = next(e) {
			if cfg.Selects(step) {
				parse(c, data[off:e], off)
			} else {
				unread(off, m)
				parse(c, data[m:e], m)
			}
			off = e
		}
		parse(c, data[off:], off) // ends at a marker in a later chunk
		return
	}
	if m < 0 {
		parse(c, data, 0) // no marker: the step of these lines is settled by the merger
		return
	}
	parse(c, data[:m], 0) // starts at a marker in an earlier chunk
	for m >= 0 {
		nm, ne, nstep := next(e)
		end := nm
		if nm < 0 {
			end = len(data)
		}
		if cfg.Selects(step) {
			parse(c, data[m:end], m)
		} else {
			parse(c, data[m:e], m)
			unread(e, end)
		}
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
