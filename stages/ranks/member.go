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
	// Rank is the rank in the communicator, -1 when no line said it.
	Rank int64
	// RankFrom says which line gave the rank: "init" (Init or node layout line), "globalrank"
	// (RCCL's collective line) or "" (none: Unattributed says why).
	RankFrom string
	CudaDev  int64
	// LaunchRank is the launcher's rank label on the lines that bound it (torchrun
	// `[rank3]:`), -1 where they have none; it ties PyTorch's watchdog lines to the process.
	LaunchRank int64
	// Calls is how many calls the rank issued on the communicator. Its first call is at
	// position Start of the communicator's sequence: 0 where the log holds the communicator
	// from its first call; later where an excerpt starts this rank further on (placed by
	// opCount). A call's index is its position in that sequence.
	Calls int64
	Start int64
	// FirstOp is the opCount of its first call.
	FirstOp uint64
	// ByOp is nil until the rank's first selected call (most ranks of a log of communicator
	// set-up have none).
	ByOp      map[parser.Op]*Volume
	FirstStep int64 // -1 when no call had a step
	LastStep  int64
	// Last is the rank's last call and LastLine its line.
	Last     Sig
	LastLine int64
	// FirstDiv is the index of the first call that differs from the communicator's reference
	// sequence (-1: none); DivSig is what this rank issued there.
	FirstDiv int64
	DivSig   Sig
	// End is how the communicator ended for this rank: "", "Destroy" or "Abort".
	End string
	// Warn is the last NCCL WARN its process printed, and WarnLine its line; ProcLast is the line
	// of its process's last call on any communicator.
	Warn     string
	WarnLine int64
	// WarnAdvice: that WARN names no fault (RankEvent.Advice).
	WarnAdvice bool `json:",omitempty"`
	ProcLast   int64
	// Clock is what the times of its lines say (stall.go); nil where its calls carry none.
	Clock *Clock `json:",omitempty"`
	group GroupKey
	// calls is what it keeps of its calls beyond their counts; nil until it has some (most
	// ranks of a log of communicator set-up issue none, and these fields took a tenth of
	// every rank's memory).
	calls    *memberCalls
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
		m.calls = &memberCalls{}
	}
	return m.calls
}

// proc is the key of the member's process.
func (m *Member) proc() procKey { return procKey{m.File, m.Host, m.Pid} }

func newMember(host string, pid int64, file string, rank, dev int64) *Member {
	return &Member{Host: host, Pid: pid, File: file, Rank: rank, CudaDev: dev, LaunchRank: -1,
		FirstStep: -1, LastStep: -1, FirstDiv: -1}
}

// Through is the position after the rank's last call: how far into the sequence it got.
func (m *Member) Through() int64 { return m.Start + m.Calls }

// Volume returns the sum over ops, added in op-name order so that the float sum is the same
// on every run (map order is random).
func (m *Member) Volume() Volume {
	var v Volume
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
		if m.FirstStep < 0 || step < m.FirstStep {
			m.FirstStep = step
		}
		m.LastStep = max(m.LastStep, step)
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
