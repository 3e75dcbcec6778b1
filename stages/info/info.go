package info

import (
	"fmt"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages/ranks"
)

// Info gathers what a job's set-up lines say: identity, network and transports, environment,
// tuning, init timings, WARNs and error chains, per process, for `nccllog info`. It is a plain
// value: Add one line at a time, Merge the Info of the lines that follow, Report at the end.
type Info struct {
	procs     map[procID]*procInfo
	procOrder []procID
	bare      []BareVersion // version lines without an envelope: no process to give them to
	comms     map[string]*commInfo
	commOrder []string
	// threads is the communicator each thread last initialised (its Init lines); the
	// connection and channel lines of its set-up block belong to it.
	threads map[threadKey]threadComm
	// firstComplete is, per thread, the first Init COMPLETE this Info saw with no Init line
	// before it on the thread: the lines pending before this Info's belong to it.
	firstComplete map[threadKey]string
	// pending holds communicator lines whose communicator is not known yet.
	pending pendingList
	// early holds the lines a thread printed before its first Init COMPLETE here, where this
	// Info never saw the thread before: whether they belong to that communicator (no Init
	// START, before 2.18.3) or to one an earlier Info saw START for, only a Merge can tell.
	early []commFact
	// unsure holds the lines a thread printed between two of its Init COMPLETE lines here,
	// with no Init START here before them (see commFact.after).
	unsure  []commFact
	tuning  map[tuneKey]int64
	warns   warnState
	chains  chainState
	timings []TimingRow
	counts  sectionCounts
	// seen remembers the readings of recent set-up messages. Not part of the result; not
	// merged.
	seen setupCache
	// maxComms is how many communicators are listed (MaxComms; tests set fewer); notListed
	// counts the Init lines of the others.
	maxComms  int
	notListed int64
	// recent holds the processes of recent lines by pid (a job's lines interleave a few
	// processes' at a time), so that a line of a known process costs no map lookup: not part
	// of the result; not merged.
	recent [16]*procInfo
}

// procID is one process: NCCL's host and pid.
type procID struct {
	Host string
	Pid  int64
}

type threadKey struct {
	procID
	Tid int64
}

// Evidence is where a fact was read.
type Evidence struct {
	File string `json:"file"`
	Line int64  `json:"line"`
}

func (e Evidence) String() string { return fmt.Sprintf("%s:%d", e.File, e.Line) }

// BareVersion is a version line printed without an envelope (rank 0 before 2.22, RCCL's
// header block).
type BareVersion struct {
	Lib      string   `json:"lib"` // NCCL, RCCL, HIP, ROCm
	Version  string   `json:"version"`
	Lines    int64    `json:"lines"`
	Evidence Evidence `json:"evidence"` // the first
}

// sectionCounts counts the lines of each NCCL_DEBUG_SUBSYS section, to tell what is missing.
type sectionCounts struct {
	NCCL, Coll, Init, Net, Tuning, Env int64
}

// NewInfo returns an empty Info.
func NewInfo() *Info {
	return &Info{
		procs: map[procID]*procInfo{}, comms: map[string]*commInfo{}, threads: map[threadKey]threadComm{},
		firstComplete: map[threadKey]string{},
		tuning:        map[tuneKey]int64{}, warns: newWarnState(), chains: newChainState(), maxComms: ranks.MaxComms,
	}
}

// Add reads one line: line number line of file, its text, and the parser's reading l.
func (in *Info) Add(file string, line int64, text []byte, l *parser.Line) {
	ev := Evidence{file, line}
	switch l.Kind {
	case parser.KindCollective:
		in.counts.NCCL++
		in.counts.Coll++
		in.seen1(l, ev)
	case parser.KindComm:
		in.counts.NCCL++
		in.counts.Init++
		in.addComm(l, ev)
	case parser.KindVersion, parser.KindOther:
		if msg := parser.Message(text, l); msg != nil {
			in.addBareVersion(msg, ev)
		}
	case parser.KindWarn:
		in.counts.NCCL++
		in.addWarn(text, l, ev)
	case parser.KindInfo, parser.KindTrace:
		in.counts.NCCL++
		in.addInfo(text, l, ev)
	}
}

// maxBare bounds the distinct bare version lines kept.
const maxBare = 1024

func (in *Info) addBareVersion(msg []byte, ev Evidence) {
	if s, ok := parser.ParseSetup(msg); ok && s.Kind == parser.SetupVersion {
		in.addBare(BareVersion{Lib: s.Name, Version: s.Text, Lines: 1, Evidence: ev})
	}
}

// addBare counts a bare version line with the others of its text.
func (in *Info) addBare(b BareVersion) {
	for i := range in.bare {
		if in.bare[i].Lib == b.Lib && in.bare[i].Version == b.Version {
			in.bare[i].Lines += b.Lines
			return
		}
	}
	if len(in.bare) < maxBare {
		in.bare = append(in.bare, b)
	}
}

// addInfo reads an INFO line's set-up message, if it is one.
func (in *Info) addInfo(text []byte, l *parser.Line, ev Evidence) {
	s, ok := in.parseSetup(parser.Message(text, l))
	if !ok {
		in.seen1(l, ev)
		return
	}
	p := in.proc(l, ev)
	th := threadKey{p.key, l.Env.Tid}
	switch s.Kind {
	case parser.SetupVersion:
		p.started = true
		p.set("version", s.Name+" "+s.Text, ev)
	case parser.SetupDriver:
		p.started = true
		p.set("CUDA driver", s.Text, ev)
	case parser.SetupNetwork, parser.SetupNetIB, parser.SetupNetSocket, parser.SetupNetPlugin:
		in.counts.Net++
		p.set(netFactName(&s), netFactValue(&s), ev)
	case parser.SetupConn:
		in.counts.Init++
		in.addConn(th, &s.Conn, ev)
	case parser.SetupRings:
		in.counts.Init++
		if s.Rings.GDR >= 0 {
			in.commLine(commFact{thread: th, name: "rings", value: fmt.Sprintf("PXN %d GDR %d", s.Rings.PXN, s.Rings.GDR), ev: ev})
		}
	case parser.SetupChannels:
		in.counts.Init++
		in.commLine(commFact{thread: th, name: "channels", value: channelsText(s.Channels), ev: ev})
	case parser.SetupEnv:
		in.counts.Env++
		p.envSeen = true
		p.set("env "+s.Name, s.Text, ev)
	case parser.SetupTuning:
		in.counts.Tuning++
		in.addTuning(&s.Tuning)
	case parser.SetupTimings, parser.SetupBootTimings:
		in.counts.Init++
		in.addTiming(p, &s, ev)
	case parser.SetupBacktrace:
		in.chains.frame(th, &s.Frame, ev)
	}
}

func netFactName(s *parser.Setup) string {
	switch s.Kind {
	case parser.SetupNetwork:
		return "network"
	case parser.SetupNetIB:
		return "NET/" + s.Name + " devices"
	case parser.SetupNetSocket:
		return "NET/Socket interfaces"
	}
	return "NET/" + s.Name
}

// netFactValue is what is compared across processes: a plugin's free text with its numbers
// masked, as they can name this host's addresses.
func netFactValue(s *parser.Setup) string {
	if s.Kind == parser.SetupNetPlugin {
		return warnTemplate([]byte(s.Text))
	}
	return s.Text
}

func channelsText(c parser.Channels) string {
	s := fmt.Sprintf("%d coll", c.Coll)
	for _, f := range []struct {
		n    int64
		name string
	}{{c.CollNet, "collnet"}, {c.NVLS, "nvls"}, {c.P2P, "p2p"}, {c.PerPeer, "p2p per peer"}} {
		if f.n >= 0 {
			s += fmt.Sprintf(", %d %s", f.n, f.name)
		}
	}
	return s
}

// parseSetup is parser.ParseSetup, remembered for messages that repeat exactly.
func (in *Info) parseSetup(msg []byte) (parser.Setup, bool) {
	return in.seen.parse(msg)
}

// seen1 counts the process that printed l, whose line states no fact info keeps (a call, an
// INFO line of no set-up message): every process whose lines the log holds is one of the job's.
func (in *Info) seen1(l *parser.Line, ev Evidence) {
	// A line spliced into another's may carry the cut end of the other's text in its host.
	if l.Env.Host != "" && !l.Spliced {
		in.proc(l, ev)
	}
}

// proc returns the process that printed l, created on first sight.
func (in *Info) proc(l *parser.Line, ev Evidence) *procInfo {
	slot := &in.recent[uint64(l.Env.Pid)%uint64(len(in.recent))]
	if p := *slot; p != nil && p.key.Pid == l.Env.Pid && p.key.Host == l.Env.Host && (p.launcher >= 0 || l.Rank < 0) {
		return p
	}
	k := procID{l.Env.Host, l.Env.Pid}
	p := in.procs[k]
	if p == nil {
		p = newProcInfo(k, ev)
		in.procs[k] = p
		in.procOrder = append(in.procOrder, k)
	}
	if p.launcher < 0 && l.Rank >= 0 {
		p.launcher = l.Rank
	}
	*slot = p
	return p
}

// Rebase gives the evidence of lines added with an empty file name the name file, and adds
// base to their line numbers: a chunk's lines are numbered from its start.
func (in *Info) Rebase(file string, base int64) {
	in.eachEvidence(func(e *Evidence) {
		if e.File == "" {
			e.File, e.Line = file, e.Line+base
		}
	})
}
