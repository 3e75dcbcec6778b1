package stages

import (
	"fmt"
	"slices"
	"strings"
)

// Registry names the stages a run can ask for. Commands ask for stages by name; adding an
// analysis family is one package with its Stage and one line in stages/all.
type Registry struct {
	stages []Stage
}

// Register adds s; a stage of the same name is replaced.
func (r *Registry) Register(s Stage) {
	if i := r.index(s.Name()); i >= 0 {
		r.stages[i] = s
		return
	}
	r.stages = append(r.stages, s)
}

// Lookup returns the stage named name.
func (r *Registry) Lookup(name string) (Stage, bool) {
	if i := r.index(name); i >= 0 {
		return r.stages[i], true
	}
	return nil, false
}

// Names lists the registered stages in registration order.
func (r *Registry) Names() []string {
	out := make([]string, len(r.stages))
	for i, s := range r.stages {
		out[i] = s.Name()
	}
	return out
}

func (r *Registry) index(name string) int {
	return slices.IndexFunc(r.stages, func(s Stage) bool { return s.Name() == name })
}

// Plan is the stages of one run, in registry order, with the run's Config. The lines stage,
// which accounts for every line, is always part of it.
type Plan struct {
	Config
	Stages []Stage
	reads  Reads
	bytes  bool        // a stage reads the selected lines' bytes
	chunks spareChunks // released Chunks: their buffers serve the next chunks of the run
	sets   spareSets   // finished inputs' waiting Sets: their buffers serve the next inputs
}

// NewPlan looks up the named stages in r.
func NewPlan(cfg Config, r *Registry, names ...string) (*Plan, error) {
	p := &Plan{Config: cfg}
	want := append([]string{LinesStage{}.Name()}, names...)
	for _, s := range r.stages {
		if slices.Contains(want, s.Name()) {
			p.Stages = append(p.Stages, s)
			p.reads = max(p.reads, s.Reads())
			p.bytes = p.bytes || s.Reads() == ReadsBytes
		}
	}
	for _, n := range want {
		if _, ok := r.Lookup(n); !ok {
			return nil, fmt.Errorf("no stage named %q (there are %s)", n, strings.Join(r.Names(), ", "))
		}
	}
	if cfg.Strict {
		p.reads = ReadsAll
	}
	return p, nil
}

// MustPlan is NewPlan for a static set of names: it panics where one is not registered.
func MustPlan(cfg Config, r *Registry, names ...string) *Plan {
	p, err := NewPlan(cfg, r, names...)
	if err != nil {
		panic(err)
	}
	return p
}

// Reads is how much of the input the run needs read.
func (p *Plan) Reads() Reads { return p.reads }

// ReadsSelectedOnly reports whether the lines of steps outside the selection need not be
// read: the run selects steps, and its stages need the parsed lines of those steps only (not
// every line, nor, beside the parsed lines, the bytes of lines left unread).
func (p *Plan) ReadsSelectedOnly() bool {
	return p.Steps != nil && p.reads == ReadsSelected && !p.bytes
}

// Index returns where the stage named name is in the plan, or -1.
func (p *Plan) Index(name string) int {
	return slices.IndexFunc(p.Stages, func(s Stage) bool { return s.Name() == name })
}

// Streams reports whether a stage of the plan writes to the run's Out as it reads (split,
// calls): then inputs must be read one after another.
func (p *Plan) Streams() bool {
	return slices.ContainsFunc(p.Stages, func(s Stage) bool {
		w, ok := s.(Writer)
		return ok && w.Writes()
	})
}
