package pipeline

import (
	"fmt"
	"os"

	"github.com/nccllog/nccllog/parser"
)

// spillPiece is how many bytes of spilled lines are read back at a time (more only for a
// longer line).
const spillPiece = 1 << 20

// spillFile is a stages.Spill in a temporary file in os.TempDir(), made at the first Write.
// The file is removed from its directory as soon as it is made where the system allows it
// (it then goes away with the process, however that ends), otherwise when it is closed.
type spillFile struct {
	f       *os.File
	n       int64 // bytes written since the last Replay
	removed bool
	buf     []byte
}

func (s *spillFile) Write(b []byte) error {
	if s.f == nil {
		f, err := os.CreateTemp("", "nccllog-wait-*")
		if err != nil {
			return fmt.Errorf("a temporary file for lines that wait for their step: %w", err)
		}
		s.f, s.removed = f, os.Remove(f.Name()) == nil
	}
	if _, err := s.f.WriteAt(b, s.n); err != nil {
		return fmt.Errorf("writing lines that wait for their step to a temporary file: %w", err)
	}
	s.n += int64(len(b))
	return nil
}

// Replay hands back what was written in runs of whole lines of about spillPiece bytes: a
// line cut between two reads is whole again in the next run.
func (s *spillFile) Replay(fn func(lines []byte) error) error {
	if s.n == 0 {
		return nil
	}
	n := s.n
	s.n = 0
	data := s.buf[:0]
	for off := int64(0); off < n; {
		want := min(int64(spillPiece), n-off)
		if cap(data)-len(data) < int(want) { // room for the next carry too
			data = append(make([]byte, 0, 2*(len(data)+int(want))), data...)
		}
		got, err := s.f.ReadAt(data[len(data):len(data)+int(want)], off)
		if int64(got) < want {
			return fmt.Errorf("reading back lines that waited for their step from a temporary file: %w", err)
		}
		data, off = data[:len(data)+got], off+int64(got)
		cut := parser.WholeLines(data)
		if off == n {
			cut = len(data)
		}
		if cut == 0 {
			continue // a line longer than a piece: read on
		}
		if err := fn(data[:cut]); err != nil {
			return err
		}
		data = append(data[:0], data[cut:]...)
	}
	if cap(data) <= 4*spillPiece { // a buffer grown for a long line is let go
		s.buf = data[:0]
	}
	return s.f.Truncate(0)
}

// Forget empties the file.
func (s *spillFile) Forget() error {
	if s.n == 0 {
		return nil
	}
	s.n = 0
	return s.f.Truncate(0)
}

// Close removes the file.
func (s *spillFile) Close() error {
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	if !s.removed {
		os.Remove(s.f.Name())
	}
	return err
}
