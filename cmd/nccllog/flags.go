package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/nccllog/nccllog/stages"
)

// options are the flags every subcommand shares.
type options struct {
	steps    string
	boundary string
	format   string
	jobs     int
	strict   bool
	quiet    bool
	wide     bool
	help     bool
	exportOpts
	sideOpts

	cfg stages.Config
	// more are stages a flag adds to the command's (report --html adds ranks).
	more   []string
	inputs []string
}

func (c *command) flagSet(o *options) *pflag.FlagSet {
	fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
	fs.SortFlags = false
	fs.StringVar(&o.steps, "steps", "", "only the training steps A-B (inclusive), or N; default: every line")
	fs.StringVar(&o.boundary, "boundary", "end", "end: a step's lines end with its progress line (NeMo, Megatron and torchtitan print it when the step ends); start: they begin with it (what the AWK chain did)")
	if len(c.formats) > 0 {
		fs.StringVarP(&o.format, "format", "f", c.formats[0], "output format: "+strings.Join(c.formats, ", "))
	}
	if c.print != nil && slices.Contains(c.formats, "table") {
		fs.BoolVar(&o.wide, "wide", false, "print table rows whole: on a terminal, a row wider than it ($COLUMNS, else its size) has its last column, free text such as evidence or a WARN, cut with …; pipes and files always get whole rows")
	}
	c.exportFlags(fs, o)
	if c.sides {
		fs.StringArrayVar(&o.sideA, "a", nil, "an input of side A (repeat for several); with --b, in place of A B")
		fs.StringArrayVar(&o.sideB, "b", nil, "an input of side B (repeat for several)")
		fs.BoolVar(&o.exitCode, "exit-code", false, "exit 1 when the runs differ (as git diff --exit-code); default: 0 either way")
	}
	fs.IntVarP(&o.jobs, "jobs", "j", 0, "parsing workers, and files read at once (default: one per core; at most 4 per core)")
	fs.BoolVar(&o.strict, "strict", false, "fail (exit 1) on any malformed NCCL line instead of counting it")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "no progress bar on stderr (shown while stderr is a terminal and the inputs hold 256 MiB or more)")
	fs.BoolVarP(&o.help, "help", "h", false, "show this help")
	return fs
}

// parseFlags reads a subcommand's flags and arguments.
func (c *command) parseFlags(args []string) (*options, *pflag.FlagSet, error) {
	o := &options{}
	fs := c.flagSet(o)
	fs.SetOutput(discard{})
	if err := fs.Parse(args); err != nil {
		return nil, fs, err
	}
	if o.help {
		return o, fs, nil
	}
	if fs.Changed("jobs") && o.jobs < 1 {
		return o, fs, fmt.Errorf("--jobs must be 1 or more, not %d", o.jobs)
	}
	o.inputs = fs.Args()
	if c.sides {
		if err := o.validateSides(); err != nil {
			return o, fs, err
		}
	}
	if len(o.inputs) == 0 {
		o.inputs = []string{"-"}
	}
	return o, fs, o.validate(c)
}

func (o *options) validate(c *command) error {
	o.cfg.Strict, o.cfg.StopAtMalformed = o.strict, o.strict
	o.cfg.Portable = c.partial
	if o.steps != "" {
		r, err := stages.ParseStepRange(o.steps)
		if err != nil {
			return fmt.Errorf("--steps wants A-B with 0 <= A <= B, or N, not %q", o.steps)
		}
		o.cfg.Steps = &r
	}
	b, err := stages.ParseBoundary(o.boundary)
	if err != nil {
		return fmt.Errorf("--boundary must be end or start, not %q", o.boundary)
	}
	o.cfg.Boundary = b
	if len(c.formats) > 0 && !slices.Contains(c.formats, o.format) {
		return fmt.Errorf("--format must be one of %s, not %q", strings.Join(c.formats, ", "), o.format)
	}
	if o.format == "awk" && o.steps == "" && c.name == "steps" {
		return fmt.Errorf("--format awk needs --steps A-B (the AWK chain prints the range)")
	}
	return o.validateExport(c)
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
