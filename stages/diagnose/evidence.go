package diagnose

import (
	"bytes"
	"fmt"
	"math"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages/ncclwarn"
)

// Ev is what kind of evidence one kept line is.
type Ev uint8

const (
	evNone Ev = iota
	// Launcher lines: a task's exit, a cancelled step, torchrun's root-cause block and its
	// fields, Open MPI's first failing process.
	evTaskExit
	evCancelled
	evRootCause
	evOtherFailures
	evRootField
	evMPIExit
	evMPIProcess
	// A process's own last words.
	evException
	evTerminate
	evSignal
	// RAS report lines.
	evRAS
	// NCCL WARNs: a network origin (IB completion error, NET plugin or socket failure), a weak
	// network event (an async port event, also printed by healthy jobs), a bootstrap failure,
	// a CUDA failure, invalid usage, a system call failure, a peer that closed its
	// connection, a follow-on error, and any other WARN.
	evNetError
	evNetWeak
	evBootstrap
	evCuda
	evInvalid
	evSystem
	evRemoteClosed
	evFollowOn
	evWarn
	// A PyTorch watchdog timeout.
	evWatchdog
	// A shared memory segment (/dev/shm) that could not be made; a `file:line -> N` frame of
	// an error's return-code chain (ncclResult N, not 0).
	evShm
	evFrame
	// A WARN of a check inside NCCL that failed (ncclwarn.Internal).
	evInternal
	// The ncclResult line under an NCCL exception (`ncclRemoteError: ...`), and NCCL's last
	// WARN message that the exception repeats after `Last error:` (exception.go).
	evNCCLResult
	evLastError
	// torchrun's elastic agent on the first child it saw fail (`failed (exitcode: -6)
	// local_rank: 3 (pid: 26026) ...`): Pid, Code, Local, Name the signal of a negative code.
	evAgentExit
	// An INFO line that prints a setting that selects interfaces, devices or the network
	// (setting.go): Name the variable, Text its value. No finding's evidence.
	evSetting
	// nccl-tests' line under its failure line, one for each caller the error returns through
	// (` .. node1 pid 11537: Test failure common.cu:844`): Host and Pid (nccltests.go).
	evTestTrail
	// PyTorch's heartbeat monitor on a watchdog thread that stopped (`ProcessGroupNCCL's
	// watchdog got stuck for 480 seconds ...`, stuck.go).
	evStuck
	// Ray's raylet on a worker that died (Host, Pid: its address and pid; Name its exit type)
	// or on the workers of a node its memory monitor killed (Name rayNameOOM or
	// rayNameCrashed; no pid) (ray.go).
	evRayExit
	// nccl-tests' header line of one rank (`#  Rank  0 Group  0 Pid 209227 on host device  0
	// ...`): Rank, Host, Pid where printed, GPU. No finding's evidence (testhead.go).
	evTestRank
	// An INFO line on a socket connect that NCCL retries (`Call to connect returned
	// Connection refused, retrying`, retry.go): Text the message. No fault alone.
	evConnRetry
	// The proxy service's INFO on a local rank's connection that closed without its close
	// message (`[Service thread] Connection closed by localRank 7`, localgone.go): Local the
	// local rank. No fault alone.
	evLocalClosed
	// A line of PyTorch's desync report naming a rank out of step (desync.go): Rank, Seq the
	// collective's number, Name how.
	evDesync
	numEvs
)

var evNames = [numEvs]string{
	evNone: "", evTaskExit: "task-exit", evCancelled: "cancelled", evRootCause: "root-cause",
	evOtherFailures: "other-failures", evRootField: "root-field", evMPIExit: "mpi-exit",
	evMPIProcess: "mpi-process", evException: "exception", evTerminate: "terminate",
	evSignal: "signal", evRAS: "ras", evNetError: "net-error", evNetWeak: "net-event",
	evBootstrap: "bootstrap", evCuda: "cuda", evInvalid: "invalid-usage", evSystem: "system",
	evRemoteClosed: "remote-closed", evFollowOn: "follow-on", evWarn: "warn", evWatchdog: "watchdog",
	evShm: "shm", evFrame: "frame", evInternal: "internal",
	evNCCLResult: "nccl-result", evLastError: "last-error", evAgentExit: "agent-exit", evSetting: "setting",
	evTestTrail: "test-trail", evStuck: "watchdog-stuck", evRayExit: "ray-exit", evTestRank: "test-rank",
	evConnRetry: "connect-retry", evLocalClosed: "local-closed", evDesync: "desync",
}

func (e Ev) String() string {
	if e < numEvs {
		return evNames[e]
	}
	return "unknown"
}

// MarshalText writes the evidence kind's name.
func (e Ev) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// UnmarshalText reads a name MarshalText wrote.
func (e *Ev) UnmarshalText(b []byte) error {
	for i, n := range evNames {
		if i > 0 && n == string(b) {
			*e = Ev(i)
			return nil
		}
	}
	return fmt.Errorf("unknown evidence kind %q", b)
}

// Item is one kept line of evidence. Numbers the line does not show are -1.
type Item struct {
	Ev Ev `json:"ev"`
	// Group is a watchdog line's process group id plus one (`[PG 1 Rank 0]` gives 2), 0
	// where the line names none: with Seq it tells one collective from another. (An int32
	// beside Ev, in what would be padding: every item carries it.)
	Group int32 `json:"group,omitempty"`
	// Under is the rank plus one of the `[rankN]:` exception header just above an
	// unprefixed exception line (exchead.go), 0 where none: Build gives it to a line that
	// shows no rank of its own. (Kept apart from Rank, so that the line's key does not depend
	// on whether its header was in the same chunk.)
	Under int32  `json:"under,omitempty"`
	Host  string `json:"host,omitempty"`
	Pid   int64  `json:"pid"`
	// Tid is the thread of a WARN or a frame, which ties a WARN to the frames of its chain.
	Tid int64 `json:"tid,omitempty"`
	// Rank is the global rank the line shows: the launcher's label, the task or rank a
	// launcher or RAS line names, a watchdog line's rank.
	Rank int64 `json:"rank"`
	// RankLast ends a range of tasks a launcher line names (`tasks 0-7: Killed`); equal to
	// Rank for one, -1 where Rank is.
	RankLast int64 `json:"rank_last"`
	GPU      int64 `json:"gpu"`
	// Peer is the host a line names as the other end (Connection closed by remote peer X).
	Peer string `json:"peer,omitempty"`
	// Code is the ncclResult (res=N, -> N) or exit code shown; Seq a watchdog's work.
	Code int64 `json:"code"`
	Seq  int64 `json:"seq"`
	// Name is an exception's or signal's name, a torchrun field's name, a RAS part.
	Name string `json:"name,omitempty"`
	// Local is the local rank (the child's index on its node) torchrun's agent names, or the
	// proxy service's closed connection names; read only for evAgentExit and evLocalClosed.
	Local int64 `json:"local_rank,omitempty"`
	// Also is how many more workers printed the line, where Ray folded theirs into it
	// (rayrepeat.go).
	Also int64 `json:"also,omitempty"`
	// Site is a hash of a WARN's source file and line (`paths.cc:82`; warnSite), which keeps
	// the WARNs of each site apart under the caps (keyOf).
	Site uint32 `json:"site,omitempty"`
	// GroupRank: Rank is a watchdog line's rank in its process group (Group), which names a
	// group other than the default and no launcher label gives the global rank.
	GroupRank bool `json:"group_rank,omitempty"`
	// Labelled says Host is a launcher's label's, not the line's own (reread.go).
	Labelled bool `json:"labelled,omitempty"`
	// Swallowed: a frame whose thread went on with an INFO line (swallowed.go).
	Swallowed bool   `json:"swallowed,omitempty"`
	Time      When   `json:"time"`
	File      string `json:"file"`
	Line      int64  `json:"line"`
	Text      string `json:"text"`
}

// maxText bounds an item's text.
const maxText = 300

func clip(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) > maxText {
		b = b[:maxText]
	}
	return string(b)
}

// newItem starts an item for line n of kind ev.
func newItem(ev Ev, n int64, l *parser.Line) Item {
	it := Item{Ev: ev, Pid: -1, Rank: l.Rank, RankLast: l.Rank, GPU: -1, Code: -1, Seq: -1, Line: n, Time: When{Stamp: l.Time}}
	if l.Env.HasEnvelope() {
		it.Host, it.Pid, it.GPU, it.Tid = l.Env.Host, l.Env.Pid, l.Env.Dev, l.Env.Tid
	}
	return it
}

// failureItem reads a KindFailure line.
func failureItem(n int64, l *parser.Line) (Item, bool) {
	f := l.Fail
	if f == nil {
		return Item{}, false
	}
	ev := failureEv(f.Event)
	if ev == evNone {
		return Item{}, false
	}
	it := newItem(ev, n, l)
	if f.Host != "" {
		it.Host = f.Host
	}
	if f.Task >= 0 {
		it.Rank, it.RankLast = f.Task, max(f.Task, f.TaskLast)
	}
	if f.Pid >= 0 {
		it.Pid = f.Pid
	}
	if f.GPU >= 0 {
		it.GPU = f.GPU
	}
	if f.HasExit {
		it.Code = f.ExitCode
	}
	if f.Result != parser.ResultNone {
		it.Code = int64(f.Result) // an NCCL exception's ncclResult
	} else if ev == evException {
		if r := frameworkResult(f.Text); r > 0 {
			it.Code = r
		}
	}
	it.Name = f.Exception
	switch {
	case f.Field != "":
		it.Name = f.Field
	case f.Signal != "":
		it.Name = f.Signal
	case f.Result != parser.ResultNone && f.Exception == "":
		it.Name = f.Result.String()
	case ev == evRAS:
		it.Name = f.RAS.String()
		if f.Comm != "" && f.Text == "" {
			it.Text = f.Comm
		}
	}
	if f.Text != "" {
		it.Text = clip([]byte(f.Text))
	}
	if ev == evAgentExit {
		it.Local, it.Rank, it.RankLast = f.LocalRank, -1, -1 // the agent's own line carries no global rank
		it.Text = agentText(&it)
	}
	if ev == evRAS && f.RAS == parser.RASFinding && f.Comm != "" {
		it.Text = "(" + f.Comm + ") " + it.Text // an entry's head names its communicator
	}
	return it, true
}

func failureEv(e parser.FailureEvent) Ev {
	switch e {
	case parser.FailureTaskExit:
		return evTaskExit
	case parser.FailureStepCancelled:
		return evCancelled
	case parser.FailureRootCause:
		return evRootCause
	case parser.FailureOtherFailures:
		return evOtherFailures
	case parser.FailureRootField:
		return evRootField
	case parser.FailureMPIExit:
		return evMPIExit
	case parser.FailureMPIProcess:
		return evMPIProcess
	case parser.FailureException:
		return evException
	case parser.FailureTerminate:
		return evTerminate
	case parser.FailureSignal:
		return evSignal
	case parser.FailureRAS:
		return evRAS
	case parser.FailureNCCLResult:
		return evNCCLResult
	case parser.FailureAgentExit:
		return evAgentExit
	}
	return evNone // the step-aborted notice and a traceback's head name no process
}

// warnItem reads a WARN line: which kind of evidence its message is.
func warnItem(n int64, text []byte, l *parser.Line) Item {
	msg := parser.Message(text, l)
	it := newItem(classifyWarn(msg), n, l)
	it.Text = clip(msg)
	file := warnFile(text, msg)
	it.Site = warnSite(file)
	if (it.Ev == evSystem || it.Ev == evWarn) && shmSite(file) {
		it.Ev = evShm // a system call of the shared memory transport (shm.go)
	} else if it.Ev == evSystem && socketBind(file, msg) {
		it.Ev = evNetError // a listening socket NCCL gave up (netwarn.go)
	}
	it.Code = resultCode(msg)
	if it.Ev == evRemoteClosed {
		it.Peer = peerHost(msg)
	}
	if it.Rank < 0 {
		if r, ok := proxyRank(msg); ok {
			it.Rank, it.RankLast = r, r
		}
	}
	return it
}

// proxyServiceHead opens the WARN of a process's proxy service thread, which names the
// process's rank: `[Proxy Service 2] Failed to execute operation Connect from rank 2, retcode 3`.
var proxyServiceHead = []byte("[Proxy Service ")

// proxyRank is the rank a proxy service's WARN names as its process's.
func proxyRank(msg []byte) (int64, bool) {
	if !bytes.HasPrefix(msg, proxyServiceHead) {
		return 0, false
	}
	rest := msg[len(proxyServiceHead):]
	r, n := decimalAt(rest)
	return r, n > 0 && n < len(rest) && rest[n] == ']'
}

// warnFile is the source file (its last path element) and line that a WARN line names
// before `NCCL WARN ` (`paths.cc:82`), nil where it names none; msg is the line's message, a
// slice of text, so that where it starts is known without searching.
func warnFile(text, msg []byte) []byte {
	const warn = " NCCL WARN "
	start := cap(text) - cap(msg) // msg is text[start:...]
	if msg == nil || start < len(warn) || start > len(text) || string(text[start-len(warn):start]) != warn {
		return nil
	}
	head := text[:start-len(warn)]
	site := head[bytes.LastIndexByte(head, ' ')+1:]
	site = site[bytes.LastIndexByte(site, '/')+1:]
	if len(site) == 0 || bytes.IndexByte(site, ':') < 0 {
		return nil
	}
	return site
}

// warnSite is a hash of a WARN's warnFile, 0 where it names none. Sites only tell WARNs
// apart: two that hash alike share their caps.
func warnSite(site []byte) uint32 {
	if site == nil {
		return 0
	}
	h := uint32(2166136261) // FNV-1a
	for _, c := range site {
		h = (h ^ uint32(c)) * 16777619
	}
	return h | 1 // never 0, which means none
}

// isWarn reports whether e is the evidence of a WARN line.
func (e Ev) isWarn() bool {
	return e >= evNetError && e <= evWarn || e == evShm || e == evInternal
}

// warnEvs is the evidence kind of each WARN origin.
var warnEvs = [...]Ev{
	ncclwarn.Other: evWarn, ncclwarn.RemoteClosed: evRemoteClosed, ncclwarn.FollowOn: evFollowOn,
	ncclwarn.NetEvent: evNetWeak, ncclwarn.NetError: evNetError, ncclwarn.Bootstrap: evBootstrap,
	ncclwarn.Cuda: evCuda, ncclwarn.Invalid: evInvalid, ncclwarn.System: evSystem, ncclwarn.Shm: evShm,
	ncclwarn.Internal: evInternal,
}

// classifyWarn is the evidence kind of a WARN's message, by its origin.
func classifyWarn(msg []byte) Ev { return warnEvs[ncclwarn.Classify(msg)] }

// resultCode is the ncclResult a message shows (`res=6`, `-> 6`), or -1.
func resultCode(msg []byte) int64 {
	for _, k := range []string{"res=", "-> "} {
		if i := bytes.LastIndex(msg, []byte(k)); i >= 0 {
			if v, ok := leadingInt(msg[i+len(k):]); ok {
				return v
			}
		}
	}
	return -1
}

// leadingInt reads the up to 4 digits b starts with.
func leadingInt(b []byte) (int64, bool) {
	j := 0
	for j < len(b) && j < 4 && b[j] >= '0' && b[j] <= '9' {
		j++
	}
	if j == 0 {
		return 0, false
	}
	// At most 4 digits: no overflow, and no string made for strconv (a call per arrow of
	// every connection line).
	var v int64
	for _, c := range b[:j] {
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// peerHost is the host of `Connection closed by remote peer <host><port>`, or the address a
// failed send or receive names (`Call to recv from <addr><port> failed : Broken pipe`).
func peerHost(msg []byte) string {
	const k = "remote peer "
	i := bytes.Index(msg, []byte(k))
	if i < 0 {
		return portAddr(msg)
	}
	rest := msg[i+len(k):]
	from := 0
	if end := bytes.IndexByte(rest, '>'); len(rest) > 0 && rest[0] == '<' && end > 0 {
		if _, port := leadingInt(rest[1:end]); !port {
			// A name the user redacted in brackets (`<cluster_name>.ibnet<53735>`): its
			// port follows the bracket that closes it.
			from = end + 1
		}
	}
	j := bytes.IndexAny(rest[from:], "< \t")
	if j < 0 {
		j = len(rest) - from
	}
	return clip(rest[:min(from+j, 253)])
}

// portAddr is the address of the first word that carries a port (`10.1.2.3<40123>`).
func portAddr(msg []byte) string {
	for _, w := range bytes.Fields(msg[:min(len(msg), maxText*4)]) {
		if j := bytes.IndexByte(w, '<'); j > 0 {
			return clip(w[:min(j, 253)])
		}
	}
	return ""
}

// addFrame reads a frame of an error's return-code chain, an INFO line whose message is
// `file:line -> N` (then maybe ` [Async thread]` or ` (reason)`), N not 0.
// It reports whether the line was one, and keeps it where it was; a line that is none (most
// INFO lines) returns before an Item is made, as this runs on every INFO line.
func (p *Part) addFrame(n int64, text []byte, l *parser.Line) bool {
	const arrow = " -> "
	i := lastArrow(text)
	if i < 0 {
		return false
	}
	// The frame's `file:line` first: a connection line's `0[0] -> 1[0]` has no colon there.
	j := bytes.LastIndexByte(text[:i], ' ')
	where := text[j+1 : i]
	k := bytes.LastIndexByte(where, ':')
	if k <= 0 || !bytes.HasSuffix(text[:max(j, 0)], []byte(" INFO")) {
		return false
	}
	rest := text[i+len(arrow):]
	code, ok := leadingInt(rest)
	if !ok || code == 0 {
		return false
	}
	if d := digits(code); d < len(rest) && rest[d] != ' ' && rest[d] != '\r' {
		return false // a connection line's `0[0] -> 1[0]`
	}
	if _, ok := leadingInt(where[k+1:]); !ok || bytes.IndexByte(where[:k], '.') < 0 {
		return false
	}
	it := newItem(evFrame, n, l)
	it.Code = code
	if u := unlinked(where); len(u) < len(where) {
		it.Name, it.Text = clip(u), clip(append(append([]byte(nil), u...), text[i:]...))
	} else {
		it.Name, it.Text = clip(where), clip(text[j+1:])
	}
	had := len(p.items)
	p.keep(it)
	if len(p.items) > had {
		p.frameKept(l) // swallowed.go
	}
	return true
}

// unlinked is a frame's place as NCCL printed it where a paste made it a markdown link:
// `.cc` is a top-level domain, so a page that links addresses turns `shm.cc:634` into
// `[shm.cc:634](http://shm.cc:634/)`, and copying it back as markdown keeps the link
// (`transport/[shm.cc:634](http://shm.cc:634/) -> 2`). Elsewhere it is where itself.
func unlinked(where []byte) []byte {
	i := bytes.Index(where, []byte("]("))
	if i < 0 || where[len(where)-1] != ')' {
		return where
	}
	open := bytes.IndexByte(where[:i], '[')
	if open < 0 {
		return where
	}
	return append(append([]byte(nil), where[:open]...), where[open+1:i]...)
}

// digits is how many digits v (not negative) has in base 10, as strconv.FormatInt writes it.
func digits(v int64) int {
	d := 1
	for ; v >= 10; v /= 10 {
		d++
	}
	return d
}

// lastArrow is where the last ` -> ` of text starts, or -1. bytes.LastIndex searches
// backwards by rolling hash, and bytes.Index forward stops at every space; the vectorised
// search for '>' stops only at the few such bytes an INFO line holds.
func lastArrow(text []byte) int {
	last := -1
	for at := 0; ; {
		i := bytes.IndexByte(text[at:], '>')
		if i < 0 {
			return last
		}
		g := at + i
		if g >= 2 && g+1 < len(text) && text[g-2] == ' ' && text[g-1] == '-' && text[g+1] == ' ' {
			last = g - 2
		}
		at = g + 1
	}
}

// watchdogItem reads a watchdog line that says a collective timed out or failed.
func watchdogItem(n int64, l *parser.Line) (Item, bool) {
	w := l.Watchdog
	if w == nil {
		return Item{}, false
	}
	switch w.Event {
	case parser.WatchdogTimeout, parser.WatchdogTimeoutAt, parser.WatchdogException, parser.WatchdogFailure:
	case parser.WatchdogDumpReceived:
		return dumpItem(n, l, w) // dumpsignal.go
	default:
		return Item{}, false
	}
	it := newItem(evWatchdog, n, l)
	// The rank in brackets is the process group's (`[PG ID 12 PG GUID 120 Rank 0]`): the
	// global rank only in the default group. The launcher's `[rank14]:` label, where the line
	// has one, is the global rank.
	if w.Rank >= 0 && (l.Rank < 0 || w.PG <= 0) {
		it.Rank, it.GroupRank = w.Rank, w.PG > 0
	}
	it.Seq = w.Seq
	if w.PG >= 0 && w.PG < math.MaxInt32 {
		it.Group = int32(w.PG) + 1
	}
	it.Name = w.Event.String()
	it.Text = watchdogText(w)
	return it, true
}

func watchdogText(w *parser.Watchdog) string {
	s := fmt.Sprintf("rank %d: watchdog %s", w.Rank, w.Event)
	if w.PG > 0 { // the rank is the group's, not the global one a summary names
		s = fmt.Sprintf("rank %d of process group %d: watchdog %s", w.Rank, w.PG, w.Event)
	}
	if w.Seq >= 0 { // PyTorch before 1.13 prints no SeqNum
		s += fmt.Sprintf(" at work %d", w.Seq)
	}
	if w.OpType != "" {
		s += " (" + w.OpType
		if w.NumelIn >= 0 && w.NumelOut >= 0 {
			s += fmt.Sprintf(", NumelIn %d, NumelOut %d", w.NumelIn, w.NumelOut) // watchorder.go compares them
		}
		s += ")"
	}
	if w.TimeoutMs > 0 {
		s += fmt.Sprintf(", timeout %d ms", w.TimeoutMs)
	}
	return s
}
