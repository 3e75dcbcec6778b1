package parser

// Fields of a collective line that nccllog does not know, as gExtraField reads them. The
// scanner reads only their plain form: ` key value` with single spaces, the key a name made
// of letters, digits and '_', the value (nil), or a name of letters, digits, '_' and '.'
// with an optional leading '-', followed by a space. Anything else is left to the grammar.

// collKeys are the keys gExtraField's lookahead refuses.
var collKeys = [...]string{"opCount", "sendbuff", "recvbuff", "count", "datatype", "op", "root", "comm", "stream", "task", "globalrank"}

// skipExtras reads past the extra fields at r.i and keeps the first key in r.unknown.
func (r *fieldReader) skipExtras() {
	for {
		end, key := extraAt(r.b, r.i)
		if end < 0 {
			return
		}
		if r.unknown == nil {
			r.unknown = key
		}
		r.i = end
	}
}

// extraAt returns the end of the extra field at b[i:] and its key, or -1.
func extraAt(b []byte, i int) (int, []byte) {
	if i >= len(b) || b[i] != ' ' {
		return -1, nil
	}
	k := i + 1
	e := k
	for e < len(b) && isNameByte(b[e], false) {
		e++
	}
	if e == k || isDigit(b[k]) || e >= len(b) || b[e] != ' ' || isCollKey(b[k:e]) {
		return -1, nil
	}
	v := valueEnd(b, e+1)
	if v < 0 || v >= len(b) || b[v] != ' ' {
		return -1, nil
	}
	return v, b[k:e]
}

// valueEnd returns the end of an extra field's value at b[i:], or -1.
func valueEnd(b []byte, i int) int {
	if lit(b, i, "(nil)") {
		return i + len("(nil)")
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	e := i
	for e < len(b) && isNameByte(b[e], true) {
		e++
	}
	if e == i {
		return -1
	}
	return e
}

// isNameByte reports whether c is a letter, a digit or '_' (or '.', where dot is set).
func isNameByte(c byte, dot bool) bool {
	return isAlnum(c) || c == '_' || dot && c == '.'
}

func isCollKey(w []byte) bool {
	for _, k := range collKeys {
		if string(w) == k {
			return true
		}
	}
	return false
}
