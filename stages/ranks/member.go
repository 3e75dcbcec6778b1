package ranks

import (
	"github.com/nccllog/nccllog/parser"

	"maps"
	"slices"
)

// Member is one rank of a communicator: one process's communicator between its init and its
// destroy (a comm pointer can be handed out again after that).
type Member struct {
	Host string
	Pid  int64
	File string
	// Rank is the rank in the communicator, -1 when no line said it; RankFrom says which line
	// gave it.
	Rank    int64
	CudaDev int64
	// LaunchRank is the launcher's rank label on the lines that bound it (torchrun
	// `[rank3]:`), -1 where they have none; it ties PyTorch's watchdog lines to the process.
	LaunchRank int64
	// Calls is how many calls the rank issued on the communicator. Its first call is at
	// position Start of the communicator's sequence: 0 where the log holds the communicator
	// from its first call; later where an excerpt starts this rank further on (placed by
	// opCount). A call's index is its position in that sequence. What else it keeps of its
	// calls (FirstOp, FirstStep, LastStep, Last, LastLine, FirstDiv, DivSig) its methods say.
	Calls int64
	Start int64
	// ByOp is nil until the rank's first selected call (most ranks of a log of communicator
	// set-up have none).
	ByOp map[parser.Op]*Volume
	// Clock is what the times of its lines say (stall.go); nil where its calls carry none.
	Clock *Clock `json:",omitempty"`
	// g is its communicator (a joined one's members are moved to the one it joined).
	g *Group
	// calls is what it keeps of its calls beyond their counts; nil until it has some (most
	// ranks of a log of communicator set-up issue none: their Member was 344 bytes, of which
	// these fields took 170).
	calls *memberCalls
	// warn is its process's last WARN, nil where the process printed none and issued no
	// calls (see Groups), and RankFrom and End where they are none of rankFrom's and end's.
	warn     *memberWarn
	rankFrom rankSource
	end      endKind
	started  bool
	histOver bool // hist had more calls than histCap
	folded   bool // its communicator was folded into the overflow
	// procCut: the input ends while its process issues calls on some communicator, by that
	// communicator's own shape (set by Groups; see cutEnds).
	procCut bool
}

// memberCalls is what a Member keeps of its calls.
type memberCalls struct {
	// hist keeps the calls of a rank without an Init line, up to histCap, to align an excerpt
	// by overlap (see realign).
	hist []refCall
	// vols are ByOp's volumes by their op's index in volTab's ops (addSelected); ByOp's
	// entries are never replaced, so a pointer kept here stays its op's.
	vols   []*Volume
	volTab *sigTable
	// firstOp is the opCount of its first call; firstStep and lastStep the steps of its
	// calls (-1: none had one).
	firstOp             uint64
	firstStep, lastStep int64
	// last is the rank's last call and lastLine its line.
	last     Sig
	lastLine int64
	// firstDiv is the index of the first call that differs from the communicator's reference
	// sequence (-1: none); divSig is what this rank issued there.
	firstDiv int64
	divSig   Sig
}

// memberWarn is the last NCCL WARN of a Member's process, and that process's last call;
// and a RankFrom or End that rankSource or endKind does not name (a partial result's).
type memberWarn struct {
	text          string
	line          int64
	advice        bool
	procLast      int64
	rankFrom, end string
}

// rankSource is which line gave a rank its number (Member.RankFrom).
type rankSource uint8

const (
	rankNone   rankSource = iota // ""
	rankInit                     // "init": an Init or node layout line
	rankGlobal                   // "globalrank": RCCL's collective line
	rankOther                    // another, in memberWarn.rankFrom
)

var rankSources = [...]string{rankNone: "", rankInit: "init", rankGlobal: "globalrank"}

// endKind is how a communicator ended for a rank (Member.End).
type endKind uint8

const (
	endNone    endKind = iota // ""
	endDestroy                // "Destroy"
	endAbort                  // "Abort"
	endRevoke                 // "Revoke"
	endOther                  // another word, in memberWarn.end
)

var endKinds = [...]string{endNone: "", endDestroy: "Destroy", endAbort: "Abort", endRevoke: "Revoke"}

// RankFrom says which line gave the rank: "init" (Init or node layout line), "globalrank"
// (RCCL's collective line) or "" (none: Unattributed says why).
func (m *Member) RankFrom() string {
	if m.rankFrom == rankOther {
		return m.warn.rankFrom
	}
	return rankSources[m.rankFrom]
}

// End is how the communicator ended for this rank: "", "Destroy" or "Abort" (or "Revoke"
// where it was revoked and not yet destroyed).
func (m *Member) End() string {
	if m.end == endOther {
		return m.warn.end
	}
	return endKinds[m.end]
}

// setRankFrom makes s the rank's RankFrom.
func (m *Member) setRankFrom(s string) {
	if i := slices.Index(rankSources[:], s); i >= 0 {
		m.rankFrom = rankSource(i)
		return
	}
	m.rankFrom = rankOther
	m.more().rankFrom = s
}

// setEnd makes s the rank's End.
func (m *Member) setEnd(s string) {
	if i := slices.Index(endKinds[:], s); i >= 0 {
		m.end = endKind(i)
		return
	}
	m.end = endOther
	m.more().end = s
}

// more returns m's memberWarn, made on first use.
func (m *Member) more() *memberWarn {
	if m.warn == nil {
		m.warn = &memberWarn{}
	}
	return m.warn
}

// FirstOp is the opCount of the rank's first call.
func (m *Member) FirstOp() uint64 {
	if m.calls == nil {
		return 0
	}
	return m.calls.firstOp
}

// FirstStep is the step of the rank's first call that had one, -1 where none had.
func (m *Member) FirstStep() int64 {
	if m.calls == nil {
		return -1
	}
	return m.calls.firstStep
}

// LastStep is the step of the rank's last call that had one, -1 where none had.
func (m *Member) LastStep() int64 {
	if m.calls == nil {
		return -1
	}
	return m.calls.lastStep
}

// Last is the rank's last call (zero: none).
func (m *Member) Last() Sig {
	if m.calls == nil {
		return Sig{}
	}
	return m.calls.last
}

// LastLine is the line of the rank's last call (0: none).
func (m *Member) LastLine() int64 {
	if m.calls == nil {
		return 0
	}
	return m.calls.lastLine
}

// FirstDiv is the index of the first call that differs from the communicator's reference
// sequence, -1 where none does.
func (m *Member) FirstDiv() int64 {
	if m.calls == nil {
		return -1
	}
	return m.calls.firstDiv
}

// DivSig is what the rank issued at FirstDiv.
func (m *Member) DivSig() Sig {
	if m.calls == nil {
		return Sig{}
	}
	return m.calls.divSig
}

// setDiv makes position pos, where the rank issued s, its first divergence.
func (m *Member) setDiv(pos int64, s Sig) {
	mc := m.callState()
	mc.firstDiv, mc.divSig = pos, s
}

// noDiv forgets the rank's first divergence.
func (m *Member) noDiv() {
	if m.calls != nil {
		m.calls.firstDiv, m.calls.divSig = -1, Sig{}
	}
}

// moveDiv moves the rank's first divergence, where it has one, d positions along.
func (m *Member) moveDiv(d int64) {
	if m.calls != nil && m.calls.firstDiv >= 0 {
		m.calls.firstDiv += d
	}
}

// Warn is the last NCCL WARN the rank's process printed ("": none).
func (m *Member) Warn() string {
	if m.warn == nil {
		return ""
	}
	return m.warn.text
}

// WarnLine is the line of Warn.
func (m *Member) WarnLine() int64 {
	if m.warn == nil {
		return 0
	}
	return m.warn.line
}

// WarnAdvice reports that Warn names no fault (RankEvent.Advice).
func (m *Member) WarnAdvice() bool { return m.warn != nil && m.warn.advice }

// ProcLast is the line of the last call of the rank's process on any communicator.
func (m *Member) ProcLast() int64 {
	if m.warn == nil {
		return 0
	}
	return m.warn.procLast
}

// setWarn gives m its process's last WARN and last call; m keeps none of it where they are
// all zero (and its RankFrom and End are named by their enums).
func (m *Member) setWarn(text string, line int64, advice bool, procLast int64) {
	if text == "" && line == 0 && !advice && procLast == 0 && m.rankFrom != rankOther && m.end != endOther {
		m.warn = nil
		return
	}
	w := m.more()
	w.text, w.line, w.advice, w.procLast = text, line, advice, procLast
}

// kept is the calls m keeps to align an excerpt (memberCalls.hist).
func (m *Member) kept() []refCall {
	if m.calls == nil {
		return nil
	}
	return m.calls.hist
}

// callState returns m's memberCalls, made on first use.
func (m *Member) callState() *memberCalls {
	if m.calls == nil {
		m.calls = &memberCalls{firstStep: -1, lastStep: -1, firstDiv: -1}
	}
	return m.calls
}

// proc is the key of the member's process.
func (m *Member) proc() procKey { return procKey{m.File, m.Host, m.Pid} }

func newMember(host string, pid int64, file string, rank, dev int64) *Member {
	return &Member{Host: host, Pid: pid, File: file, Rank: rank, CudaDev: dev, LaunchRank: -1}
}

// Through is the position after the rank's last call: how far into the sequence it got.
func (m *Member) Through() int64 { return m.Start + m.Calls }

// Volume returns the sum over ops, added in op-name order so that the float sum is the same
// on every run (map order is random).
func (m *Member) Volume() Volume {
	var v Volume
	if len(m.ByOp) == 0 {
		return v // without sorting no op (most ranks of a log of communicator set-up)
	}
	for _, op := range slices.Sorted(maps.Keys(m.ByOp)) {
		v.merge(*m.ByOp[op])
	}
	return v
}

// addSelected adds a selected call of s, whose id in t is sid, on nranks ranks, in step, to
// m's volume: by the op's index in t, where the map ByOp cost a string hash a call.
func (m *Member) addSelected(t *sigTable, sid uint32, s *Sig, nranks, step int64) {
	c := t.call(sid, s, nranks)
	mc := m.callState()
	if mc.volTab != t {
		mc.vols, mc.volTab = mc.vols[:0], t // indexes of another table's ops
	}
	for int(c.op) >= len(mc.vols) {
		mc.vols = append(mc.vols, nil)
	}
	v := mc.vols[c.op]
	if v == nil {
		v = m.volumeOf(s.Op)
		mc.vols[c.op] = v
	}
	v.addCall(c.bytes, c.bus, c.sized)
	if step >= 0 {
		if mc.firstStep < 0 || step < mc.firstStep {
			mc.firstStep = step
		}
		mc.lastStep = max(mc.lastStep, step)
	}
}

// volumeOf is the volume of m's calls of op, made on first use.
func (m *Member) volumeOf(op parser.Op) *Volume {
	v := m.ByOp[op]
	if v == nil {
		if m.ByOp == nil {
			m.ByOp = make(map[parser.Op]*Volume)
		}
		v = &Volume{}
		m.ByOp[op] = v
	}
	return v
}

// Label names the rank for output: its rank, or host:pid where no line said it (with the
// device, where one process drives several GPUs).
func (m *Member) Label() string {
	switch {
	case m.Rank >= 0:
		return itoa(m.Rank)
	case m.CudaDev >= 0:
		return m.Host + ":" + itoa(m.Pid) + "/dev" + itoa(m.CudaDev)
	}
	return m.Host + ":" + itoa(m.Pid)
}

// Unattributed says why a rank has no known rank number, or "" when it has one.
func (m *Member) Unattributed() string {
	if m.Rank >= 0 {
		return ""
	}
	return "no Init line for this communicator in this process (the log starts after init, or NCCL_DEBUG_SUBSYS leaves out INIT), and no RCCL globalrank"
}
