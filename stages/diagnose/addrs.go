package diagnose

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// maxAddrs bounds the addresses the Partial keeps: the first 4096 in input order (a job's
// processes print a few each). A peer whose address is past the cap is named by its address
// alone; AddrsLeft counts the init lines whose address was left out.
const maxAddrs = 4096

// Addr is an address a process printed as its own at init (`NET/IB : Using ... ; OOB
// eth0:10.1.2.3<0>`, `NET/Socket : Using [0]eth0:10.1.2.3<0>`, `Bootstrap : Using
// eth0:10.1.2.3<0>`): the host that printed it and, where one process alone did, its pid.
// File, Line and Text are the first line that printed it, which a finding cites.
type Addr struct {
	Addr string `json:"addr"`
	Host string `json:"host"`
	// Pid is the one process that printed the address, -1 where several did; ManyHosts is
	// set where processes of two hosts printed it (a private address every host has), and
	// then it names no host.
	Pid       int64  `json:"pid"`
	ManyHosts bool   `json:"many_hosts,omitempty"`
	File      string `json:"file"`
	Line      int64  `json:"line"`
	Text      string `json:"text"`
}

// ownAddrPrefixes are the messages that print a process's own addresses: the three NET/
// ones first, then Bootstrap's (ownAddrHead picks them by their first byte).
var ownAddrPrefixes = [...]string{"NET/IB : Using ", "NET/IBext : Using ", "NET/Socket : Using ", "Bootstrap : Using ",
	"Bootstrap: Using "}

// ownAddrLine reports whether text may hold a message of ownAddrPrefixes (a `Using ` after
// ` : ` or `Bootstrap: `), before its message is looked for (a backward search): `Using
// network IB` lines do not. Each `Using ` is found by its rare first byte and the words
// before it read in place: a search for ` : Using ` would stop at every space.
func ownAddrLine(text []byte) bool {
	const using = "Using "
	for at := 0; ; {
		// An IndexByte for the 'U' rather than bytes.Index: the line is longer than
		// bytes.Index's brute-force bound, so it would do the same, at a call more.
		i := bytes.IndexByte(text[at:], 'U')
		if i < 0 {
			return false
		}
		u := at + i
		if bytes.HasPrefix(text[u:], []byte(using)) {
			head := text[:u]
			if bytes.HasSuffix(head, []byte(" : ")) || bytes.HasSuffix(head, []byte("Bootstrap: ")) {
				return true
			}
			at = u + len(using)
			continue
		}
		at = u + 1
	}
}

// maxOwnAddrs is how many addresses one line may give.
const maxOwnAddrs = 8

// ownAddrs appends to out the addresses msg, an INFO line's message, prints as the process's
// own (up to maxOwnAddrs). addAddrs looks no further than a line that holds `Using ` (most
// INFO lines do not), and lends out from its stack.
func ownAddrs(out [][]byte, msg []byte) [][]byte {
	head := ownAddrHead(msg)
	if head < 0 {
		return out
	}
	rest := msg[head:]
	if bytes.HasPrefix(msg, []byte("NET/IB")) {
		i := bytes.Index(rest, []byte("OOB "))
		if i < 0 {
			return out // an IB line names its NICs; the address is after OOB
		}
		rest = rest[i+len("OOB "):]
	}
	if got, ok := asciiAddrs(out, rest); ok {
		return got
	}
	for w := range bytes.FieldsSeq(rest) {
		if a := ifaceAddr(w); a != nil && len(out) < maxOwnAddrs {
			out = append(out, a)
		}
	}
	return out
}

// ownAddrHead is the length of the one of ownAddrPrefixes msg opens with, -1 where none:
// told by msg's first byte, where a walk through the prefixes compared msg with each.
func ownAddrHead(msg []byte) int {
	if len(msg) == 0 {
		return -1
	}
	var ps []string
	switch msg[0] {
	case 'N':
		ps = ownAddrPrefixes[:3] // the NET/ lines'
	case 'B':
		ps = ownAddrPrefixes[3:] // Bootstrap's
	default:
		return -1
	}
	for _, p := range ps {
		if bytes.HasPrefix(msg, []byte(p)) {
			return len(p)
		}
	}
	return -1
}

// asciiAddrs is ownAddrs's reading of rest's words, split where bytes.FieldsSeq splits them,
// for a rest of ASCII bytes (false where a byte is not: FieldsSeq's spaces are Unicode's
// then). FieldsSeq decodes each byte as a rune and yields each word through a closure, which
// on the one or two words of a `Bootstrap : Using` line cost more than the rest of the line's
// reading.
func asciiAddrs(out [][]byte, rest []byte) ([][]byte, bool) {
	if len(rest) > 0 && oneWord(rest) {
		// The common case (`Bootstrap : Using ib0:10.1.2.3<0>`, an IB line's OOB): the
		// loop below would find that one word a byte at a time, with two tests a byte.
		if a := ifaceAddr(rest); a != nil && len(out) < maxOwnAddrs {
			out = append(out, a)
		}
		return out, true
	}
	n := len(out)
	for i := 0; i < len(rest); {
		for i < len(rest) && fieldSpace(rest[i]) {
			i++
		}
		start := i
		for ; i < len(rest); i++ {
			if b := rest[i]; b >= utf8.RuneSelf {
				return out[:n], false
			} else if b <= ' ' && fieldSpace(b) {
				break
			}
		}
		if i == start {
			break // rest ended in spaces
		}
		if a := ifaceAddr(rest[start:i]); a != nil && len(out) < maxOwnAddrs {
			out = append(out, a)
		}
	}
	return out, true
}

// oneWord reports whether every byte of b is ASCII and no space, nor a control byte (those
// the loop of asciiAddrs tells apart): b is then one word of its reading.
func oneWord(b []byte) bool {
	for _, c := range b {
		if c-'!' > 0x7f-'!' {
			return false
		}
	}
	return true
}

// fieldSpace reports whether b, an ASCII byte, is a space as bytes.Fields tells one.
func fieldSpace(b byte) bool {
	return b == ' ' || b-'\t' <= '\r'-'\t'
}

// ifaceAddr is the address of `[0]eth0:10.1.2.3<0>` or `ib0:fe80::1%ib0<0>`, without the
// interface and the port; nil where w is no such word.
func ifaceAddr(w []byte) []byte {
	if w[0] == '[' {
		if i := bytes.IndexByte(w, ']'); i > 0 {
			w = w[i+1:]
		}
	}
	lt := bytes.IndexByte(w, '<')
	colon := bytes.IndexByte(w, ':')
	if lt < 0 || colon <= 0 || colon+1 >= lt || !bytes.HasSuffix(w, []byte(">")) {
		return nil
	}
	return normAddr(w[colon+1 : lt])
}

// normAddr is an address as both sides print it: without an IPv6 zone (`%ib0`) or brackets.
func normAddr(a []byte) []byte {
	a = bytes.TrimPrefix(a, []byte("["))
	a = bytes.TrimSuffix(a, []byte("]"))
	if i := bytes.IndexByte(a, '%'); i > 0 {
		a = a[:i]
	}
	if len(a) > 64 {
		return nil // no address is that long
	}
	return a
}

// addAddrs keeps the addresses line n prints as its process's own.
// An address already kept is only marked as claimed by this process too: the line is not
// the first in file order (the lines of one stretch come in file order, and it has no file
// yet), so its text is not copied.
func (p *Part) addAddrs(n int64, text []byte, l *parser.Line) {
	if !l.Env.HasEnvelope() || !ownAddrLine(text) {
		return
	}
	p.addOwnAddrs(n, infoMessage(text, l), l)
}

// addOwnAddrs is addAddrs of the line's message, msg (infoMessage's).
func (p *Part) addOwnAddrs(n int64, msg []byte, l *parser.Line) {
	var buf [maxOwnAddrs][]byte
	for _, a := range ownAddrs(buf[:0], msg) {
		if i, ok := p.addrIdx[string(a)]; ok {
			p.addrs[i].claim(l.Env.Host, l.Env.Pid, false)
			continue
		}
		p.keepAddr(Addr{Addr: string(a), Host: l.Env.Host, Pid: l.Env.Pid, Line: n, Text: clip(msg)})
	}
}

// keepAddr folds one process's claim on an address into the map.
func (p *Part) keepAddr(a Addr) {
	i, ok := p.addrIdx[a.Addr]
	if !ok {
		if len(p.addrs) >= maxAddrs {
			p.addrsLeft++
			return
		}
		p.addrIdx[a.Addr] = len(p.addrs)
		p.addrs = append(p.addrs, a)
		return
	}
	k := &p.addrs[i]
	k.claim(a.Host, a.Pid, a.ManyHosts)
	// The first line in file order is cited, whatever order the inputs were read in.
	if a.File != "" && k.File != "" && (a.File < k.File || a.File == k.File && a.Line < k.Line) {
		k.Host, k.File, k.Line, k.Text = a.Host, a.File, a.Line, a.Text
	}
}

// claim marks a as printed also by process pid of host (of several hosts where manyHosts).
func (a *Addr) claim(host string, pid int64, manyHosts bool) {
	if a.Host != host || manyHosts {
		a.ManyHosts = true
	}
	if a.Pid != pid {
		a.Pid = -1
	}
}

// sortedAddrs is as, by address: the order they were first seen in depends on the inputs'.
func sortedAddrs(as []Addr) []Addr {
	out := slices.Clone(as)
	slices.SortFunc(out, func(x, y Addr) int { return strings.Compare(x.Addr, y.Addr) })
	return out
}

// anchorAddrs names the file of the addresses kept since the last Anchor.
func (p *Part) anchorAddrs(o stages.Origin) {
	for i := p.addrAnchored; i < len(p.addrs); i++ {
		p.addrs[i].File, p.addrs[i].Line = o.File, p.addrs[i].Line+o.Base
	}
	p.addrAnchored = len(p.addrs)
}

// mergeAddrs folds o's addresses in after p's, as one Partial reading both would have.
func (p *Part) mergeAddrs(o *Part) {
	whole := p.addrAnchored == len(p.addrs)
	for i, a := range o.addrs {
		before := len(p.addrs)
		p.keepAddr(a)
		if whole && i < o.addrAnchored && len(p.addrs) > before {
			p.addrAnchored++
		}
	}
	p.addrsLeft += o.addrsLeft
}

// restoreAddrs reads a partial result's addresses back, checking them.
func (p *Part) restoreAddrs(as []Addr, left int64) error {
	if len(as) > maxAddrs || left < 0 || left > stages.MaxPartialCount || left > 0 && len(as) < maxAddrs {
		return stages.Damaged("%d diagnose addresses (%d left out), more than the %d a run keeps", len(as), left, maxAddrs)
	}
	for _, a := range as {
		if _, dup := p.addrIdx[a.Addr]; dup || a.Addr == "" || a.Line < 0 {
			return stages.Damaged("diagnose address %q is listed twice, empty or on a negative line", a.Addr)
		}
		p.addrIdx[a.Addr] = len(p.addrs)
		p.addrs = append(p.addrs, a)
	}
	p.addrAnchored, p.addrsLeft = len(p.addrs), left
	return nil
}

// infoMessage is parser.Message of an INFO line: where ` NCCL INFO ` is once, and no Ray
// repeat tail follows, the text after it, found by a forward search rather than Message's
// backward one (a rolling hash over the whole line); Message's own answer otherwise.
func infoMessage(text []byte, l *parser.Line) []byte {
	const info, ray = " NCCL INFO ", "x across cluster]"
	t := text
	if n := len(t); n > 0 && t[n-1] == '\r' {
		t = t[:n-1]
	}
	if i := infoAt(t); i >= 0 {
		msg := t[i+len(info):]
		if infoAt(msg) < 0 && !bytes.HasSuffix(trimSpCR(msg), []byte(ray)) {
			return msg
		}
	}
	return parser.Message(text, l)
}

// infoAt is bytes.Index(t, " NCCL INFO "), found by its 'N' rather than its space: a forward
// search for a space stops at every word of the message.
func infoAt(t []byte) int {
	const word = "NCCL INFO "
	for at := 0; ; {
		j := bytes.Index(t[at:], []byte(word))
		if j < 0 {
			return -1
		}
		if k := at + j; k > 0 && t[k-1] == ' ' {
			return k - 1
		}
		at += j + 1
	}
}

// infoReads are the readers of INFO lines (a frame of an error's chain, a setting, a
// process's own addresses) that may take a line.
type infoReads uint8

const (
	mayFrame infoReads = 1 << iota
	maySetting
	mayAddrs
	mayAny = mayFrame | maySetting | mayAddrs
)

// infoGate is which readers may take an INFO line, told from where its message opens: this
// runs on every INFO line, and each reader's own test searches the whole line. Where
// ` INFO ` is in text once, as ` NCCL INFO `, each reader's line has its message there: a
// frame's opens with a word and ` -> ` (addFrame's `file:line` follows ` INFO `), a
// setting's with `NCCL_` (settingMsg), an own address's with `NET/` or `Bootstrap`
// (ownAddrs, of infoMessage's message). Any other line may be any reader's.
//
// Where it tells, it also returns the message (from the ` INFO `'s end; see gateMessage).
func infoGate(text []byte) (infoReads, []byte) {
	q := infoWordAt(text, 0)
	if q < len(" NCCL") || string(text[q-len(" NCCL"):q]) != " NCCL" || infoWordAt(text, q+1) >= 0 {
		return mayAny, nil
	}
	m := text[q+len(" INFO "):]
	var r infoReads
	// The first word is short (`Channel`, `Trees`, a frame's `file:line`): a loop finds its
	// end for less than a call to IndexByte, and the arrow is compared as one word.
	s := 0
	for s < len(m) && m[s] != ' ' {
		s++
	}
	if s > 0 && len(m)-s >= len(" -> ") && string(m[s:s+len(" -> ")]) == " -> " {
		r |= mayFrame
	}
	if len(m) > 0 {
		switch m[0] {
		case 'N':
			if bytes.HasPrefix(m, []byte("NCCL_")) {
				r |= maySetting
			} else if bytes.HasPrefix(m, []byte("NET/")) {
				r |= mayAddrs
			}
		case 'B':
			if bytes.HasPrefix(m, []byte("Bootstrap")) {
				r |= mayAddrs
			}
		}
	}
	return r, m
}

// gateMessage is infoMessage of line l, text, whose message infoGate told opens m: there
// ` NCCL INFO ` is in text once, so infoMessage's message is m without a closing CR, or
// parser.Message's where a Ray repeat tail follows.
func gateMessage(m, text []byte, l *parser.Line) []byte {
	const ray = "x across cluster]"
	if n := len(m); n > 0 && m[n-1] == '\r' {
		m = m[:n-1]
	}
	if bytes.HasSuffix(trimSpCR(m), []byte(ray)) {
		return parser.Message(text, l)
	}
	return m
}

// trimSpCR is bytes.TrimRight(b, " \r"), without the set of bytes TrimRight makes of its
// cutset at every call.
func trimSpCR(b []byte) []byte {
	n := len(b)
	for n > 0 && (b[n-1] == ' ' || b[n-1] == '\r') {
		n--
	}
	return b[:n]
}

// addGatedAddrs is addAddrs of a line infoGate told may print its process's own addresses,
// msg what it returned (nil: it could not tell). Each of ownAddrPrefixes holds a `Using `
// that ownAddrLine finds, so where infoGate told, that test is not made again.
func (p *Part) addGatedAddrs(n int64, text, msg []byte, l *parser.Line) {
	if msg == nil {
		p.addAddrs(n, text, l)
		return
	}
	if l.Env.HasEnvelope() {
		p.addOwnAddrs(n, gateMessage(msg, text, l), l)
	}
}

// infoWordAt is where the first ` INFO ` of text that starts at or past from starts, or -1;
// found by its F, which NCCL's messages seldom hold (a forward search for the space, or the
// I, stops in most words).
func infoWordAt(text []byte, from int) int {
	const word = " INFO "
	const f = 3 // where the F is in word
	for at := from + f; at < len(text); {
		j := bytes.IndexByte(text[at:], 'F')
		if j < 0 {
			return -1
		}
		if k := at + j - f; k+len(word) <= len(text) && string(text[k:k+len(word)]) == word {
			return k
		}
		at += j + 1
	}
	return -1
}
