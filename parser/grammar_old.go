package parser

import "bytes"

// gOldLine is a line of NCCL 2.2 and older, whose envelope has no `NCCL` before its level
// (one space on either side of `[dev]`, as NCCL prints them):
// `host:pid:tid [dev] INFO <msg>`, and `host:pid:tid [dev] <file>:<line> WARN <msg>`
// (`include/socket.h:360 WARN Call to connect failed : Connection timed out`). The envelope
// must follow the line's prefixes: with no NCCL word to tell it, text before it is not
// passed over as it is before an envelope that has one. Such a line reads as INFO or WARN
// only: its message is not read as a collective or communicator line, so that another
// program's `name:1:2 [0] INFO ...` can never make a call.
type gOldLine struct {
	Prefix []*gPrefix `parser:"@@*"`
	HPT    hptWord    `parser:"@HPT"`
	Dev    decNum     `parser:"' ' '[' @('-'? Word) ']' ' '"`
	Level  string     `parser:"( @'INFO' | ( Word | '/' | '-' )+ ':' Word Sp @'WARN' )"`
	Msg    []string   `parser:"( Sp @(HPT | Sp | Punct | Word)* )?"`
}

// parseOld reads text as a gOldLine, or reports that it is none.
func (g *Grammar) parseOld(text string) (Line, bool) {
	if !mayHoldOldEnvelope(text) {
		return Line{}, false
	}
	t, err := g.old().ParseString("", text)
	if err != nil {
		return Line{}, false
	}
	l := Line{Rank: prefixRank(t.Prefix)}
	l.Env = Envelope{Host: t.HPT.Host, Pid: t.HPT.Pid, Tid: t.HPT.Tid, Dev: int64(t.Dev), Level: levelFromWord(t.Level)}
	l.Kind = kindOfLevel(l.Env.Level)
	return l, true
}

// oldMessage is the message of a gOldLine of kind k: what follows its level word after the
// envelope's `[dev] `, nil where there is none.
func oldMessage(text []byte, k Kind) []byte {
	i := bytes.Index(text, []byte("] "))
	if i < 0 {
		return nil
	}
	lv := " WARN"
	if k == KindInfo {
		lv = "] INFO"
	}
	j := bytes.Index(text[i:], []byte(lv))
	if j < 0 {
		return nil
	}
	return text[spEnd(text, i+j+len(lv)):]
}
