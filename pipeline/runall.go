package pipeline

import (
	"context"
	"sync"

	"github.com/nccllog/nccllog/stages"
)

// RunAll runs every input. Where out must see lines or calls in input order (ordered), the
// inputs run one after another with every worker; otherwise up to Jobs inputs run at once,
// sharing the workers. Results come back in input order, each with its error; the first error
// in input order is returned too.
func RunAll(ctx context.Context, inputs []Input, opt Options, out stages.Out, ordered bool) ([]*Result, error) {
	opt.parsers = &parsers{}
	results := make([]*Result, len(inputs))
	errs := make([]error, len(inputs))
	if ordered || len(inputs) == 1 {
		for i, in := range inputs {
			if n, ok := out.(InputNamer); ok {
				n.Input(in.DisplayName())
			}
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
