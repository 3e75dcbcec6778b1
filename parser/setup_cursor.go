package parser

import "bytes"

// setupCur walks a set-up message token by token, cutting tokens with the lexer's own
// functions (scan_tokens.go), so that the fast path sees exactly the tokens the set-up
// grammar sees.
type setupCur struct {
	b []byte
	i int
}

// tok returns the token at the cursor, its end and whether it is an HPT token; the token
// is empty at the message's end.
func (c *setupCur) tok() (t []byte, end int, hpt bool) {
	if c.i >= len(c.b) {
		return nil, c.i, false
	}
	end, hpt = tokenEnd(c.b, c.i)
	return c.b[c.i:end], end, hpt
}

// lit takes the token at the cursor if it is s (the grammar's quoted literal).
func (c *setupCur) lit(s string) bool {
	t, end, _ := c.tok()
	if string(t) != s {
		return false
	}
	c.i = end
	return true
}

// sp takes one Sp token (a run of white space).
func (c *setupCur) sp() bool {
	e := spEnd(c.b, c.i)
	if e == c.i {
		return false
	}
	c.i = e
	return true
}

// spLit takes Sp followed by the literal s, or nothing.
func (c *setupCur) spLit(s string) bool {
	at := c.i
	if c.sp() && c.lit(s) {
		return true
	}
	c.i = at
	return false
}

// word takes a Word token (not white space, punctuation or an HPT token).
func (c *setupCur) word() ([]byte, bool) {
	t, end, hpt := c.tok()
	if len(t) == 0 || hpt || isSp(t[0]) || isPunct(t[0]) {
		return nil, false
	}
	c.i = end
	return t, true
}

// dec takes a Word read as the grammar's decNum.
func (c *setupCur) dec() (int64, bool) {
	w, ok := c.word()
	if !ok {
		return 0, false
	}
	v, err := parseDec(w)
	return v, err == nil
}

// peek reports whether the byte at the cursor is b.
func (c *setupCur) peek(b byte) bool { return c.i < len(c.b) && c.b[c.i] == b }

// peekSp reports whether white space and then the byte b are at the cursor.
func (c *setupCur) peekSp(b byte) bool {
	e := spEnd(c.b, c.i)
	return e > c.i && e < len(c.b) && c.b[e] == b
}

func (c *setupCur) end() bool { return c.i >= len(c.b) }

// rest returns what follows the cursor when all of it is Sp, Punct and Word tokens, as
// the grammar's `@(Sp | Punct | Word)*` takes it up to the message's end; false where an
// HPT token stops that run short.
func (c *setupCur) rest() ([]byte, bool) {
	// An HPT token holds ':'; without one there is nothing to look for.
	for j := c.i; j < len(c.b) && bytes.IndexByte(c.b[c.i:], ':') >= 0; {
		end, hpt := tokenEnd(c.b, j)
		if hpt {
			return nil, false
		}
		j = end
	}
	r := c.b[c.i:]
	c.i = len(c.b)
	return r, true
}
