package pipeline

import (
	"io"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// bound gives m the means to bound what waits for a step (stages.Bound): a mapped file and a
// compressed file are read a second time ahead of the merge; standard input, pipes, devices
// and plain files read with read(2) are spilled to a temporary file. A mapped file is read
// up to its size when it was opened, by the chunks and the reading ahead alike; read(2) reads
// a file that grows (a job still writing its log) to wherever its end is by then, which a
// reading ahead could not see. mapped says that src.file is mapped. The returned function
// lets go of what it took; call it once the run is over.
func bound(m *stages.Merger, in Input, src *source, mapped bool, opt Options, ps *Parsers) (done func()) {
	if opt.Plan.Boundary != stages.BoundaryEnd {
		return func() {}
	}
	lend := &lender{ps: ps}
	b := stages.Bound{Cap: int64(opt.waitCap)}
	var closers []io.Closer
	switch {
	case mapped:
		b.Ahead = &reading{lend: lend, open: func() (io.Reader, io.Closer, error) {
			return io.NewSectionReader(src.file, 0, src.size), nil, nil
		}}
	case src.file != nil && src.codec != "":
		r := &reading{lend: lend, open: func() (io.Reader, io.Closer, error) {
			again, err := open(Input{Name: in.Name, gate: in.gate})
			if err != nil {
				return nil, nil, err
			}
			return again.r, again, nil
		}}
		b.Ahead, closers = r, append(closers, r)
	default:
		s := &spillFile{}
		b.Spill, closers = s, append(closers, s)
		b.Reread = func(data []byte) (*stages.Chunk, error) {
			p, err := lend.get()
			if err != nil {
				return nil, err
			}
			return stages.Read(opt.Plan, data, p, p), nil
		}
	}
	m.Bound(b)
	return func() {
		for _, c := range closers {
			c.Close()
		}
		lend.put()
	}
}

// lender borrows one Parser from a run's parsers when it is first needed. Its Stats are
// not the run's: the lines it reads are read, and counted, by the workers.
type lender struct {
	ps *Parsers
	p  *parser.Parser
}

func (l *lender) get() (*parser.Parser, error) {
	if l.p != nil {
		return l.p, nil
	}
	p, err := l.ps.get()
	l.p = p
	return p, err
}

func (l *lender) put() {
	if l.p != nil {
		l.ps.put(l.p)
	}
}

// reading is a stages.Ahead over the input opened a second time, at the first lookahead.
type reading struct {
	lend   *lender
	open   func() (io.Reader, io.Closer, error)
	ahead  *stages.Lookahead
	closer io.Closer
}

func (r *reading) Marker(from int64) (stages.Mark, error) {
	if r.ahead == nil {
		rd, closer, err := r.open()
		if err != nil {
			return stages.Mark{}, err
		}
		r.closer = closer
		p, err := r.lend.get()
		if err != nil {
			return stages.Mark{}, err
		}
		r.ahead = stages.NewLookahead(rd, p, r.lend.ps.buf())
	}
	mk, err := r.ahead.Marker(from)
	if err == nil && !mk.Found {
		r.Close() // the input has no marker left to find: its buffer and decoder go
	}
	return mk, err
}

func (r *reading) Close() error {
	if r.ahead != nil {
		r.lend.ps.putBuf(r.ahead.Release())
		r.ahead = nil
	}
	if c := r.closer; c != nil {
		r.closer = nil
		return c.Close()
	}
	return nil
}
