package main

import (
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/vbauerster/cupwriter"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/nccllog/nccllog/pipeline"
)

// A run over a large input shows a progress bar on stderr (bytes read, rate, time left)
// while stderr is a terminal: a 10 GB log takes a while even at 1-2 GB/s. Into a file or a
// pipe (a Slurm .out file, a CI log) it draws nothing, and --quiet turns it off. The pipeline
// counts the bytes as it merges chunks (compressed bytes for compressed files, so the time
// left goes with their size on disk); the bar is redrawn a few times a second from that
// count and removed before the result is printed.

// terminals tells whether the process's stderr and stdout are terminals; tests pretend.
type terminals interface {
	stderrIsTerminal() bool
	stdoutIsTerminal() bool
}

// progressSetup is how a run decides on its progress bar and draws it.
type progressSetup struct {
	term terminals
	// from is the input size from which the bar is shown; an input of unknown size
	// (a pipe) shows it once this much of it has been read.
	from    int64
	refresh time.Duration // how often the bar is redrawn
}

// defaultProgress is the setup of a real run: stderr and stdout as the system sees them,
// and a bar for inputs of 256 MiB or more (smaller ones take a second or less).
func defaultProgress() *progressSetup {
	return &progressSetup{term: ttys{}, from: 256 << 20, refresh: 150 * time.Millisecond}
}

// ttys asks the system, through the console writer the progress library draws with.
type ttys struct{}

func (ttys) stderrIsTerminal() bool { return cupwriter.New(os.Stderr, false).IsTerminal() }
func (ttys) stdoutIsTerminal() bool { return cupwriter.New(os.Stdout, false).IsTerminal() }

// progressBar is a run's progress bar: the pipeline adds to read, and a goroutine draws it.
type progressBar struct {
	read  atomic.Int64
	total int64 // 0: unknown (standard input or a FIFO among the inputs)
	setup *progressSetup
	w     io.Writer
	start time.Time
	quit  chan struct{}
	done  chan struct{}
}

// startProgress starts the progress bar of a run, or returns nil where there is none: with
// --quiet, when stderr is no terminal, for inputs known to be small, and when a command
// writes its lines or calls to stdout as it reads and stdout is the same terminal.
func startProgress(e env, c *command, o *options, inputs []pipeline.Input) *progressBar {
	s := e.progress
	if s == nil || o.quiet || !s.term.stderrIsTerminal() || (c.streams != nil && s.term.stdoutIsTerminal()) {
		return nil
	}
	total := inputsSize(inputs)
	if total > 0 && total < s.from {
		return nil
	}
	p := &progressBar{total: total, setup: s, w: e.stderr, start: time.Now(),
		quit: make(chan struct{}), done: make(chan struct{})}
	go p.draw()
	return p
}

// inputsSize is the sum of the inputs' sizes on disk, or 0 if one of them has none (a pipe).
func inputsSize(inputs []pipeline.Input) int64 {
	var total int64
	for _, in := range inputs {
		var st os.FileInfo
		var err error
		if f, ok := in.Stdin.(*os.File); ok && in.Name == "-" {
			st, err = f.Stat()
		} else if in.Name != "-" {
			st, err = os.Stat(in.Name)
		}
		if st == nil || err != nil || !st.Mode().IsRegular() {
			return 0
		}
		total += st.Size()
	}
	return total
}

// counter is the pipeline's Options.Progress: nil when there is no bar, so a run without
// one counts nothing.
func (p *progressBar) counter() func(int64) {
	if p == nil {
		return nil
	}
	return func(n int64) { p.read.Add(n) }
}

// stop removes the bar from the terminal and returns once it is gone.
func (p *progressBar) stop() {
	if p == nil {
		return
	}
	close(p.quit)
	<-p.done
}

// draw shows the bar once the input is known to be large, and keeps its count current
// until stop.
func (p *progressBar) draw() {
	defer close(p.done)
	tick := time.NewTicker(p.setup.refresh)
	defer tick.Stop()
	var shown *mpb.Progress
	var bar *mpb.Bar
	for {
		select {
		case <-p.quit:
			if shown != nil {
				bar.Abort(true)
				shown.Wait()
			}
			return
		case <-tick.C:
		}
		n := p.read.Load()
		if shown == nil && (p.total > 0 || n >= p.setup.from) {
			shown, bar = p.newBar()
		}
		if bar != nil {
			bar.SetCurrent(n)
		}
	}
}

// newBar makes the bar: bytes read of the total, a bar, the average rate and the time
// left; for an input of unknown size only the bytes read and the rate.
func (p *progressBar) newBar() (*mpb.Progress, *mpb.Bar) {
	shown := mpb.New(mpb.WithOutput(sizedOutput(p.w)), mpb.ForceTTY(), mpb.WithAutoRefresh(),
		mpb.WithRefreshRate(p.setup.refresh), mpb.WithWidth(80))
	rate := decor.NewAverageSpeed(decor.SizeB1024(0), "% .1f", p.start, decor.WCSyncSpace)
	if p.total == 0 {
		read := decor.Current(decor.SizeB1024(0), "% .1f", decor.WCSyncSpace)
		return shown, shown.New(0, mpb.NopStyle(), mpb.BarRemoveOnComplete(),
			mpb.PrependDecorators(decor.Name("read"), read), mpb.AppendDecorators(rate))
	}
	read := decor.Counters(decor.SizeB1024(0), "% .1f / % .1f", decor.WCSyncSpace)
	left := decor.NewAverageETA(decor.ET_STYLE_GO, p.start, nil, decor.WCSyncSpace)
	return shown, shown.New(p.total, mpb.BarStyle(), mpb.BarRemoveOnComplete(),
		mpb.PrependDecorators(decor.Name("read"), read),
		mpb.AppendDecorators(rate, decor.Name(" left"), left))
}

// sizedOutput is w, or where w is a terminal that reports no size (a pseudo-terminal nobody
// sized, as script(1) makes without a terminal of its own) w hidden from the library, which
// would otherwise draw the bar in zero columns, that is not at all; it then draws 80.
func sizedOutput(w io.Writer) io.Writer {
	cw := cupwriter.New(w, false)
	if !cw.IsTerminal() {
		return w
	}
	if cols, _, err := cw.GetTermSize(); err == nil && cols > 0 {
		return w
	}
	return struct{ io.Writer }{w}
}
