package parser

import (
	"bytes"
	"strings"
)

// handlerHead is what Open MPI's handler prints before the signal's own line: the signal it
// names is this until that line says which.
const handlerHead = "Process received signal"

// parseHandler reads text (a line or its rest after a bare time) as a crash handler's line,
// where its text after the prefixes and any indent opens as mayBeHandlerLine lets one.
func (g *Grammar) parseHandler(text string) (Line, bool) {
	b := []byte(text)
	start, _ := scanPrefixes(b)
	h := b[spEnd(b, start):]
	if len(h) == 0 || h[0] != '[' || !mayBeHandlerLine(h) {
		return Line{}, false
	}
	t, err := g.handler().ParseString("", text)
	if err != nil {
		return Line{}, false
	}
	f, ok := handlerSignal(noFailure, t.Msg)
	if !ok {
		return Line{}, false
	}
	return Line{Kind: KindFailure, Rank: prefixRank(t.Prefix), Fail: &f}, true
}

// handlerSignal reads a crash handler's line (gFailHandler): the process in its brackets
// (host and pid) and the signal it names.
func handlerSignal(f Failure, h *gFailHandler) (Failure, bool) {
	f.Event = FailureSignal
	if h.HPT != "" {
		host, rest, _ := strings.Cut(h.HPT, ":") // host:pid:thread, as the lexer's HPT
		pid, _, _ := strings.Cut(rest, ":")
		v, err := parseDec(pid)
		if err != nil {
			return f, false
		}
		f.Host, f.Pid = strings.Clone(host), v
	} else {
		f.Host, f.Pid = strings.Join(h.Host, ""), int64(*h.Pid)
	}
	switch {
	case h.Head:
		f.Signal = handlerHead
	case h.Name != nil:
		f.Signal = strings.Join(h.Name, "")
	default:
		f.Signal = strings.Join(h.Caught, "")
	}
	return f, true
}

// handlerHeads are the words after a crash handler's bracketed process (gFailHandler); a space
// stands for any run of white space, as litSp reads it.
var handlerHeads = [...]string{"*** Process received signal ***", "Signal:", "Caught signal "}

// mayBeHandlerLine reports whether h, which opens with '[', may be a crash handler's line: its
// first ']' (neither a host nor a pid holds one), white space, then one of handlerHeads. It
// lets through every line gFailHandler reads, looking no further than the bracket's end.
func mayBeHandlerLine(h []byte) bool {
	i := bytes.IndexByte(h, ']')
	if i < 0 {
		return false
	}
	j := spEnd(h, i+1)
	if j == i+1 || j == len(h) || h[j] != '*' && h[j] != 'S' && h[j] != 'C' {
		return false // most bracketed text: a label, a level, a file:line
	}
	for _, w := range handlerHeads {
		if litSp(h[j:], w) {
			return true
		}
	}
	return false
}
