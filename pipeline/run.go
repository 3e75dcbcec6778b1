package pipeline

import (
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
	// Plan is the stages to run and the step selection.
	Plan *stages.Plan
	// NoMap reads a plain file with read(2) instead of mapping it into memory.
	NoMap bool
	// Progress, if set, is told how many more bytes of an input were read each time a chunk
	// is merged, and at the end of an input its bytes not yet counted: over a run it adds up
	// to the inputs' sizes on disk (compressed, where they are). Inputs read at once call it
	// from their own goroutines, so it must be safe for concurrent use; it should be quick.
	Progress func(n int64)
	// dropEvery overrides dropEvery, for tests that hand pages back every chunk.
	dropEvery int
	// waitCap overrides stages.WaitCap, for tests of stretches longer than it.
	waitCap int
	// merged, if set, is called with the input's Merger after each chunk is merged, for tests
	// of what it holds.
	merged func(*stages.Merger)
	// Parsers lends the workers their Parsers, which learn the shapes of the lines they read
	// (see Parsers). RunAll shares one among its inputs; a caller that runs many times over
	// like logs (a test suite, a service) passes its own to keep them between runs. Nil: each
	// Run or RunAll makes its own.
	Parsers *Parsers
}

// done is a chunk that a worker has analysed.
type done struct {
	seq   int
	data  []byte
	buf   *[]byte
	chunk *stages.Chunk
	upTo  int64 // chunk.upTo
}

// Run reads one input through the plan's stages. What they stream goes to out in input
// order. On error, the Result holds what was read before it.
func Run(ctx context.Context, in Input, opt Options, out stages.Out) (*stages.Result, error) {
	jobs, size := opt.jobs(), opt.chunkSize()
	name := in.DisplayName()
	m := stages.NewMerger(opt.Plan, name, out)
	src, err := open(in)
	if err != nil {
		return stages.InputResult(name, m.Total, parser.Stats{}), err
	}
	defer src.Close()
	prog := &progress{report: opt.Progress}
	ps := opt.Parsers
	if ps == nil {
		ps = &Parsers{}
	}
	if res, ok, err := readPartial(src, name, opt.Plan, ps); ok {
		if err != nil {
			return stages.InputResult(name, m.Total, parser.Stats{}), err
		}
		prog.upTo(src.size)
		return res, nil
	}
	var dg string // a partial result made of this run tells its logs apart by it
	if opt.Plan.Portable {
		dg = digest(src)
	}

	g, ctx := errgroup.WithContext(ctx)
	f := newFeed(src, jobs, size, opt)
	defer f.close()
	defer bound(m, in, src, f.mapping != nil, opt, ps)()
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
	workers, wctx := errgroup.WithContext(ctx)
	for w := 0; w < jobs; w++ {
		workers.Go(func() error { return work(wctx, name, opt.Plan, ps, chunks, results, &stats[w]) })
	}
	g.Go(func() error {
		defer close(results)
		return workers.Wait()
	})
	g.Go(func() error { return merge(ctx, m, name, results, f.release, prog, opt.merged) })
	err = g.Wait()
	if err == nil {
		err = readErr
	}
	if err == nil {
		prog.upTo(src.size) // a compressed file's bytes after its last stream
	}
	var parse parser.Stats
	for _, s := range stats {
		parse.Merge(s)
	}
	res := stages.InputResult(name, m.Total, parse)
	res.Inputs[0].Digest = dg
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
func work(ctx context.Context, name string, plan *stages.Plan, ps *Parsers, in <-chan chunk, out chan<- done, st *parser.Stats) (err error) {
	p, err := ps.get()
	if err != nil {
		return err
	}
	var markers *parser.Parser
	if plan.ReadsSelectedOnly() {
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
		c := stages.Read(plan, ch.data, p, markers)
		select {
		case out <- done{seq: ch.seq, data: ch.data, buf: ch.buf, chunk: c, upTo: ch.upTo}:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// merge feeds the analysed chunks to the Merger in input order, hands each chunk's memory
// back once merged, and counts its bytes in prog.
func merge(ctx context.Context, m *stages.Merger, name string, in <-chan done, release func(done), prog *progress,
	merged func(*stages.Merger)) (err error) {
	defer faultsPanic()()
	defer catchFault(name, &err)
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
			if err := m.Add(d.chunk, d.data); err != nil {
				return outputFault(name, err)
			}
			d.chunk.Release()
			release(d)
			prog.upTo(d.upTo)
			if merged != nil {
				merged(m)
			}
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
	return outputFault(name, m.Finish())
}
