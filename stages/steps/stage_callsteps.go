package steps

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// CallStepsStage keeps, per process, the first calls it issued with their times, so that the
// steps of a log without progress lines can be inferred from the repeating call pattern of
// its training loop (see Infer). It reads every line whatever --steps selects: the calls
// before and after a step count for the pattern, and inference is done only without --steps.
type CallStepsStage struct{}

func (CallStepsStage) Name() string        { return "callsteps" }
func (CallStepsStage) Reads() stages.Reads { return stages.ReadsAll }
func (CallStepsStage) Kinds() stages.KindSet {
	return stages.Kinds(parser.KindCollective, parser.KindProgress)
}

func (CallStepsStage) New(*stages.Config) stages.Partial {
	return &CallStepsPart{procs: make(map[procKey]*procCalls)}
}

// KeptCalls is how many calls of each process are kept (its first, in input order): enough
// for a loop of a few hundred calls per step to repeat several times.
const KeptCalls = 2048

// MaxProcs is how many processes the partial keeps calls of; past it nothing is inferred.
const MaxProcs = 1024

// MinDigits is the fewest fraction-of-second digits a call's time needs: with whole seconds
// a step of a few hundred milliseconds would measure 0 or 1 s.
const MinDigits = 3

// procKey is one process: host and pid.
type procKey struct {
	Host string
	Pid  int64
}

// CallSig is what a call's line says of it apart from its buffers and position: the
// communicator pointer, op, count, datatype and root (the peer of Send/Recv).
type CallSig struct {
	Comm  uint64
	Op    parser.Op
	Count int64
	Dtype parser.Datatype
	Root  int64
}

// TimeCounts are a process's calls by how their lines were timed.
type TimeCounts struct {
	Calls, Untimed, Coarse, SinceInit int64
}

func (c *TimeCounts) add(o TimeCounts) {
	c.Calls += o.Calls
	c.Untimed += o.Untimed
	c.Coarse += o.Coarse
	c.SinceInit += o.SinceInit
}

// timed reports whether every call was timed finely enough to be measured.
func (c TimeCounts) timed() bool { return c.Untimed+c.Coarse+c.SinceInit == 0 }

// keptCall is one kept call: its signature (an index into its process's sigs) and time.
type keptCall struct {
	sig int32
	ns  int64
}

// procCalls is one process's first calls.
type procCalls struct {
	TimeCounts
	sigs  []CallSig
	index map[CallSig]int32
	calls []keptCall
	tail  *tailState // past the first KeptCalls calls
}

// intern returns s's index in the process's signatures, adding it where new.
func (pc *procCalls) intern(s CallSig) int32 {
	if i, ok := pc.index[s]; ok {
		return i
	}
	s.Op = parser.Op(strings.Clone(string(s.Op)))
	pc.sigs = append(pc.sigs, s)
	pc.index[s] = int32(len(pc.sigs) - 1)
	return int32(len(pc.sigs) - 1)
}

// CallStepsPart is the callsteps stage's Partial.
type CallStepsPart struct {
	procs    map[procKey]*procCalls
	over     bool  // more than MaxProcs processes: nothing kept
	Progress int64 // progress lines seen, selected or not
}

func (p *CallStepsPart) Add(l *stages.Line) {
	if l.P.Kind == parser.KindProgress {
		p.Progress++
		return
	}
	if !l.P.Env.HasEnvelope() || l.P.Coll.Unread&parser.PtrComm != 0 {
		return
	}
	pc := p.proc(procKey{l.P.Env.Host, l.P.Env.Pid})
	if pc == nil {
		return
	}
	tc := TimeCounts{Calls: 1}
	t := l.P.Time
	switch {
	case t.IsZero():
		tc.Untimed = 1
	case t.Form == parser.StampTrace:
		tc.SinceInit = 1
	case t.Digits < MinDigits:
		tc.Coarse = 1
	}
	pc.add(tc)
	c := &l.P.Coll
	pc.addCall(CallSig{c.Comm, c.Op, c.Count, c.Datatype, c.Root}, t.Nanos)
}

// proc returns k's calls, made where new; nil past MaxProcs.
func (p *CallStepsPart) proc(k procKey) *procCalls {
	if pc := p.procs[k]; pc != nil {
		return pc
	}
	if p.over {
		return nil
	}
	if len(p.procs) >= MaxProcs {
		p.over = true
		clear(p.procs)
		return nil
	}
	k.Host = strings.Clone(k.Host)
	pc := &procCalls{index: make(map[CallSig]int32)}
	p.procs[k] = pc
	return pc
}

func (p *CallStepsPart) Settle(int64, bool)   {}
func (p *CallStepsPart) Anchor(stages.Origin) {}

// Merge takes o's calls after each process's: o's lines follow p's.
func (p *CallStepsPart) Merge(o stages.Partial) {
	op := o.(*CallStepsPart)
	p.Progress += op.Progress
	if op.over {
		p.over = true
		clear(p.procs)
	}
	for _, k := range sortedProcs(op.procs) {
		src := op.procs[k]
		pc := p.proc(k)
		if pc == nil {
			return
		}
		for _, c := range src.calls {
			pc.addCall(src.sigs[c.sig], c.ns)
		}
		pc.add(src.TimeCounts)
		pc.joinTail(src)
	}
}

func (p *CallStepsPart) Reset() {
	clear(p.procs)
	p.over, p.Progress = false, 0
}

func sortedProcs(m map[procKey]*procCalls) []procKey {
	ks := make([]procKey, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.SortFunc(ks, func(a, b procKey) int { return cmp.Or(cmp.Compare(a.Host, b.Host), cmp.Compare(a.Pid, b.Pid)) })
	return ks
}

// ProcSnapshot is one process's kept calls: Seq indexes Sigs (in order of first call), and
// Gaps are the calls' times as the first's and then each one's distance from the one before,
// in nanoseconds (short numbers in a partial result).
type ProcSnapshot struct {
	Host string
	Pid  int64
	TimeCounts
	Sigs []CallSig
	Seq  []int32
	Gaps []int64
	// Tail follows the calls past the first KeptCalls (see tailState); absent where none.
	Tail *TailSnapshot `json:",omitempty"`
}

// CallStepsSnapshot is the stage's content in a fixed order.
type CallStepsSnapshot struct {
	Progress int64
	Over     bool
	Procs    []ProcSnapshot
}

func (p *CallStepsPart) Snapshot() any {
	s := CallStepsSnapshot{Progress: p.Progress, Over: p.over, Procs: []ProcSnapshot{}}
	for _, k := range sortedProcs(p.procs) {
		s.Procs = append(s.Procs, snapProc(k, p.procs[k]))
	}
	return s
}

// snapProc lists pc's calls with its signatures numbered in order of first call (the order
// of its table depends on how the calls were merged).
func snapProc(k procKey, pc *procCalls) ProcSnapshot {
	ps := ProcSnapshot{Host: k.Host, Pid: k.Pid, TimeCounts: pc.TimeCounts, Sigs: []CallSig{},
		Seq: make([]int32, 0, len(pc.calls)), Gaps: make([]int64, 0, len(pc.calls)), Tail: snapTail(pc.tail)}
	renum := make(map[int32]int32)
	var last int64
	for _, c := range pc.calls {
		n, ok := renum[c.sig]
		if !ok {
			n = int32(len(ps.Sigs))
			renum[c.sig] = n
			ps.Sigs = append(ps.Sigs, pc.sigs[c.sig])
		}
		ps.Seq = append(ps.Seq, n)
		ps.Gaps = append(ps.Gaps, c.ns-last)
		last = c.ns
	}
	return ps
}

// Restore reads a partial result's snapshot back, within its limits.
func (p *CallStepsPart) Restore(dec *json.Decoder, _ *stages.Limits) error {
	var s CallStepsSnapshot
	if err := dec.Decode(&s); err != nil {
		return err
	}
	if err := stages.CheckCount("progress lines", s.Progress); err != nil {
		return err
	}
	if len(s.Procs) > MaxProcs {
		return fmt.Errorf("it keeps the calls of %d processes, more than %d", len(s.Procs), MaxProcs)
	}
	p.Reset()
	p.Progress, p.over = s.Progress, s.Over
	for _, ps := range s.Procs {
		if err := p.restoreProc(ps); err != nil {
			return err
		}
	}
	return nil
}

func (p *CallStepsPart) restoreProc(ps ProcSnapshot) error {
	of := fmt.Sprintf(" of process %s:%d", ps.Host, ps.Pid)
	if err := stages.CheckCounts(of, stages.Named{Name: "calls", N: ps.Calls}, stages.Named{Name: "untimed calls", N: ps.Untimed},
		stages.Named{Name: "coarse calls", N: ps.Coarse}, stages.Named{Name: "calls timed since init", N: ps.SinceInit}); err != nil {
		return err
	}
	n := len(ps.Seq)
	if (ps.Tail != nil) != (n == KeptCalls) || n > KeptCalls || n != len(ps.Gaps) || int64(n) > ps.Calls || ps.Untimed+ps.Coarse+ps.SinceInit > ps.Calls || len(ps.Sigs) > n {
		return fmt.Errorf("the kept calls%s do not add up", of)
	}
	k := procKey{ps.Host, ps.Pid}
	if p.procs[k] != nil {
		return fmt.Errorf("process %s:%d is listed twice", ps.Host, ps.Pid)
	}
	pc := &procCalls{TimeCounts: ps.TimeCounts, index: make(map[CallSig]int32)}
	var ns int64
	for i, sig := range ps.Seq {
		if sig < 0 || int(sig) >= len(ps.Sigs) {
			return fmt.Errorf("call %d%s names no signature", i, of)
		}
		ns += ps.Gaps[i]
		pc.calls = append(pc.calls, keptCall{pc.intern(ps.Sigs[sig]), ns})
	}
	if ps.Tail != nil {
		t, err := restoreTail(ps.Tail, of)
		if err != nil {
			return err
		}
		pc.tail = t
	}
	p.procs[k] = pc
	return nil
}

// CallStepsOf returns the stage's Partial in s (nil where the run had no callsteps stage).
func CallStepsOf(s *stages.Set) *CallStepsPart {
	if p, ok := stages.Part[*CallStepsPart](s); ok {
		return p
	}
	return nil
}
