package pipeline

import (
	"context"
	"runtime"
	"sync"

	"github.com/nccllog/nccllog/stages"
)

// RunAll runs every input and merges their Results in input order. Where the plan streams
// lines or calls to out, the inputs run one after another with every worker; otherwise up to
// Jobs inputs run at once, sharing the workers. On error, the Result holds what was read, and
// the error is the first in input order.
func RunAll(ctx context.Context, inputs []Input, opt Options, out stages.Out) (*stages.Result, error) {
	results, err := runEach(ctx, inputs, opt, out)
	all := stages.NewResult(opt.Plan)
	for _, r := range results {
		if r != nil {
			all.Merge(r)
		}
	}
	return all, err
}

func runEach(ctx context.Context, inputs []Input, opt Options, out stages.Out) ([]*stages.Result, error) {
	opt.parsers = &parsers{}
	opt.Jobs = min(opt.jobs(), MaxJobs())
	ordered := opt.Plan.Streams()
	results := make([]*stages.Result, len(inputs))
	errs := make([]error, len(inputs))
	if ordered || len(inputs) == 1 {
		for i, in := range inputs {
			results[i], errs[i] = Run(ctx, in, opt, out)
			if ctx.Err() != nil {
				return results[:i+1], ctx.Err()
			}
		}
		return results, firstError(errs)
	}
	at := min(opt.jobs(), len(inputs))
	each := opt
	each.Jobs = max(1, opt.jobs()/at)
	sem := make(chan struct{}, at)
	var wg sync.WaitGroup
	for i, in := range inputs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			results[i], errs[i] = Run(ctx, in, each, discard{})
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return results, err
	}
	return results, firstError(errs)
}

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
