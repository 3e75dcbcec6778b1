package parser

import "strings"

// watchdogHead opens the watchdog's timeout message inside another message.
const watchdogHead = "Watchdog caught"

// messageWatchdog reads the watchdog timeout that the message of f (a terminate's what(),
// an exception's or an ncclResult's text) reports, as parseWatchdog reads a watchdog line:
// from the process group tag right before `Watchdog caught` where there is one, else from
// `Watchdog caught`. It returns nil where the message holds none. The scanner leaves every
// line holding the phrase to the grammar (watchdogPhrases), so only the grammar reads it.
func (g *Grammar) messageWatchdog(f *Failure, m *gFailMsg) *Watchdog {
	msg := failMessage(m)
	k := strings.Index(msg, watchdogHead)
	if k < 0 {
		return nil
	}
	for _, from := range [...]int{tagBefore(msg, k), k} {
		if from < 0 {
			continue
		}
		if l, ok := g.parseWatchdog(msg[from:]); ok && l.Watchdog.Event == WatchdogTimeout {
			w := l.Watchdog
			if w.Rank < 0 {
				w.Rank = f.Task
			}
			if w.PG < 0 {
				g.headPG(w, msg, k)
			}
			return w
		}
	}
	return nil
}

// headPG gives w the process group of the tag that opens msg (`[PG 3 Rank 5] Process group
// watchdog thread terminated with exception: [Rank 5] Watchdog caught ...`): the timeout's
// own tag names only the rank.
func (g *Grammar) headPG(w *Watchdog, msg string, k int) {
	end := strings.IndexByte(msg, ']')
	if !strings.HasPrefix(msg, "[PG ") || end < 0 || end > k {
		return
	}
	if l, ok := g.parseWatchdog(msg[:end+1] + " " + msg[k:]); ok {
		w.PG, w.PGGUID, w.PGName = l.Watchdog.PG, l.Watchdog.PGGUID, l.Watchdog.PGName
	}
}

// failMessage is the message text of a terminate's what(), an exception or an ncclResult
// line; "" for other failure lines.
func failMessage(m *gFailMsg) string {
	switch {
	case m.Terminate != nil:
		return strings.Join(m.Terminate.What, "")
	case m.What != nil:
		return strings.Join(m.What, "")
	case m.Except != nil:
		return strings.Join(m.Except.Msg, "")
	}
	return ""
}

// tagBefore returns where the bracketed tag `[Rank 5] ` or `[PG 3 Rank 5] ` that ends right
// before msg[k:] starts, or -1.
func tagBefore(msg string, k int) int {
	if !strings.HasSuffix(msg[:k], "] ") {
		return -1
	}
	return strings.LastIndexByte(msg[:k], '[')
}

// rootFieldTime is the time of torchrun's `time : 2024-07-10_14:44:36` field line, or no
// time.
func rootFieldTime(f *Failure) Stamp {
	if f.Event != FailureRootField || f.Field != "time" {
		return Stamp{}
	}
	st, _ := torchrunStamp([]byte(f.Text))
	return st
}

// torchrunStamp reads `YYYY-MM-DD_HH:MM:SS`, the whole of b.
func torchrunStamp(b []byte) (Stamp, bool) {
	if len(b) != len("2024-07-10_14:44:36") || b[4] != '-' || b[7] != '-' || b[10] != '_' {
		return Stamp{}, false
	}
	y, ok1 := digits(b, 0, 4)
	mo, ok2 := digits(b, 5, 2)
	d, ok3 := digits(b, 8, 2)
	days, ok4 := civilDays(y, mo, d)
	ns, end := clockAt(b, 11)
	if !(ok1 && ok2 && ok3 && ok4) || end != len(b) {
		return Stamp{}, false
	}
	return Stamp{Nanos: days*86400*secNanos + ns, Form: StampTorchrun}, true
}
