package parser

import (
	"strings"
)

// watchdogPhrases are the phrases of the watchdog messages: "Watchdog caught" (timeout),
// "by watchdog" (exception, failure), "NCCL work" (Timeout at), "signal dumping" and "dump
// signal" (flight recorder). The watchdog grammar reads only lines that hold one, so that
// other lines never pay for it, and the scanner leaves exactly these lines to the grammar.
var watchdogPhrases = [...]string{"Watchdog caught", "by watchdog", "NCCL work", "signal dumping", "dump signal"}

// mayBeWatchdog reports whether text holds one of watchdogPhrases.
func mayBeWatchdog(text string) bool {
	for _, p := range watchdogPhrases {
		if strings.Contains(text, p) {
			return true
		}
	}
	return false
}

// parseWatchdog reads a watchdog or flight-recorder line.
func (g *Grammar) parseWatchdog(text string) (Line, bool) {
	if !mayBeWatchdog(text) {
		return Line{}, false
	}
	tree, err := g.watchdog().ParseString("", text)
	if err != nil {
		return Line{}, false
	}
	w := watchdogFromMsg(tree.Msg)
	if t := tree.Tag; t != nil {
		w.Rank = int64(t.Rank)
		w.PG, w.PGGUID, w.PGName = t.pg()
	}
	if h := tree.Glog; h != nil {
		w.Glog = GlogHead{Level: h.Level.Level, Month: h.Level.Month, Day: h.Level.Day, Nanos: -1,
			File: strings.Clone(h.File), FileLine: int64(h.Line)}
		if h.Clock != nil {
			w.Glog.Nanos = int64(*h.Clock)
		}
	}
	return Line{Kind: KindWatchdog, Rank: prefixRank(tree.Prefix), Watchdog: &w}, true
}

// noWatchdog is a Watchdog with every number absent.
var noWatchdog = Watchdog{Rank: -1, FromRank: -1, PG: -1, Seq: -1, NumelIn: -1, NumelOut: -1,
	TimeoutMs: -1, RanForMs: -1, LastEnqueued: -1, LastStarted: -1, LastCompleted: -1}

func watchdogFromMsg(m *gWatchdogMsg) Watchdog {
	w := noWatchdog
	switch {
	case m.Timeout != nil:
		t := m.Timeout
		w.Event, w.OpType = WatchdogTimeout, strings.Clone(t.OpType)
		w.Seq, w.NumelIn, w.NumelOut = optDec(t.Seq), optDec(t.NumelIn), optDec(t.NumelOut)
		w.TimeoutMs, w.RanForMs = optDec(t.Timeout), optDec(t.RanFor)
	case m.Except != nil:
		w.Event, w.Seq = WatchdogException, int64(m.Except.Seq)
		m.Except.Status.fill(&w)
	case m.Failure != nil:
		w.Event, w.Seq = WatchdogFailure, int64(m.Failure.Seq)
		m.Failure.Status.fill(&w)
	case m.At != nil:
		w.Event, w.Seq = WatchdogTimeoutAt, int64(m.At.Seq)
		m.At.Status.fill(&w)
	case m.First:
		w.Event = WatchdogDumpFirst
	case m.Observed:
		w.Event = WatchdogDumpObserved
	default:
		w.Event, w.FromRank = WatchdogDumpReceived, optDec(m.Received.From)
		m.Received.Status.fill(&w)
	}
	return w
}

func (q *gWDQueue) fill(w *Watchdog) {
	w.LastEnqueued, w.LastCompleted = int64(q.Enqueued), int64(q.Completed)
	if q.Started != nil {
		w.LastStarted, w.StartedOp = int64(*q.Started), strings.Clone(q.StartedOp)
	}
}

// pg returns the tag's process group id (-1 when absent), GUID and name.
func (t *gPGTag) pg() (int64, string, string) {
	switch {
	case t.PGID != nil:
		return int64(*t.PGID), strings.Clone(t.GUID), strings.Join(t.GName, "")
	case t.PG != nil:
		return int64(*t.PG), "", strings.Join(t.PGName, "")
	}
	return -1, "", ""
}
