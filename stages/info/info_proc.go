package info

import (
	"slices"
	"strings"
)

// procInfo is what one process's set-up lines say about it.
type procInfo struct {
	key      procID
	first    Evidence // its first line
	launcher int64    // the launcher's rank label, -1 when none
	// ranks and size: its ranks in the largest communicators it initialised (several when
	// it drives several GPUs), and their size (-1: none seen).
	ranks smallSet[int64]
	size  int64
	// linkRanks are the ranks its connection lines print from (the sending side of a P2P,
	// SHM or NET send line, the receiving side of a NET receive line): where no Init line
	// names its rank (2.3, cut logs), they do.
	linkRanks smallSet[int64]
	gpus      smallSet[GPU]
	comms     smallSet[string] // the communicators it initialised
	facts     facts
	envSeen   bool // it printed environment lines, so a variable it did not print is not set
	// started: it printed a line a process prints where its set-up starts, before any
	// variable (cudaDriverVersion, 2.13+; its version line, 2.22+). initDone: it printed an
	// Init COMPLETE, by which NCCL has read the variables that set up a communicator.
	started, initDone bool
}

// envWhole reports whether the log holds p's set-up whole, so that a variable it did not
// print is one it did not set: from its start (where the version prints a line there:
// starts; else where the log holds the version's bare line, from a variable it printed) to
// an Init COMPLETE. A piece of a log that starts or ends inside a process's set-up holds
// some of its variables and not the others, and one of a single node holds only its own.
func (p *procInfo) envWhole(forms envForms) bool {
	switch forms {
	case envStarts:
		return p.started && p.initDone
	case envOld:
		return p.envSeen && p.initDone
	}
	return false
}

// envForms says what shows that a process's set-up lines are in the log from their start.
type envForms uint8

const (
	envUnknown envForms = iota // nothing: no version line, none of the lines below
	envStarts                  // its cudaDriverVersion or version line (some process printed one)
	envOld                     // before 2.13 and RCCL print neither: a variable it printed, in a log whose version line (its first) is there
)

// GPU is one device a process drives, from its Init lines.
type GPU struct {
	CudaDev int64  `json:"cuda_dev"`
	NvmlDev int64  `json:"nvml_dev"`
	BusID   string `json:"bus_id"` // hexadecimal as NCCL prints it; "" where not printed
}

// factVal is the values a process printed for one fact, and where the first was read.
type factVal struct {
	values smallSet[string]
	ev     Evidence
}

func newProcInfo(k procID, ev Evidence) *procInfo {
	return &procInfo{key: k, first: ev, launcher: -1, size: -1}
}

// set records value for the fact name. Its evidence is the earliest line that set it, not
// the first set: a set-up block's lines are given to their communicator once it is known,
// which can be after later lines, and later in one Info than in chunks.
func (p *procInfo) set(name, value string, ev Evidence) {
	f := p.facts.get(name)
	switch {
	case f == nil:
		f = p.facts.add(name, ev)
	case ev.File == f.ev.File && ev.Line < f.ev.Line:
		f.ev = ev
	}
	f.values.add(value)
}

// value is the fact's values, sorted and joined.
func (f *factVal) value() string {
	vs := slices.Sorted(f.values.all())
	return strings.Join(vs, ", ")
}

// merge takes o's facts about the same process; o's lines follow p's.
func (p *procInfo) merge(o *procInfo) {
	if p.launcher < 0 {
		p.launcher = o.launcher
	}
	for r := range o.ranks.all() {
		p.addRank(r, o.size)
	}
	for r := range o.linkRanks.all() {
		p.linkRanks.add(r)
	}
	for g := range o.gpus.all() {
		p.gpus.add(g)
	}
	for c := range o.comms.all() {
		p.comms.add(c)
	}
	for name, f := range o.facts.all() {
		for v := range f.values.all() {
			p.set(name, v, f.ev)
		}
	}
	p.envSeen = p.envSeen || o.envSeen
	p.started, p.initDone = p.started || o.started, p.initDone || o.initDone
}

// addRank records that the process is rank r of a communicator of size n; only the ranks
// in the largest communicators are kept.
func (p *procInfo) addRank(r, n int64) {
	switch {
	case n > p.size:
		p.ranks, p.size = smallSet[int64]{}, n
		p.ranks.add(r)
	case n == p.size:
		p.ranks.add(r)
	}
}

// label is the rank that names the process in the output: its lowest communicator rank,
// else the launcher's label, else -1.
func (p *procInfo) label() int64 {
	rs := p.rankList()
	if len(rs) == 0 {
		return -1
	}
	return rs[0]
}

// rankList is the process's ranks, sorted: from its Init lines, else its connection lines,
// else its launcher label, else none.
func (p *procInfo) rankList() []int64 {
	ranks := &p.ranks
	if ranks.len() == 0 {
		ranks = &p.linkRanks
	}
	if ranks.len() == 0 {
		if p.launcher >= 0 {
			return []int64{p.launcher}
		}
		return nil
	}
	return slices.Sorted(ranks.all())
}

// forgetComms drops from p's communicators those that listed does not hold.
func (p *procInfo) forgetComms(listed map[string]*commInfo) {
	p.comms.deleteFunc(func(c string) bool { return listed[c] == nil })
}
