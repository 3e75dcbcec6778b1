package pipeline

import (
	"context"
	"os"
	"runtime"
	"sync"

	"github.com/nccllog/nccllog/stages"
)

// RunAll runs every input and merges their Results in input order. Where the plan streams
// lines or calls to out, the inputs run one after another with every worker; otherwise up to
// Jobs inputs run at once, sharing the workers. Each input's Result is merged as soon as those
// before it are, so that memory holds the merge and the inputs in flight, not every input's
// Result. On error, the Result holds what was read, and the error is the first in input order.
func RunAll(ctx context.Context, inputs []Input, opt Options, out stages.Out) (*stages.Result, error) {
	defer opt.Plan.ReleaseChunks() // the Result refers to the plan
	all := stages.NewResult(opt.Plan)
	var seen sources
	err := runEach(ctx, inputs, opt, out, func(i int, r *stages.Result) {
		seen.add(i, inputs[i].Name, r.Inputs)
		all.Merge(r)
	})
	if err == nil {
		err = seen.check()
	}
	return all, err
}

// runEach runs every input and hands each Result to take, in input order.
func runEach(ctx context.Context, inputs []Input, opt Options, out stages.Out, take func(int, *stages.Result)) error {
	if opt.Parsers == nil {
		opt.Parsers = &Parsers{}
	}
	opt.Jobs = min(opt.jobs(), MaxJobs())
	errs := make([]error, len(inputs))
	if opt.Plan.Streams() || len(inputs) == 1 {
		for i, in := range inputs {
			var r *stages.Result
			r, errs[i] = Run(ctx, in, opt, out)
			take(i, r)
			if ctx.Err() != nil {
				return ctx.Err()
			}
		}
		return firstError(errs)
	}
	at := min(opt.jobs(), len(inputs))
	each := opt
	each.Jobs = max(1, opt.jobs()/at)
	// A slot is taken when an input starts and given back when its Result is merged, not when
	// it ends: an input that ends before those ahead of it waits with its whole Result (a
	// rank's call sequence, for hang), so the slots bound the Results held at once.
	slots := make(chan struct{}, unmerged*at)
	var mu sync.Mutex
	order := inOrder{take: func(i int, r *stages.Result) {
		take(i, r)
		<-slots
	}, waiting: map[int]*stages.Result{}}
	running := make(chan struct{}, at)
	var wg sync.WaitGroup
	for i, in := range inputs {
		wg.Add(1)
		slots <- struct{}{}
		// A large input runs alone with every worker: its chunks keep them all busy, and
		// another input beside it would only add its own state (a rank's call sequence).
		run, width := each, 1
		if large(in) {
			run, width = opt, at
		}
		for range width {
			running <- struct{}{}
		}
		go func() {
			defer wg.Done()
			r, err := Run(ctx, in, run, discard{})
			for range width {
				<-running
			}
			mu.Lock()
			errs[i] = err
			order.add(i, r)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return firstError(errs)
}

// inOrder hands Results to take in input order as they arrive in any order.
type inOrder struct {
	take    func(int, *stages.Result)
	next    int
	waiting map[int]*stages.Result
}

func (o *inOrder) add(i int, r *stages.Result) {
	o.waiting[i] = r
	for {
		r, ok := o.waiting[o.next]
		if !ok {
			return
		}
		delete(o.waiting, o.next)
		o.take(o.next, r)
		o.next++
	}
}

// largeInput is the size from which a file is read alone with every worker (see runEach).
const largeInput = 64 << 20

func large(in Input) bool {
	if in.Name == "-" {
		return false
	}
	fi, err := os.Stat(in.Name)
	return err == nil && fi.Mode().IsRegular() && fi.Size() >= largeInput
}

// unmerged is how many inputs, per input read at once, may have started and not yet been
// merged: the ones read at once, and as many ended and waiting for those ahead of them.
const unmerged = 2

// MaxJobs is the most workers a run uses, and the most inputs it reads at once: 4 per core.
// Each worker holds a Parser and chunk buffers, and each input read at once an open file,
// so a larger --jobs only costs memory and file descriptors.
func MaxJobs() int { return 4 * runtime.NumCPU() }

func firstError(errs []error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

type discard struct{}

func (discard) Lines([]byte) error      { return nil }
func (discard) Call(*stages.Call) error { return nil }
