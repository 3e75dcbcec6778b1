package diagnose

import (
	"cmp"
	"slices"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages/ncclwarn"
)

// excRef is an NCCL exception's ncclResult line or `Last error:` message, kept until the builder knows whether
// NCCL's own lines name an origin.
type excRef struct {
	it  *Item
	pos int
	p   *proc
}

// ncclException reports whether it is a line of an NCCL exception: its ncclResult line, or
// an exception or terminate whose message names an ncclResult.
func ncclException(it *Item) bool {
	switch it.Ev {
	case evNCCLResult:
		return true
	case evException, evTerminate:
		return it.Code > 0 && it.Code < int64(numResultKinds)
	}
	return false
}

// numResultKinds bounds the ncclResult codes resultKinds names.
const numResultKinds = int(parser.ResultRemote) + 1

// resultKinds is the kind of finding an ncclResult is where no message says more.
var resultKinds = [numResultKinds]Kind{
	parser.ResultNone: KindRemoteError, parser.ResultUnhandledCuda: KindCudaError,
	parser.ResultSystem: KindSystemError, parser.ResultInternal: KindInternalError,
	parser.ResultInvalidArgument: KindInvalidUsage, parser.ResultInvalidUsage: KindInvalidUsage,
	parser.ResultRemote: KindRemoteError,
}

// exceptionOrigins makes the NCCL exceptions' messages origins where NCCL's own lines name
// none: PyTorch repeats a WARN the log holds, but a log of tracebacks alone holds only the
// repeat. Each process's `Last error:` message is its origin, of the kind its WARN would be;
// a process with an NCCL exception but no message has the exception's ncclResult as its,
// unless the launcher names the process that ended first (launched).
func (b *builder) exceptionOrigins(launched bool) {
	if len(b.owners) > 0 || len(b.loose) > 0 {
		return // the exception's lines repeat what NCCL's own say
	}
	for i := range b.lastErrs {
		b.lastErrs[i].p = b.excProc(b.lastErrs[i])
	}
	closed := false // a message that a peer closed the connection: the peer is the origin
	for _, r := range b.lastErrs {
		if r.it.Ev == evLastError {
			closed = b.lastErrorOrigin(r) || closed
		}
	}
	for _, r := range b.lastErrs {
		if r.it.Ev == evNCCLResult {
			b.consequence(KindRemoteError, r.it, r.pos, r.p)
		}
	}
	if rem := b.conseq[KindRemoteError]; len(b.owners) == 0 && len(b.loose) == 0 && rem != nil && !launched && !closed {
		b.resultOrigin(rem)
	}
	b.takeExceptions()
}

// excProc is the process of an exception's line: its own, else that of the exception's
// line just before it that names one (`what():  [PG 0 Rank 1] ...` over unprefixed lines).
func (b *builder) excProc(r excRef) *proc {
	if r.p != nil {
		return r.p
	}
	for i := r.pos - 1; i >= 0 && i >= r.pos-maxExcLines; i-- {
		it := &b.e.Items[i]
		if !ncclException(it) && it.Ev != evTerminate {
			continue
		}
		if p := b.x.of(it); p != nil {
			return p
		}
	}
	return nil
}

// maxExcLines is how far back excProc looks: an exception's what(), ncclResult and
// `Last error:` lines follow each other.
const maxExcLines = 4

// lastErrorOrigin files one `Last error:` message as its process's origin, or, where it
// says a peer closed the connection, as that follow-on (the peer it names is the one that
// went away first), reporting true.
func (b *builder) lastErrorOrigin(r excRef) bool {
	o := ncclwarn.Classify([]byte(r.it.Text))
	if o == ncclwarn.RemoteClosed {
		q := *r.it
		q.Ev, q.Peer = evRemoteClosed, peerHost([]byte(q.Text))
		b.item(&q, r.pos)
		return true
	}
	k, fault := excResultKind(b.lastErrCode(r)), true
	if o.Fault() && o != ncclwarn.FollowOn {
		k, _ = ownKind(&Item{Ev: warnEvs[o], Text: r.it.Text}) // its text: `Cuda failure 2 'out of memory'` is an oom
	} else {
		k = netKind(k, r.it.Text)
	}
	c := newCand(k, fault)
	c.add(r.it, r.pos, r.p)
	namedRanks(c, r.it)
	c.peer = r.it.Peer
	b.ownAdd(r.p, c)
	return false
}

// lastErrCode is the ncclResult of a `Last error:` message: its own where its line named one,
// else that of its process's NCCL exception just before it (the `ncclInternalError: ...` line
// over `Last error:`), -1 where none.
func (b *builder) lastErrCode(r excRef) int64 {
	if r.it.Code > 0 {
		return r.it.Code
	}
	for i := r.pos - 1; i >= 0 && i >= r.pos-maxExcLines; i-- {
		it := &b.e.Items[i]
		if ncclException(it) && it.Code > 0 && (r.p == nil || b.x.of(it) == nil || b.x.of(it) == r.p) {
			return it.Code
		}
	}
	return r.it.Code
}

// resultOrigin makes the first NCCL exception among the follow-on errors an origin: the
// exceptions are all the log holds.
func (b *builder) resultOrigin(rem *cand) {
	for i, it := range rem.items {
		if !ncclException(it) {
			continue
		}
		c := newCand(excResultKind(it.Code), true)
		c.add(it, rem.order+i, b.x.of(it))
		b.ownAdd(b.x.of(it), c)
		return
	}
}

// takeExceptions moves each origin's process's NCCL exception lines out of the follow-on
// errors into its evidence, and writes its sentence.
func (b *builder) takeExceptions() {
	rem := b.conseq[KindRemoteError]
	procs := make(map[*Item]*proc, len(b.lastErrs))
	for _, r := range b.lastErrs {
		procs[r.it] = r.p
	}
	for _, c := range b.excCands() {
		if rem != nil {
			var kept []*Item
			for _, it := range rem.items {
				if ncclException(it) && sameProc(b.itemProc(it, procs), c) {
					if !slices.Contains(c.items, it) {
						c.items = append(c.items, it)
					}
					continue
				}
				kept = append(kept, it)
			}
			rem.items = kept
		}
		slices.SortStableFunc(c.items, byLine)
		c.summary = excSummary(c)
	}
	if rem != nil && len(rem.items) == 0 {
		delete(b.conseq, KindRemoteError)
	}
}

// byLine orders evidence by line, a `Last error:` message after the exception whose line
// holds it.
func byLine(x, y *Item) int {
	if x.Line != y.Line {
		return cmp.Compare(x.Line, y.Line)
	}
	last := func(it *Item) int {
		if it.Ev == evLastError {
			return 1
		}
		return 0
	}
	return cmp.Compare(last(x), last(y))
}

// itemProc is the process of an item kept among the exceptions' lines.
func (b *builder) itemProc(it *Item, procs map[*Item]*proc) *proc {
	if p, ok := procs[it]; ok {
		return p
	}
	return b.x.of(it)
}

// excCands are the origins made of NCCL exceptions.
func (b *builder) excCands() []*cand {
	var out []*cand
	for _, c := range append(b.ownCands(), b.loose...) {
		if slices.ContainsFunc(c.items, func(it *Item) bool { return it.Ev == evLastError || ncclException(it) }) {
			out = append(out, c)
		}
	}
	return out
}

func (b *builder) ownCands() []*cand {
	out := make([]*cand, 0, len(b.owners))
	for _, p := range b.owners {
		out = append(out, b.own[p])
	}
	return out
}

// sameProc reports whether p is c's process (or both name none).
func sameProc(p *proc, c *cand) bool {
	if p == nil {
		return len(c.procs) == 0
	}
	return slices.Contains(c.procs, p)
}

func excResultKind(code int64) Kind {
	if code > 0 && code < int64(numResultKinds) {
		return resultKinds[code]
	}
	return KindRemoteError
}

// resultName is the ncclResult of c's evidence, "" where none is named.
func resultName(c *cand) string {
	for _, it := range c.items {
		if it.Code > 0 && it.Code < int64(numResultKinds) && (it.Ev == evLastError || ncclException(it)) {
			return parser.NCCLResult(it.Code).String()
		}
	}
	return ""
}

// excSummary is the sentence of an origin made of NCCL exceptions: what NCCL's last message
// says (and the peer it names), or the ncclResult alone.
func excSummary(c *cand) string {
	if s := dupGPUSummary(c); s != "" {
		return s
	}
	s := who(c)
	switch c.kind {
	case KindNetworkError:
		s += " had a network error first"
	case KindCudaError:
		s += " hit a CUDA error first"
	case KindOOM:
		s += " ran out of GPU memory first"
	case KindSystemError:
		s += " hit a system error first"
	case KindInvalidUsage:
		s += " made an invalid NCCL call"
	case KindInitFailure:
		s += " could not start NCCL (its communicator's init failed)"
	case KindRemoteError:
		s += " lost a peer first: NCCL reports a remote process exited or a network error"
	default:
		s += " failed first in NCCL"
	}
	if c.peer != "" {
		s += ", with the peer at " + c.peerShown()
	}
	if r := resultName(c); r != "" {
		s += " (" + r + ")"
	}
	for _, it := range c.items {
		if it.Ev == evLastError && it.Text != "" {
			return s + "; NCCL's last error: " + short(it.Text)
		}
	}
	for _, it := range c.items {
		if it.Text != "" {
			return s + ": " + short(it.Text)
		}
	}
	return s + "."
}
