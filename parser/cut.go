package parser

import "bytes"

// Lines cuts data into lines at '\n'. A last line without a newline counts as a line. Every
// part of nccllog that cuts lines (the reader's chunks, the stages' reading of a chunk, the
// tests' reference) cuts them here, so they all agree on what a line is.
type Lines struct {
	data []byte
	off  int
}

// NewLines starts cutting data.
func NewLines(data []byte) Lines { return Lines{data: data} }

// Next returns the next line without its newline, where it starts in data, and where it
// ends (after its newline); ok is false at the end.
func (c *Lines) Next() (line []byte, off, end int, ok bool) {
	off = c.off
	rest := c.data[off:]
	if len(rest) == 0 {
		return nil, off, off, false
	}
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		c.off = len(c.data)
		return rest, off, c.off, true
	}
	c.off = off + i + 1
	return rest[:i], off, c.off, true
}

// LineEnd returns where the line that starts at off ends: after its newline, or at the end of
// data.
func LineEnd(data []byte, off int) int {
	if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(data)
}

// CountLines counts the lines of data, a last line without a newline included.
func CountLines(data []byte) int64 {
	n := int64(bytes.Count(data, []byte{'\n'}))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// WholeLines returns the length of data's leading whole lines: up to and including its
// last newline (0 where it holds none).
func WholeLines(data []byte) int { return bytes.LastIndexByte(data, '\n') + 1 }
