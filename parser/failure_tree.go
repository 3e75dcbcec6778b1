package parser

import (
	"strings"
)

// parseFailure reads a line of failure evidence: text (the whole line) has read as other
// text, and mayBeFailure holds. The line's own head is tried first, then, where the line
// holds one of the heads that may be glued on after other text (glued), that head.
func (g *Grammar) parseFailure(text string, glued bool) (Line, bool) {
	if l, ok := g.parseHandler(text); ok {
		return l, true
	}
	if l, ok := g.parseRareFail(text); ok {
		return l, true
	}
	if t, err := g.failure().ParseString("", text); err == nil {
		if f, ok := failureFromMsg(t.Msg, t.Indent != ""); ok {
			f.Watchdog = g.messageWatchdog(&f, t.Msg)
			return Line{Kind: KindFailure, Rank: prefixRank(t.Prefix), Fail: &f, Time: rootFieldTime(&f)}, true
		}
	}
	if !glued {
		return Line{}, false // the glued grammar's heads hold those words: it cannot read the line
	}
	t, err := g.failGlued().ParseString("", text)
	if err != nil {
		return Line{}, false
	}
	f, ok := failureFromMsg(t.Msg, false)
	if !ok {
		return Line{}, false
	}
	f.Watchdog = g.messageWatchdog(&f, t.Msg)
	// Glued: the head runs straight on from the text before it; after white space (a pdsh
	// `host: ` label, a time) it is the line's own.
	spliced := !isSp(t.Junk[len(t.Junk)-1][0])
	return Line{Kind: KindFailure, Rank: prefixRank(t.Prefix), Fail: &f, Spliced: spliced}, true
}

// parseFailureLine reads text as failure evidence where mayBeFailure lets it be some. Where a
// bare time follows the line's prefixes, the grammar reads the text after it, and the line's
// rank is the prefixes' before it where they give one.
func (g *Grammar) parseFailureLine(text string) (Line, bool) {
	b := []byte(text)
	start, rank := scanPrefixes(b)
	words := wordsIn(b[start:])
	fs, _ := failureStart(b, start)
	if !mayBeFailure(b, fs, words) {
		return Line{}, false
	}
	s := stampedStart(b, start)
	if s == start {
		return g.parseFailure(text, words&maskFailGlue != 0)
	}
	l, ok := g.parseFailure(text[s:], words&maskFailGlue != 0)
	if ok && rank >= 0 {
		l.Rank = rank
	}
	return l, ok
}

// noFailure is a Failure with every number absent.
var noFailure = Failure{Task: -1, TaskLast: -1, LocalRank: -1, Pid: -1, GPU: -1, ExitCode: -1}

// failureFromMsg reads the message; indented says whether white space came before it
// (torchrun indents its fields).
func failureFromMsg(m *gFailMsg, indented bool) (Failure, bool) {
	f := noFailure
	switch {
	case m.TaskExit != nil:
		return taskExit(f, m.TaskExit)
	case m.Aborted != nil:
		f.Event, f.Text = FailureStepAborted, failureText(strings.Join(m.Aborted.Msg, ""))
	case m.Cancelled != nil:
		f.Event, f.Host = FailureStepCancelled, strings.Join(m.Cancelled.Host, "")
		f.Text = failureCancelReason(strings.Join(m.Cancelled.Tail, ""))
	case m.Root:
		f.Event = FailureRootCause
	case m.Other:
		f.Event = FailureOtherFailures
	case m.Agent != nil:
		return agentExit(f, m.Agent)
	case m.Field != nil:
		return rootField(f, m.Field, indented)
	case m.MPIExit:
		f.Event = FailureMPIExit
	case m.MPIName != nil:
		f.Event, f.Task, f.TaskLast = FailureMPIProcess, int64(*m.MPIName), int64(*m.MPIName)
	case m.MPICode != nil:
		f.Event, f.ExitCode, f.HasExit = FailureMPIProcess, int64(*m.MPICode), true
	case m.Traceback:
		f.Event = FailureTraceback
	case m.Terminate != nil:
		f.Event, f.Exception = FailureTerminate, strings.Trim(trimLexSp(strings.Join(m.Terminate.Type, "")), "'")
		if m.Terminate.What != nil {
			msg := strings.Join(m.Terminate.What, "")
			f.Text = failureText(msg)
			ncclDetail(&f, msg)
		}
	case m.What != nil:
		msg := strings.Join(m.What, "")
		f.Event, f.Text = FailureTerminate, failureText(msg)
		ncclDetail(&f, msg)
	case m.LastError != nil:
		f.Event, f.LastError = FailureLastError, failureText(strings.Join(m.LastError.Msg, ""))
	case m.Signal != nil:
		f.Event, f.Signal = FailureSignal, m.Signal.name()
		if f.Signal == "" {
			return f, false
		}
	case m.RAS != nil:
		return rasFailure(f, m.RAS)
	case m.Except != nil && strings.HasPrefix(m.Except.Name, `"`):
		return rasJSONField(f, m.Except.Name, m.Except.Msg)
	case m.Except != nil:
		return exceptionLine(f, m.Except.Name, strings.Join(m.Except.Msg, ""))
	default:
		return f, false
	}
	return f, true
}

// exceptionLine reads `<name>: <msg>`: a Python exception's last line, or the ncclResult
// line PyTorch prints under an NCCL exception. The scanner reads through it too.
func exceptionLine(f Failure, name, msg string) (Failure, bool) {
	if r := resultNamed(name); r != ResultNone {
		f.Event, f.Result, f.Text = FailureNCCLResult, r, failureText(msg)
		ncclDetail(&f, msg)
		return f, true
	}
	if !isExceptionName(name) {
		return f, false
	}
	f.Event, f.Exception, f.Text = FailureException, strings.Clone(name), failureText(msg)
	ncclDetail(&f, msg)
	return f, true
}
