package parser

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
)

// Grammar is the parser of record: it reads any line with the participle grammars of this
// package. It is slow (tens of MB/s); Parser calls it only where the scanner cannot vouch for
// a line. A built participle parser is read-only, so one Grammar serves every goroutine.
// Each grammar is built on its first use (lazyGrammar): a run whose lines never reach one
// (most logs hold no failure evidence, no NCCL 2.2 envelope) never pays for building it.
type Grammar struct {
	nccl     func() *participle.Parser[gNCCLLine]
	coll     func() *participle.Parser[gCollective]
	progress func() *participle.Parser[gProgressLine]
	bare     func() *participle.Parser[gBareLine]
	watchdog func() *participle.Parser[gWatchdogLine]
	failure  func() *participle.Parser[gFailureLine]
	// failGlued reads a failure head glued on after other text.
	failGlued func() *participle.Parser[gFailGlued]
	// handler reads a crash handler's line (gHandlerLine).
	handler func() *participle.Parser[gHandlerLine]
	// rareFail reads the failure lines of gRareFailLine.
	rareFail func() *participle.Parser[gRareFailLine]
	// host reads an envelope that names no pid:tid (gHostLine).
	host func() *participle.Parser[gHostLine]
	// old reads NCCL 2.2's envelope without `NCCL` (gOldLine).
	old   func() *participle.Parser[gOldLine]
	stamp func() *stampGrammar // built on first use
	// times says who reads a line's times: the time grammars, but in Parser's copy
	// (withScannerTimes).
	times timeReader
}

// builtGrammar is the Grammar every caller shares; its grammars are built on first use
// (about 1 to 5 ms each, 20 ms in all) and never changed after that.
var builtGrammar = sync.OnceValue(buildGrammar)

// NewGrammar returns the grammars, built on first use. The error is always nil: the grammars
// are static, and a grammar that does not build panics at its first use (tests build it).
func NewGrammar() (*Grammar, error) { return builtGrammar(), nil }

func buildGrammar() *Grammar {
	return &Grammar{
		nccl:      lazyGrammar[gNCCLLine](),
		coll:      lazyGrammar[gCollective](),
		progress:  lazyGrammar[gProgressLine](),
		bare:      lazyGrammar[gBareLine](),
		watchdog:  lazyGrammar[gWatchdogLine](),
		failure:   lazyGrammar[gFailureLine](),
		failGlued: lazyGrammar[gFailGlued](),
		handler:   lazyGrammar[gHandlerLine](),
		rareFail:  lazyGrammar[gRareFailLine](),
		host:      lazyGrammar[gHostLine](),
		old:       lazyGrammar[gOldLine](),
		stamp:     builtStampGrammar,
	}
}

// lazyGrammar returns a function that builds the line grammar G on its first call, once for
// every goroutine (sync.OnceValue), and returns it on every call.
func lazyGrammar[G any]() func() *participle.Parser[G] {
	return sync.OnceValue(func() *participle.Parser[G] {
		return participle.MustBuild[G](participle.Lexer(lineLexer), participle.UseLookahead(participle.MaxLookahead))
	})
}

// Parse classifies one line (without its newline; a trailing CR is ignored) and reads its
// fields.
func (g *Grammar) Parse(line []byte) Line {
	b := trimCR(line)
	l := g.parseText(string(b))
	if st := g.lineTime(b); !st.IsZero() {
		l.Time = st // wall time, where the line has it, over a TRACE line's time since init
	}
	return l
}

// parseText classifies a line and reads its fields (and a TRACE line's time since init).
func (g *Grammar) parseText(text string) Line {
	if l, ok := g.parseNCCL(text); ok {
		return l
	}
	if l, ok := g.parseProgress(text); ok {
		return l
	}
	if l, ok := g.parseWatchdog(text); ok {
		return l
	}
	l := g.parseBare(text)
	if l.Kind == KindOther {
		if ol, ok := g.parseOld(text); ok {
			return ol
		}
		if fl, ok := g.parseFailureLine(text); ok {
			return fl
		}
	}
	return l
}

// parseNCCL reads a line with an envelope. Where another envelope follows inside the message
// (output of two processes spliced into one line), the last envelope's record is the one kept;
// so is a record whose envelope runs straight on from another process's cut-off head.
func (g *Grammar) parseNCCL(text string) (Line, bool) {
	if !mayHoldEnvelope([]byte(text)) { // grammar_gates.go
		return Line{}, false
	}
	tree, err := g.nccl().ParseString("", text)
	if err != nil {
		return Line{}, false
	}
	from := prefixEnd(tree.Prefix)
	if at := g.laterEnvelope(text, tree.Env.Pos.Offset); at > 0 {
		l, _ := g.parseNCCL(text[at:])
		l.Rank, l.Spliced = prefixRank(tree.Prefix), true
		cutGluedHost(&l, text[from:at])
		return l, true
	}
	l := g.lineFromTree(tree)
	cutGluedHost(&l, text[from:tree.Env.Pos.Offset])
	if k := len(tree.Junk); k > 0 && isCutHead(tree.Junk[k-1].HPT) {
		l.Spliced = true
	}
	if l.Kind == KindInfo && tree.Msg != nil && tree.Msg.Other != nil && hasWord(tree.Msg.Other, "opCount") {
		l.Kind, l.Reason = KindMalformed, g.collReason(tree.Msg.Other)
	}
	if tree.Msg != nil {
		g.gluedRecord(&l, text, tree.Msg.Pos.Offset)
	}
	return l, true
}

// cutGluedHost gives the host of l's envelope back the bytes that belong to the text before
// it on its line (gluedHostCut).
func cutGluedHost(l *Line, before string) {
	if l.Env.HasEnvelope() {
		l.Env.Host = l.Env.Host[gluedHostCut(before, l.Env.Host):]
	}
}

// gluedRecord reads, in place of l, a record without an envelope run on from the message
// of l's envelope (which starts at msg): after a whole record, or after text that does not
// read as one.
func (g *Grammar) gluedRecord(l *Line, text string, msg int) {
	switch {
	case l.Kind == KindCollective && strings.Count(text[msg:], opCountMark) > 1:
	case l.Kind == KindMalformed:
	default:
		return
	}
	c, unknown, glued, ok := g.lastRecord(text, msg)
	if ok && glued {
		*l = Line{Kind: KindCollective, Rank: l.Rank, Coll: c, UnknownKey: unknown, Spliced: true}
	}
}

// laterEnvelope returns the offset of the first HPT token after the envelope at env from which
// a whole envelope reads (no junk before it), or 0.
func (g *Grammar) laterEnvelope(text string, env int) int {
	i, _ := tokenEnd(text, env)
	for i < len(text) {
		end, isHPT := tokenEnd(text, i)
		if isHPT {
			if next, err := g.nccl().ParseString("", text[i:]); err == nil && len(next.Prefix) == 0 && len(next.Junk) == 0 {
				return i
			}
		}
		i = end
	}
	return 0
}

func hasWord(toks []*gTok, w string) bool {
	for _, t := range toks {
		if t.Tok == w {
			return true
		}
	}
	return false
}

// collReason says why a message that names an opCount is not a collective line.
func (g *Grammar) collReason(toks []*gTok) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteString(t.text())
	}
	_, err := g.coll().ParseString("", b.String())
	var perr participle.Error
	if !errors.As(err, &perr) {
		return "unreadable collective line"
	}
	what, _, _ := strings.Cut(perr.Message(), " (expected")
	what = strings.ReplaceAll(strings.TrimPrefix(what, "failed to capture: "), `token "<EOF>"`, "end of line")
	return fmt.Sprintf("unreadable collective line: %s at column %d of the message", what, perr.Position().Column)
}

func (g *Grammar) lineFromTree(t *gNCCLLine) Line {
	l := Line{Rank: prefixRank(t.Prefix)}
	l.Env = envelopeFromTree(t.Env)
	l.Kind = kindOfLevel(l.Env.Level)
	if l.Env.Level == LevelTrace && len(t.Env.Loc) > 0 {
		l.Time, _ = g.sinceInit(t.Env.Loc[0])
	}
	if t.Msg == nil || l.Env.Level == LevelWarn || l.Kind == KindTrace {
		return l
	}
	switch {
	case t.Msg.Coll != nil:
		l.Kind, l.Coll = KindCollective, collectiveFromTree(t.Msg.Coll)
		l.UnknownKey = strings.Clone(t.Msg.Coll.unknownKey())
	case t.Msg.Comm != nil:
		if c, ok := commFromTree(t.Msg.Comm); ok {
			l.Kind, l.Comm = KindComm, c
		}
	}
	return l
}

func kindOfLevel(lv Level) Kind {
	switch lv {
	case LevelWarn:
		return KindWarn
	case LevelTrace, LevelCall:
		return KindTrace
	}
	return KindInfo
}

func prefixRank(ps []*gPrefix) int64 {
	for _, p := range ps {
		if r := p.rank(); r >= 0 {
			return r
		}
	}
	return -1
}

func envelopeFromTree(e *gEnvelope) Envelope {
	env := Envelope{Host: e.HPT.Host, Pid: e.HPT.Pid, Tid: e.HPT.Tid, Dev: -1}
	if e.Call {
		env.Level = LevelCall
		return env
	}
	env.Dev = int64(*e.Dev)
	env.Level = levelFromWord(e.Level)
	return env
}

func collectiveFromTree(c *gCollective) Collective {
	out := Collective{
		Op: Op(strings.Clone(string(c.Op))), OpCount: uint64(c.OpCount),
		SendBuff: c.SendBuff.V, RecvBuff: c.RecvBuff.V,
		Count: int64(c.Count), Datatype: c.Datatype, RedOp: c.RedOp,
		Root: int64(c.Root), Comm: c.Comm.V, NRanks: int64(c.NRanks),
		Task: -1, GlobalRank: -1,
	}
	out.Unread = unreadIf(c.SendBuff.Unread, PtrSend) | unreadIf(c.RecvBuff.Unread, PtrRecv) |
		unreadIf(c.Comm.Unread, PtrComm) | unreadIf(c.Stream == nil || c.Stream.Unread, PtrStream)
	if c.Stream != nil {
		out.Stream = c.Stream.V
	}
	if c.RCCL != nil {
		out.Task, out.GlobalRank = int64(c.RCCL.Task), int64(c.RCCL.GlobalRank)
	}
	return out
}

func unreadIf(unread bool, f PtrFields) PtrFields {
	if unread {
		return f
	}
	return 0
}

// isCutHead reports whether an HPT token run straight into an envelope is another process's
// cut-off `host:pid:tid` rather than a clock time (a timestamp format without a trailing space
// also runs into the host): a host name holds a letter, a time does not.
func isCutHead[T text](hpt T) bool {
	for i := 0; i < len(hpt) && hpt[i] != ':'; i++ {
		if c := hpt[i] | 0x20; c >= 'a' && c <= 'z' {
			return true
		}
	}
	return false
}
