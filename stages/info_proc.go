package stages

import (
	"sort"
	"strings"
)

// procInfo is what one process's set-up lines say about it.
type procInfo struct {
	key      procID
	first    Evidence // its first line
	launcher int64    // the launcher's rank label, -1 when none
	// rank and size: its rank in the largest communicator it initialised (-1: none seen).
	rank, size int64
	gpus       map[GPU]struct{}
	comms      map[string]struct{} // the communicators it initialised
	facts      map[string]*factVal
	envSeen    bool // it printed environment lines, so a variable it did not print is not set
}

// GPU is one device a process drives, from its Init lines.
type GPU struct {
	CudaDev int64  `json:"cuda_dev"`
	NvmlDev int64  `json:"nvml_dev"`
	BusID   string `json:"bus_id"` // hexadecimal as NCCL prints it; "" where not printed
}

// factVal is the values a process printed for one fact, and where the first was read.
type factVal struct {
	values map[string]struct{}
	ev     Evidence
}

func newProcInfo(k procID, ev Evidence) *procInfo {
	return &procInfo{key: k, first: ev, launcher: -1, rank: -1, size: -1,
		gpus: map[GPU]struct{}{}, comms: map[string]struct{}{}, facts: map[string]*factVal{}}
}

// set records value for the fact name.
func (p *procInfo) set(name, value string, ev Evidence) {
	f := p.facts[name]
	if f == nil {
		f = &factVal{values: map[string]struct{}{}, ev: ev}
		p.facts[name] = f
	}
	f.values[value] = struct{}{}
}

// value is the fact's values, sorted and joined.
func (f *factVal) value() string {
	vs := make([]string, 0, len(f.values))
	for v := range f.values {
		vs = append(vs, v)
	}
	sort.Strings(vs)
	return strings.Join(vs, ", ")
}

// merge takes o's facts about the same process; o's lines follow p's.
func (p *procInfo) merge(o *procInfo) {
	if p.launcher < 0 {
		p.launcher = o.launcher
	}
	if o.size > p.size {
		p.rank, p.size = o.rank, o.size
	}
	for g := range o.gpus {
		p.gpus[g] = struct{}{}
	}
	for c := range o.comms {
		p.comms[c] = struct{}{}
	}
	for name, f := range o.facts {
		for v := range f.values {
			p.set(name, v, f.ev)
		}
	}
	p.envSeen = p.envSeen || o.envSeen
}

// label is the rank that names the process in the output: its communicator rank, else the
// launcher's label, else -1.
func (p *procInfo) label() int64 {
	if p.rank >= 0 {
		return p.rank
	}
	return p.launcher
}
