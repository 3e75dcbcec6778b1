package main

import (
	"context"
	"errors"
	"fmt"

	"golang.org/x/sync/errgroup"

	"github.com/nccllog/nccllog/internal/diff"
	"github.com/nccllog/nccllog/pipeline"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/agg"
	"github.com/nccllog/nccllog/stages/diagnose"
	"github.com/nccllog/nccllog/stages/info"
	"github.com/nccllog/nccllog/stages/ranks"
	"github.com/nccllog/nccllog/stages/steps"
)

// diffStages are the families diff compares, run once per side; ranks gives diagnose its
// hang and check findings (as for the diagnose command) and the per-rank bus volume.
var diffStages = []string{"info", "agg", "steps", "ranks", "diagnose"}

// sideOpts are diff's flags: the inputs of each side, and whether a difference sets the exit
// status.
type sideOpts struct {
	sideA, sideB []string
	exitCode     bool
}

var (
	errSides      = errors.New("wants two inputs, A B (one each), or --a A... --b B... (one or more each)")
	errSidesStdin = errors.New("standard input (-) can be read by one side only")
)

// validateSides turns the positional inputs or --a/--b into the two sides.
func (o *options) validateSides() error {
	if len(o.sideA) > 0 || len(o.sideB) > 0 {
		if len(o.inputs) > 0 || len(o.sideA) == 0 || len(o.sideB) == 0 {
			return errSides
		}
	} else {
		if len(o.inputs) != 2 {
			return errSides
		}
		o.sideA, o.sideB = o.inputs[:1], o.inputs[1:]
	}
	if hasStdin(o.sideA) && hasStdin(o.sideB) {
		return errSidesStdin
	}
	o.inputs = append(append([]string{}, o.sideA...), o.sideB...)
	return nil
}

func hasStdin(in []string) bool {
	for _, s := range in {
		if s == "-" {
			return true
		}
	}
	return false
}

// executeDiff reads both sides at once (analyzeSide), and prints their diff,
// or writes it as a page under --html.
func executeDiff(ctx context.Context, o *options, e env) int {
	var res [2]*stages.Result
	g, gctx := errgroup.WithContext(ctx)
	for i, in := range [2][]string{o.sideA, o.sideB} {
		g.Go(func() (err error) {
			res[i], err = analyzeSide(gctx, in, o, e)
			if err != nil {
				err = fmt.Errorf("side %c: %w", 'A'+i, err)
			}
			return err
		})
	}
	err := g.Wait()
	w := newOutput(e.stdout)
	if err == nil {
		d := diff.Compare(sideOf(res[0]), sideOf(res[1]))
		if o.html != "" {
			err = writeDiffHTML(o, d, res)
		} else if err = printDiff(w, o, d); err != nil {
			err = outputErr(err)
		}
		if err == nil && o.exitCode && d.Differ() {
			return finishDiff(e, w, o, res, exitData)
		}
	}
	if err != nil {
		return finish(e, w, err, nil, exitOK)
	}
	return finishDiff(e, w, o, res, exitOK)
}

// finishDiff flushes the output and tells on stderr about each side's malformed lines and
// communicator cap, as other commands do about theirs.
func finishDiff(e env, w *output, o *options, res [2]*stages.Result, status int) int {
	code := finish(e, w, nil, newView(o, nil, res[0]), status)
	if code == status {
		b := newView(o, nil, res[1])
		warnProblems(e.stderr, b)
		warnOverflow(e.stderr, b)
	}
	return code
}

// analyzeSide reads one side's inputs with the Parsers e lends.
func analyzeSide(ctx context.Context, in []string, o *options, e env) (*stages.Result, error) {
	inputs, err := pipeline.Expand(in, e.stdin, func(w error) { fmt.Fprintf(e.stderr, "nccllog: %v\n", w) })
	if err != nil {
		return nil, err
	}
	res, err := pipeline.AnalyzeWith(ctx, inputs, o.cfg, e.parsers, diffStages...)
	if err == nil && o.cfg.Strict && res.Lines().Malformed() > 0 {
		err = strictError(res.Lines())
	}
	return res, err
}

// sideOf builds one side's Reports from its result.
func sideOf(r *stages.Result) *diff.Side {
	a := agg.AggOf(r.Set)
	return &diff.Side{Info: info.InfoOf(r.Set).Report(), Stats: a.StatsReport(), Hist: a.HistReport(),
		Groups: a.Report(), Steps: steps.StepsOf(r.Set).Report(), Diagnose: diagnose.Build(r.Set),
		Ranks: ranks.RanksOf(r.Set).RanksReport(nil)}
}
