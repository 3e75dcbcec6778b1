package info

import (
	"bytes"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// warnState groups WARN lines by template (numbers, addresses and host numbers masked).
type warnState struct {
	groups map[string]*warnGroup
	order  []string
	// first is the WARN with the earliest NCCL timestamp (2.26+), if any had one.
	first *FirstWarn
}

type warnGroup struct {
	n           int64
	first, last Evidence
	text        string // the first line's message
	where       string // the first line's location (file:line)
	procs       map[procID]struct{}
}

// FirstWarn is the WARN that NCCL's own timestamps put first across all ranks.
type FirstWarn struct {
	Time     string   `json:"time"`
	Host     string   `json:"host"`
	Pid      int64    `json:"pid"`
	Rank     int64    `json:"rank"`
	Template string   `json:"template"`
	Text     string   `json:"text"`
	Evidence Evidence `json:"evidence"`
}

// maxWarnGroups bounds the templates kept; further templates count in one group.
const maxWarnGroups = 1024

const otherTemplates = "(other templates)"

// maxTemplate is how much of a WARN message makes its template: NCCL's lines are at most
// 1 KiB before 2.29, and a hostile line must not make a megabyte map key.
const maxTemplate = 1024

func newWarnState() warnState { return warnState{groups: map[string]*warnGroup{}} }

func (in *Info) addWarn(text []byte, l *parser.Line, ev Evidence) {
	p := in.proc(l, ev)
	msg := bytes.TrimRight(parser.Message(text, l), " \t\r")
	tmpl := warnTemplate(msg[:min(len(msg), maxTemplate)])
	g := in.warns.group(tmpl)
	if g.n == 0 {
		g.first, g.text, g.where = ev, stages.Excerpt(msg), warnLocation(text)
	}
	g.n++
	g.last = ev
	g.procs[p.key] = struct{}{}
	if ts := ncclStamp(text, l.Env.Host); ts != "" && (in.warns.first == nil || ts < in.warns.first.Time) {
		in.warns.first = &FirstWarn{Time: ts, Host: p.key.Host, Pid: p.key.Pid, Rank: -1, Template: tmpl, Text: stages.Excerpt(msg), Evidence: ev}
	}
	in.chains.warn(threadKey{p.key, l.Env.Tid}, tmpl, ev)
}

func (w *warnState) group(tmpl string) *warnGroup {
	g := w.groups[tmpl]
	if g == nil {
		if len(w.groups) >= maxWarnGroups && tmpl != otherTemplates {
			return w.group(otherTemplates)
		}
		g = &warnGroup{procs: map[procID]struct{}{}}
		w.groups[tmpl] = g
		w.order = append(w.order, tmpl)
	}
	return g
}

func (w *warnState) merge(o *warnState) {
	for _, t := range o.order {
		og := o.groups[t]
		g := w.group(t)
		if g.n == 0 {
			g.first, g.text, g.where = og.first, og.text, og.where
		}
		g.n += og.n
		g.last = og.last
		for p := range og.procs {
			g.procs[p] = struct{}{}
		}
	}
	if o.first != nil && (w.first == nil || o.first.Time < w.first.Time) {
		w.first = o.first
	}
}

// warnTemplate masks what differs between repeats of one WARN: every run of digits (so
// addresses, ports, ranks, sizes and host numbers) becomes N, and a hexadecimal word holding
// a digit (pointers, GIDs, bus ids) or a word whose digits are apart (a random segment name)
// becomes N as a whole.
func warnTemplate(msg []byte) string {
	out := make([]byte, 0, len(msg))
	for i := 0; i < len(msg); {
		if isAlnumByte(msg[i]) {
			j := i
			for j < len(msg) && isAlnumByte(msg[j]) {
				j++
			}
			out = appendMasked(out, msg[i:j])
			i = j
			continue
		}
		out = append(out, msg[i])
		i++
	}
	return string(out)
}

func appendMasked(out, word []byte) []byte {
	hex, digit := true, false
	w := word
	if len(w) > 2 && w[0] == '0' && w[1] == 'x' {
		w = w[2:]
	}
	for _, c := range w {
		digit = digit || c >= '0' && c <= '9'
		hex = hex && (c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')
	}
	if digit && hex || digitRuns(w) > 1 {
		return append(out, 'N')
	}
	for i := 0; i < len(word); {
		if word[i] >= '0' && word[i] <= '9' {
			for i < len(word) && word[i] >= '0' && word[i] <= '9' {
				i++
			}
			out = append(out, 'N')
			continue
		}
		out = append(out, word[i])
		i++
	}
	return out
}

// digitRuns counts the runs of digits in w: a word whose digits are apart (`oA7T4J`, a
// shared memory segment's random name) is a token, masked whole, where `mlx5` or `node12`
// keep their letters.
func digitRuns(w []byte) int {
	n := 0
	for i := range w {
		if w[i] >= '0' && w[i] <= '9' && (i == 0 || w[i-1] < '0' || w[i-1] > '9') {
			n++
		}
	}
	return n
}

func isAlnumByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// warnLocation is the `file:line` (and 2.30.7's `(function)`) between `[dev] ` and ` NCCL WARN`.
func warnLocation(text []byte) string {
	end := bytes.LastIndex(text, []byte(" NCCL WARN"))
	if end < 0 {
		return ""
	}
	start := bytes.LastIndex(text[:end], []byte("] "))
	if start < 0 {
		return ""
	}
	return string(text[start+2 : end])
}

// ncclStamp is NCCL's own `[YYYY-MM-DD hh:mm:ss(.frac)]` timestamp (2.26.2+) right before
// the line's host:pid:tid, or "".
func ncclStamp(text []byte, host string) string {
	h := bytes.LastIndex(text, []byte(host+":"))
	if h < 0 {
		return ""
	}
	head := bytes.TrimRight(text[:h], " ")
	if len(head) < 21 || head[len(head)-1] != ']' {
		return ""
	}
	open := bytes.LastIndexByte(head, '[')
	if open < 0 {
		return ""
	}
	ts := head[open+1 : len(head)-1]
	if len(ts) < 19 || ts[4] != '-' || ts[7] != '-' || ts[10] != ' ' || ts[13] != ':' {
		return ""
	}
	return string(ts)
}
