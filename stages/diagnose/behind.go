package diagnose

import (
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// The parser finds a WARN's envelope, a watchdog line and a failure line behind anything
// before them, but reads a launcher's prefixes (mpirun's `[1,3]<stdout>:`, torchrun's
// `[rank3]:`, Ray's `(pid=615)`) only where they open the line. Behind a collector's time
// (`2024-05-01T10:00:00.123Z [1,3]<stdout>:host:...`), a host's label (pdsh's `node1: `) or a
// quote's `> `, the line keeps its reading but loses what those prefixes say: the rank,
// and the Ray worker whose line it is. behindLead reads them where they follow such a lead.

// behindLead is l, a line whose text opens with a lead of n bytes (a label pasteLabel finds,
// a time timeLen finds; none where tidied dropped the time already), with the rank of the
// launcher's prefix behind the lead where the parser read none; a Ray prefix there names
// the line's worker (p.ray), as one that opens a line does. l where no prefix follows.
func (p *Part) behindLead(l *stages.Line, n int) *stages.Line {
	rest := l.Text[n:]
	if len(rest) < 3 || !mayOpenLead[rest[0]] {
		return l
	}
	if rest[0] == '(' {
		p.ray = rayWorkerOf(l.N, rest)
	}
	if l.P.Rank >= 0 {
		return l
	}
	again, ok := p.readAgain(rest) // reread.go
	if !ok || again.Rank < 0 {
		return l
	}
	c, pl := *l, *l.P
	pl.Rank = again.Rank
	c.P = &pl
	return &c
}

// mayOpenLead holds the bytes a launcher's prefix opens with: a bracket, a parenthesis, or
// srun's label's digit.
var mayOpenLead = [256]bool{'[': true, '(': true,
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true}

// leadLen is the length of the lead t opens with (a label, a collector's time), 0 where
// none.
func leadLen(t []byte) int {
	if len(t) < 4 {
		return 0
	}
	if n := pasteLabel(t); n > 0 {
		return n
	}
	if mayOpenTime(t) {
		return timeLen(t)
	}
	return 0
}

// readsLead holds the kinds of lines read again behind a lead: other text (reread.go), and
// the kinds whose items name a rank or a worker (behindLead). INFO lines are many: of them,
// only the frames of an error's chain are read so (Part.Add), and communicator and call
// lines are left as the parser read them.
var readsLead = func() (k [256]bool) { // indexed by a Kind, a byte: no bounds check on every line
	k[parser.KindOther], k[parser.KindWarn], k[parser.KindWatchdog], k[parser.KindFailure] = true, true, true, true
	return k
}()

// afterLead is l, a line of a kind readsLead holds whose text has more than two bytes (and
// opens with a time tidied dropped, a byte a label may open with, or a bracket), read
// behind what opens it: a time tidied dropped (dropped), a host's label or a quote, a
// logger's bracketed time. Other text is read again (unlabelled, bracketed); the other
// kinds keep their reading and gain the rank and Ray worker behind the lead (behindLead).
func (p *Part) afterLead(l *stages.Line, dropped bool) *stages.Line {
	t := l.Text
	other := l.P.Kind == parser.KindOther
	if other && l.P.Rank >= 0 && t[0] == '[' {
		if n := doubledRank(t, l.P.Rank); n > 0 {
			c := *l // read as the line of one prefix, as PyTorch's own lines are
			c.Text = t[n:]
			return &c
		}
	}
	switch {
	case dropped || mayOpenLabel[t[0]] && mayFollowLabel[t[1]]:
		if other {
			return p.unlabelled(l, dropped)
		}
		if n := pasteLabel(t); n > 0 || dropped {
			return p.behindLead(l, n)
		}
	case opensBracketed(l):
		n := bracketLen(t)
		if !other {
			return p.behindLead(l, n)
		}
		if n < len(t) && t[n] != '[' {
			// A logger's own line opens its text with another bracket (its level,
			// `[INFO]`): read as it is, as most lines behind such a time are.
			return p.bracketed(l)
		}
	}
	return l
}

// doubledRank is the length of the torchrun `[rankN]:` prefix t opens with where a second
// one follows it, 0 otherwise; rank is the first's, as the parser read it. torchtitan's runs
// print `[rank0]:[rank0]:[E128 ...]`: the launcher's prefix over the same prefix of the
// process's own output; the parser reads the first, and the line is read behind it as one
// with the second alone.
func doubledRank(t []byte, rank int64) int {
	// A look at the bytes after the first `]:` first, where rank's digits put them: most
	// labelled lines go on with glog's `[E...` or text, and this runs on each of them.
	i := len("[rank") + 1
	for r := rank; r >= 10; r /= 10 {
		i++
	}
	if i+4 >= len(t) || t[i] != ']' || t[i+1] != ':' || t[i+2] != '[' || t[i+3] != 'r' {
		return 0
	}
	n := rankPrefixLen(t)
	if n == 0 || rankPrefixLen(t[n:]) == 0 {
		return 0
	}
	return n
}

// rankPrefixLen is the length of the `[rankN]:` t opens with, 0 where none.
func rankPrefixLen(t []byte) int {
	const head = "[rank"
	if len(t) < len(head)+3 || string(t[:len(head)]) != head {
		return 0
	}
	i := len(head)
	for i < len(t) && i < len(head)+7 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == len(head) || i+1 >= len(t) || t[i] != ']' || t[i+1] != ':' {
		return 0
	}
	return i + 2
}
