package main

import (
	"context"
	"os"
	"slices"

	"github.com/nccllog/nccllog/pipeline"
	"github.com/nccllog/nccllog/stages"
)

// pass is one read of a command's inputs: its stages, the options' and those named by the
// command's followUp for a second read. Each read has its own progress bar, removed before
// the next starts or anything is printed; the command prints once, after the last.
type pass struct {
	ctx    context.Context
	c      *command
	o      *options
	e      env
	inputs []pipeline.Input
	out    streamer
}

// run reads the inputs with the command's stages and the options', and more. err is an
// internal error (the plan could not be made); runErr is the run's.
func (p pass) run(more ...string) (v *view, runErr, err error) {
	names := append(append(slices.Clone(p.c.stages), p.o.more...), more...)
	plan, err := stages.NewPlan(p.o.cfg, p.c.registry(), names...)
	if err != nil {
		return nil, nil, err
	}
	if p.e.onPlan != nil {
		p.e.onPlan(plan) // once per read
	}
	prog := startProgress(p.e, p.c, p.o, p.inputs)
	res, runErr := pipeline.RunAll(p.ctx, p.inputs, pipeline.Options{Jobs: p.o.jobs, Plan: plan, Progress: prog.counter(), Parsers: p.e.parsers}, p.out)
	prog.stop() // before anything more is printed, or the next read's bar
	v = newView(p.o, plan, res)
	v.cmd = p.c
	return v, runErr, nil
}

// again reads the inputs a second time where the command's followUp asks for more stages
// given the first read's view v, and returns the second read's view (which holds every
// stage of the first). Only where every input can be read again: standard input, a pipe or
// a device was read once, and v then records what was not run (view.once).
func (p pass) again(v *view) (*view, error, error) {
	if p.c.followUp == nil {
		return v, nil, nil
	}
	more := p.c.followUp(v)
	switch {
	case len(more) == 0:
		return v, nil, nil
	case !rereadable(p.inputs):
		v.once = more
		return v, nil, nil
	}
	return p.run(more...)
}

// rereadable reports whether every input can be read again from its start: a regular file
// (compressed or not, named, or found in a directory or by a glob), not standard input, a
// FIFO or a device.
func rereadable(inputs []pipeline.Input) bool {
	for _, in := range inputs {
		if in.Name == "-" {
			return false
		}
		st, err := os.Stat(in.Name)
		if err != nil || !st.Mode().IsRegular() {
			return false
		}
	}
	return true
}
