package parser

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// gHostLine is an NCCL line whose envelope names the host and device but no pid:tid:
// `parser:"host [dev] NCCL LEVEL message"`, with a WARN location before NCCL as in gEnvelope.
// Loggers that rewrite NCCL's head (some collectors, containers that print the host by name
// only) leave it so. It is read only where no full envelope is found and the line would
// otherwise be damaged NCCL output (damageReason's reasonNoEnvelope): the process is the
// host's, its pid unknown (Envelope.Pid and Tid -1). Its message is text: a collective or
// communicator line without a pid cannot be tied to its process, and stays malformed.
type gHostLine struct {
	Prefix []*gPrefix     `parser:"@@*"`
	Junk   []*gTok        `parser:"( (?! Word ( '-' Word )* Sp '[' '-'? Word ']' Sp ( (?! 'NCCL' Sp ('INFO' | 'WARN' | 'TRACE' | 'ABORT') | HPT ) (Sp | Punct | Word) )* 'NCCL' Sp ('INFO' | 'WARN' | 'TRACE' | 'ABORT') ) @@ )*"`
	Env    *gHostEnvelope `parser:"@@"`
	Msg    []string       `parser:"( Sp @(HPT | Sp | Punct | Word)* )?"`
}

// gHostEnvelope is `parser:"host [dev] NCCL LEVEL"`, the location of a WARN or TRACE line
// between the device and NCCL.
type gHostEnvelope struct {
	Pos   lexer.Position
	Host  hostName `parser:"@(Word ( '-' Word )*)"`
	Dev   decNum   `parser:"Sp '[' @('-'? Word) ']' Sp"`
	Loc   []string `parser:"( (?! 'NCCL' Sp ('INFO' | 'WARN' | 'TRACE' | 'ABORT') | HPT ) @(Sp | Punct | Word) )*"`
	Level string   `parser:"'NCCL' Sp @('INFO' | 'WARN' | 'TRACE' | 'ABORT')"`
}

// hostName is the host of a host-only envelope: what an HPT token's host may hold,
// [A-Za-z0-9][A-Za-z0-9._-]*, at most maxHostName bytes, with a letter in it. Digits alone
// are the rest of a head that interleaved output ate (`4 [0] NCCL INFO`: the tid), no host.
type hostName string

// maxHostName is the longest host name DNS allows.
const maxHostName = 253

func (h *hostName) Capture(values []string) error {
	s := strings.Join(values, "")
	if !isHostName(s) {
		return errNumber
	}
	*h = hostName(strings.Clone(s))
	return nil
}

// isHostName reports whether s reads as a host name (hostName).
func isHostName[T text](s T) bool {
	if len(s) == 0 || len(s) > maxHostName || !isAlnum(s[0]) {
		return false
	}
	letter := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isAlnum(c) && c != '.' && c != '_' && c != '-' {
			return false
		}
		letter = letter || c|0x20 >= 'a' && c|0x20 <= 'z'
	}
	return letter
}

// parseHostLine reads text as a gHostLine, or reports that it is none.
func (g *Grammar) parseHostLine(text string) (Line, bool) {
	tree, err := g.host().ParseString("", text)
	if err != nil {
		return Line{}, false
	}
	e := tree.Env
	if !hostStarts(text, prefixEnd(tree.Prefix), e.Pos.Offset) {
		return Line{}, false
	}
	l := Line{Rank: prefixRank(tree.Prefix)}
	l.Env = Envelope{Host: string(e.Host), Pid: -1, Tid: -1, Dev: int64(e.Dev), Level: levelFromWord(e.Level)}
	l.Kind = kindOfLevel(l.Env.Level)
	return l, true
}

// hostStarts reports whether a host-only envelope's host, at i in its line whose prefixes end
// at start, starts a name of its own: right after the prefixes or after a byte no host name
// holds (white space, `:` as in a head whose pid a user redacted, `host:XXXXXX [5]`). A word
// run on from a host byte is the tail of the text before it (the `Z` of a collector's
// `2024-05-01T10:00:00Z [3] NCCL INFO ...` before a head cut to its device), no host.
//
// Nor is a container log's stream tag: a CRI runtime writes `TIME stdout F ` (F a full line,
// P a part of one) before each line, so behind it a head cut to its device
// (`stdout F [3] NCCL INFO ...`) would read as host `F`.
func hostStarts[T text](b T, start, i int) bool {
	return (i == start || i > 0 && !isHostByte(b[i-1])) && !criTagAt(b, i)
}

// criTagAt reports whether b[i] is the `F` or `P` of a CRI stream tag: one letter after
// `stdout ` or `stderr `, white space after it.
func criTagAt[T text](b T, i int) bool {
	if i < 7 || i+1 >= len(b) || b[i] != 'F' && b[i] != 'P' || !isSp(b[i+1]) {
		return false
	}
	w := b[i-7 : i]
	return string(w) == "stdout " || string(w) == "stderr "
}
