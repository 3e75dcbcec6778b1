package parser

import (
	"io"

	"github.com/alecthomas/participle/v2/lexer"
)

// lineLexer cuts a log line into tokens for the grammar. White space is a token of its own
// (Sp) so that the grammar sees the text exactly as printed. At each position the first of
// these that matches is the token:
//
//   - HPT, the `host:pid:tid` head of an NCCL envelope, [A-Za-z0-9][A-Za-z0-9._-]*:[0-9]+:[0-9]+
//     (also times such as 12:00:00, which the grammar never takes for an envelope because no
//     `[dev] NCCL` follows them);
//   - Sp, a run of white space as Go's regexp `\s` defines it ([\t\n\f\r ]+);
//   - Punct, one of `: [ ] ( ) < > = , | / -`;
//   - Word, any other run of bytes, NUL and invalid UTF-8 included; it ends before an HPT
//     that starts right after a byte that cannot be in a host name (garbage run into a host).
//
// Numbers are Words; the capture types in values.go read them in the base NCCL prints. The
// token functions (scan_tokens.go) are the scanner's too, so the grammar and the scanner
// cannot disagree on where a token ends.
var lineLexer lexer.Definition = lineLexerDef{}

const (
	tokHPT lexer.TokenType = -(iota + 2)
	tokSp
	tokPunct
	tokWord
)

var lexSymbols = map[string]lexer.TokenType{
	"EOF": lexer.EOF, "HPT": tokHPT, "Sp": tokSp, "Punct": tokPunct, "Word": tokWord,
}

type lineLexerDef struct{}

func (lineLexerDef) Symbols() map[string]lexer.TokenType { return lexSymbols }

func (d lineLexerDef) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return d.LexString(filename, string(b))
}

func (lineLexerDef) LexString(filename string, s string) (lexer.Lexer, error) {
	return &lineLex{s: s, name: filename}, nil
}

type lineLex struct {
	s    string
	name string
	i    int
}

func (l *lineLex) Next() (lexer.Token, error) {
	pos := lexer.Position{Filename: l.name, Offset: l.i, Line: 1, Column: l.i + 1}
	if l.i >= len(l.s) {
		return lexer.EOFToken(pos), nil
	}
	end, isHPT := tokenEnd(l.s, l.i)
	typ := tokWord
	switch c := l.s[l.i]; {
	case isHPT:
		typ = tokHPT
	case isSp(c):
		typ = tokSp
	case isPunct(c):
		typ = tokPunct
	}
	tok := lexer.Token{Type: typ, Value: l.s[l.i:end], Pos: pos}
	l.i = end
	return tok, nil
}
