package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// DefaultChunkSize is how many bytes a worker parses at a time.
const DefaultChunkSize = 1 << 20

// Options says how to run.
type Options struct {
	Jobs      int // workers; 0 means one per core
	ChunkSize int // 0 means DefaultChunkSize
	Config    stages.Config
	// NoMap reads a plain file with read(2) instead of mapping it into memory.
	NoMap bool
	// dropEvery overrides dropEvery, for tests that hand pages back every chunk.
	dropEvery int
	// parsers lends the workers their Parsers; RunAll shares one among its inputs. Nil: the
	// run makes its own.
	parsers *parsers
}

// Result is what one input yielded.
type Result struct {
	Name  string
	Lines stages.Lines
	Agg   *stages.Agg
	Steps *stages.Steps
	Ranks *stages.Ranks
	Info  *stages.Info
	Parse parser.Stats
}

// done is a chunk that a worker has analysed.
type done struct {
	seq   int
	data  []byte
	buf   *[]byte
	chunk *stages.Chunk
}

// Run reads one input through the stages. Selected lines and calls go to out in input
// order. On error, the Result holds what was read before it.
func Run(ctx context.Context, in Input, opt Options, out stages.Out) (*Result, error) {
	jobs, size := opt.jobs(), opt.chunkSize()
	name := in.DisplayName()
	src, err := open(in)
	if err != nil {
		return &Result{Name: name, Agg: stages.NewAgg(), Steps: stages.NewSteps(), Ranks: stages.NewRanks(&opt.Config)}, err
	}
	defer src.Close()

	g, ctx := errgroup.WithContext(ctx)
	f := newFeed(src, jobs, size, opt)
	defer f.close()
	chunks := make(chan chunk, jobs)
	results := make(chan done, jobs)
	stats := make([]parser.Stats, jobs)

	// A read error (a truncated archive) must not cancel the run: what was read before it is
	// merged and reported, and the error comes back after that. A mapped file that shrinks
	// does cancel it: the workers fault on the same pages.
	var readErr error
	g.Go(func() error {
		readErr = f.read(ctx, src, name, size, chunks)
		if errors.Is(readErr, context.Canceled) || f.mapping != nil {
			return readErr
		}
		return nil
	})
	ps := opt.parsers
	if ps == nil {
		ps = &parsers{}
	}
	workers, wctx := errgroup.WithContext(ctx)
	for w := 0; w < jobs; w++ {
		workers.Go(func() error { return work(wctx, name, &opt.Config, ps, chunks, results, &stats[w]) })
	}
	g.Go(func() error {
		defer close(results)
		return workers.Wait()
	})
	m := stages.NewMerger(&opt.Config, name)
	g.Go(func() error { return merge(ctx, m, results, f.release, out) })
	err = g.Wait()
	if err == nil {
		err = readErr
	}
	res := &Result{Name: name, Lines: m.Lines, Agg: m.Agg, Steps: m.Steps, Ranks: m.Ranks, Info: m.Info}
	for _, s := range stats {
		res.Parse.Merge(s)
	}
	return res, err
}

func (o Options) jobs() int {
	if o.Jobs > 0 {
		return o.Jobs
	}
	return runtime.GOMAXPROCS(0)
}

func (o Options) chunkSize() int {
	if o.ChunkSize > 0 {
		return o.ChunkSize
	}
	return DefaultChunkSize
}

// work parses and analyses chunks until there are no more.
func work(ctx context.Context, name string, cfg *stages.Config, ps *parsers, in <-chan chunk, out chan<- done, st *parser.Stats) (err error) {
	p, err := ps.get()
	if err != nil {
		return err
	}
	var markers *parser.Parser
	if cfg.ReadsSelectedOnly() {
		if markers, err = ps.get(); err != nil {
			return err
		}
	}
	// A parser goes back only after a clean run: one stopped by a fault on a mapped file
	// may hold half of what it was keeping from a line.
	defer func() {
		if err == nil {
			ps.put(p)
			if markers != nil {
				ps.put(markers)
			}
		}
	}()
	defer func() {
		*st = p.Stats
		if markers != nil {
			st.Merge(markers.Stats) // the step markers it read are not read again
		}
	}()
	defer faultsPanic()()
	defer catchFault(name, &err)
	for ch := range in {
		c := analyse(p, markers, cfg, ch.data)
		select {
		case out <- done{seq: ch.seq, data: ch.data, buf: ch.buf, chunk: c}:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// analyse runs the stages over one chunk's lines. markers is a second parser, needed where
// cfg.ReadsSelectedOnly (nil otherwise).
func analyse(p, markers *parser.Parser, cfg *stages.Config, data []byte) *stages.Chunk {
	var l parser.Line
	parse := func(c *stages.Chunk, data []byte, base int) {
		eachLine(data, func(line []byte, off, end int) {
			p.Parse(line, &l)
			c.Add(line, int64(base+off), int64(base+end), &l)
		})
	}
	c := stages.NewChunk(cfg)
	switch {
	case cfg.Needs.MarkersOnly():
		markersOnly(c, data, parse)
	case cfg.ReadsSelectedOnly():
		selectedOnly(c, cfg, data, markers, parse)
	default:
		parse(c, data, 0)
	}
	c.Finish()
	return c
}

// markersOnly passes over the lines that cannot be step markers unread and parses the rest.
func markersOnly(c *stages.Chunk, data []byte, parse func(*stages.Chunk, []byte, int)) {
	find := parser.NewProgressFinder(data)
	for off := 0; off < len(data); {
		next := find.Next(off)
		if next < 0 {
			next = len(data)
		}
		if next > off {
			c.AddUnread(lineCount(data[off:next]), int64(off), int64(next))
			off = next
			continue
		}
		end := lineEnd(data, off)
		parse(c, data[off:end], off)
		off = end
	}
}

// lineEnd returns where the line that starts at off ends: after its newline, or at the end of
// data.
func lineEnd(data []byte, off int) int {
	if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(data)
}

// lineCount counts the lines of data, a last line without a newline included.
func lineCount(data []byte) int64 {
	n := int64(bytes.Count(data, []byte{'\n'}))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// eachLine calls f for every line of data, without its newline, with the offsets of its start
// and of the byte after its newline. A last line without a newline counts as a line.
func eachLine(data []byte, f func(line []byte, off, end int)) {
	for off := 0; off < len(data); {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			f(data[off:], off, len(data))
			return
		}
		f(data[off:off+i], off, off+i+1)
		off += i + 1
	}
}

// merge feeds the analysed chunks to the Merger in input order, and hands each chunk's
// memory back once merged.
func merge(ctx context.Context, m *stages.Merger, in <-chan done, release func(done), out stages.Out) (err error) {
	defer faultsPanic()()
	defer catchFault(m.File, &err)
	waiting := make(map[int]done)
	next := 0
	for d := range in {
		waiting[d.seq] = d
		for {
			d, ok := waiting[next]
			if !ok {
				break
			}
			delete(waiting, next)
			next++
			if err := m.Add(d.chunk, d.data, out); err != nil {
				return outputFault(m.File, err)
			}
			release(d)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(waiting) > 0 {
		return fmt.Errorf("internal error: chunk %d never arrived (%d chunks after it did)", next, len(waiting))
	}
	return outputFault(m.File, m.Finish(out))
}
