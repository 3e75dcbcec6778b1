package parser

import (
	"io"

	"github.com/alecthomas/participle/v2/lexer"
)

// stampLexer cuts the head of a line into tokens for the time grammar (grammar_stamp.go).
// lineLexer's tokens do not suit times: `14:03:27` is an HPT there and `27.512Z` one Word.
// Here every byte class is a token of its own, so that the grammar spells each form out:
//
//   - Digit, one decimal digit (the grammar counts them: `Digit Digit Digit Digit '-'`);
//   - Letters, a run of ASCII letters (`Jun`, `T`, `Z`, `rank`, `stdout`);
//   - Sp, a run of white space, the same bytes as lineLexer's Sp ([\t\n\f\r ]+);
//   - Sym, any other byte, one at a time (punctuation, NUL, bytes of UTF-8 sequences).
var stampLexer lexer.Definition = stampLexerDef{}

const (
	tokDigit lexer.TokenType = -(iota + 2)
	tokLetters
	tokStampSp
	tokSym
)

var stampSymbols = map[string]lexer.TokenType{
	"EOF": lexer.EOF, "Digit": tokDigit, "Letters": tokLetters, "Sp": tokStampSp, "Sym": tokSym,
}

type stampLexerDef struct{}

func (stampLexerDef) Symbols() map[string]lexer.TokenType { return stampSymbols }

func (d stampLexerDef) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return d.LexString(filename, string(b))
}

func (stampLexerDef) LexString(filename string, s string) (lexer.Lexer, error) {
	return &stampLex{s: s, name: filename}, nil
}

type stampLex struct {
	s    string
	name string
	i    int
}

func (l *stampLex) Next() (lexer.Token, error) {
	pos := lexer.Position{Filename: l.name, Offset: l.i, Line: 1, Column: l.i + 1}
	if l.i >= len(l.s) {
		return lexer.EOFToken(pos), nil
	}
	end, typ := l.i+1, tokSym
	switch c := l.s[l.i]; {
	case isDigit(c):
		typ = tokDigit
	case isASCIILetter(c):
		typ = tokLetters
		for end < len(l.s) && isASCIILetter(l.s[end]) {
			end++
		}
	case isSp(c):
		typ = tokStampSp
		end = spEnd(l.s, end)
	}
	tok := lexer.Token{Type: typ, Value: l.s[l.i:end], Pos: pos}
	l.i = end
	return tok, nil
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
