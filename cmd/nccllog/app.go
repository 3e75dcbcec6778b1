package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/nccllog/nccllog/pipeline"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/agg"
	"github.com/nccllog/nccllog/stages/diagnose"
	"github.com/nccllog/nccllog/stages/info"
	"github.com/nccllog/nccllog/stages/ranks"
	"github.com/nccllog/nccllog/stages/steps"
)

// Exit statuses, as documented in the help and the README.
const (
	exitOK    = 0
	exitData  = 1 // unreadable input, corrupt archive
	exitUsage = 2
	exitFound = 3 // hang found a suspect, or check a disagreement
	exitInt   = 130
)

type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	progress       *progressSetup // nil: no progress line
	// term tells whether stdout and stderr are terminals (main: ttys); nil: neither is.
	term terminals
	// width is stdout's terminal width, which text tables are cut to (see stdoutWidth); 0:
	// stdout is no terminal, rows whole.
	width int
	// parsers lends the runs their Parsers (pipeline.Options.Parsers); nil in main, where a
	// run makes its own. Tests share one over their many runs of the same logs, as a run's
	// inputs do.
	parsers *pipeline.Parsers
	// onPlan sees each read's plan before it runs (tests: how often and with which stages
	// the inputs are read); nil in main.
	onPlan func(*stages.Plan)
	// watching is called once the run watches SIGINT and SIGTERM (tests: signal it only
	// then, not after a guessed delay); nil in main.
	watching func()
}

// view is what a command's printer reads: the run's one Result, with each stage's part
// looked up once, and the options it was run with.
type view struct {
	opts  *options
	plan  *stages.Plan
	res   *stages.Result
	lines *stages.Lines
	agg   *agg.Agg
	steps *steps.Steps
	ranks *ranks.Ranks
	info  *info.Info
	cmd   *command // the command run (nil for diff's sides)
	// once are the stages the command's followUp asked a second read for, not run because
	// an input could be read only once (standard input, a pipe); nil otherwise.
	once []string
	// diag, hang and check are diagnose's, hang's and check's reports, built once
	// (diagnosis, hangReport, checkReport): printing and the exit status read the same one.
	diag  *diagnose.Report
	hang  *ranks.HangReport
	check *ranks.CheckReport
}

func newView(o *options, plan *stages.Plan, res *stages.Result) *view {
	return &view{opts: o, plan: plan, res: res, lines: res.Lines(), agg: agg.AggOf(res.Set),
		steps: steps.StepsOf(res.Set), ranks: ranks.RanksOf(res.Set), info: info.InfoOf(res.Set)}
}

func run(args []string, e env) int {
	if len(args) == 0 {
		fmt.Fprint(e.stdout, mainHelp())
		return exitUsage
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		return runHelp(args[1:], e)
	}
	if code, ok := runMeta(args, e); ok {
		return code
	}
	c := findCommand(args[0])
	if c == nil {
		return usageError(e, fmt.Errorf("unknown command %q (see nccllog --help)", args[0]))
	}
	o, fs, err := c.parseFlags(args[1:])
	if err != nil {
		return usageError(e, fmt.Errorf("%s: %w", c.name, err))
	}
	if o.help {
		fmt.Fprint(e.stdout, commandHelp(c, fs))
		return exitOK
	}
	if err := refuseTerminal(c, o, e); err != nil {
		return usageError(e, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	signal.Ignore(syscall.SIGPIPE)
	if e.watching != nil {
		e.watching()
	}
	return execute(ctx, c, o, e)
}

func usageError(e env, err error) int {
	fmt.Fprintf(e.stderr, "nccllog: %s\n", errorLine(err))
	return exitUsage
}

// execute runs the pipeline over every input and prints the result. A command with a
// followUp may have its inputs read a second time (see secondPass).
func execute(ctx context.Context, c *command, o *options, e env) int {
	if c.sides {
		return executeDiff(ctx, o, e)
	}
	inputs, err := pipeline.Expand(o.inputs, e.stdin, func(w error) { fmt.Fprintf(e.stderr, "nccllog: %v\n", w) })
	if err != nil {
		fmt.Fprintf(e.stderr, "nccllog: %s\n", errorLine(err))
		return exitData
	}
	w := newOutput(e.stdout)
	if !o.wide {
		w.width = e.width
	}
	out := c.writer(w, o)
	p := pass{ctx: ctx, c: c, o: o, e: e, inputs: inputs, out: out}
	v, runErr, err := p.run()
	if err == nil && runErr == nil && !w.broken() {
		v, runErr, err = p.again(v)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "nccllog: internal: %v\n", err)
		return exitData
	}
	if w.broken() {
		return exitOK
	}
	if runErr == nil && o.cfg.Strict && v.lines.Malformed() > 0 {
		runErr = strictError(v.lines)
	}
	status := exitOK
	if runErr == nil {
		err := out.finish()
		if err == nil && c.print != nil {
			err = c.print(w, v)
		}
		if err != nil && runErr == nil && !w.broken() {
			runErr = outputErr(err)
		}
		if c.found != nil && c.found(v) {
			status = exitFound
		}
	}
	runErr = settle(out, v, runErr)
	return finish(e, w, runErr, v, status)
}

// outputErr is an error writing the output: one of -o's file names it already.
func outputErr(err error) error {
	if _, named := errors.AsType[*fileError](err); named {
		return err
	}
	return fmt.Errorf("writing output: %w", err)
}

// finish flushes the output and turns the outcome into an exit status and one stderr line.
func finish(e env, w *output, runErr error, v *view, status int) int {
	flushErr := w.flush()
	switch {
	case w.broken():
		return exitOK
	case errors.Is(runErr, context.Canceled):
		fmt.Fprintln(e.stderr, "nccllog: interrupted")
		return exitInt
	case runErr != nil:
		fmt.Fprintf(e.stderr, "nccllog: %s\n", errorLine(runErr))
		return exitData
	case flushErr != nil:
		fmt.Fprintf(e.stderr, "nccllog: writing output: %s\n", errorLine(flushErr))
		return exitData
	}
	warnProblems(e.stderr, v)
	warnOverflow(e.stderr, v)
	noteNoSteps(e.stderr, v)
	noteNotInferred(e.stderr, v)
	return status
}

// shownProblems is how many malformed lines are listed on stderr; the JSON report lists more.
const shownProblems = 5

// warnProblems tells on stderr about malformed lines and scanner disagreements. The file and
// the excerpt are escaped: a partial result's can hold anything.
func warnProblems(w io.Writer, r *view) {
	ps := r.lines.Problems[:min(len(r.lines.Problems), shownProblems)]
	for _, p := range ps {
		fmt.Fprintf(w, "nccllog: %s:%d: malformed: %s: %s\n", escaped(p.File), p.Line, escaped(p.Reason), escaped(p.Excerpt))
	}
	if n := r.lines.Malformed() - int64(len(ps)); n > 0 {
		fmt.Fprintf(w, "nccllog: %d more malformed lines (report --format json lists the first %d)\n", n, stages.MaxProblems)
	}
	if p := r.res.Parse; p.Disagree > 0 {
		fmt.Fprintf(w, "nccllog: internal: fast path and grammar disagreed on %d lines (grammar used), first: %q\n",
			p.Disagree, p.FirstDisagree)
	}
}

// strictError is the error of --strict: the first malformed line, and how many there were.
func strictError(l *stages.Lines) error {
	p := l.Problems[0]
	return fmt.Errorf("%s:%d: malformed line (%s): %s [%d malformed lines; --strict]",
		p.File, p.Line, p.Reason, p.Excerpt, l.Malformed())
}
