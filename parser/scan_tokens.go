package parser

// Byte classes and token boundaries exactly as lineLexer defines them, so that the scanner
// reads a line the way the grammar does.

const (
	clsSp = 1 << iota
	clsPunct
	clsAlnum
	clsHost
	clsDigit
)

// class holds each byte's lexer classes.
var class = func() (t [256]uint8) {
	for _, c := range []byte(" \t\n\f\r") {
		t[c] |= clsSp
	}
	for _, c := range []byte(":[]()<>=,|/-") {
		t[c] |= clsPunct
	}
	for c := 0; c < 256; c++ {
		b := byte(c)
		if b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' {
			t[c] |= clsAlnum | clsHost
		}
		if b >= '0' && b <= '9' {
			t[c] |= clsDigit
		}
	}
	for _, c := range []byte("._-") {
		t[c] |= clsHost
	}
	return t
}()

func isSp(c byte) bool       { return class[c]&clsSp != 0 }
func isPunct(c byte) bool    { return class[c]&clsPunct != 0 }
func isWordByte(c byte) bool { return class[c]&(clsSp|clsPunct) == 0 }
func isAlnum(c byte) bool    { return class[c]&clsAlnum != 0 }
func isHostByte(c byte) bool { return class[c]&clsHost != 0 }
func isDigit(c byte) bool    { return class[c]&clsDigit != 0 }

// text is what the token functions read: a line as bytes (scanner) or as a string (lexer).
type text interface{ ~string | ~[]byte }

// hptAt returns the end of the HPT token starting at i (`host:pid:tid`), or -1.
func hptAt[T text](b T, i int) int {
	n := len(b)
	if i >= n {
		return -1
	}
	if class[b[i]]&clsAlnum == 0 {
		return redactedHPTAt(b, i)
	}
	j := i + 1
	for j < n && class[b[j]]&clsHost != 0 {
		j++
	}
	return pidTidEnd(b, j)
}

// redactedHPTAt returns the end of an HPT token whose host a user redacted, starting at i, or
// -1 where none starts there: a host in angle brackets (`<merlin-training>:255200:255473`) or
// none at all (`:168:1228`, where the host's name is empty). Either starts only at the line's
// start, after white space or after another ':' (never mpirun's `<stdout>:` nor the ':' that
// ends torchrun's `[default0]:`), and is an HPT only where an envelope's ` [` follows it, so
// that text such as a time after a label keeps its tokens.
func redactedHPTAt[T text](b T, i int) int {
	c := b[i]
	if c != '<' && c != ':' {
		return -1 // most tokens that open with punctuation: asked first, as it is the cheaper
	}
	if i > 0 && b[i-1] != ':' && !isSp(b[i-1]) {
		return -1 // `[1,0]<stdout>:` is mpirun's tag, `[default0]:` torchrun's label
	}
	j := i
	if c == '<' {
		j++
		for j < len(b) && class[b[j]]&clsHost != 0 {
			j++
		}
		if j == i+1 || j >= len(b) || b[j] != '>' {
			return -1
		}
		j++
	}
	e := pidTidEnd(b, j)
	if e < 0 || e+1 >= len(b) || b[e] != ' ' || b[e+1] != '[' {
		return -1
	}
	return e
}

// pidTidEnd returns the end of the `:pid:tid` that follows a host ending at j, or -1.
func pidTidEnd[T text](b T, j int) int {
	n := len(b)
	for k := 0; k < 2; k++ {
		if j+1 >= n || b[j] != ':' || class[b[j+1]]&clsDigit == 0 {
			return -1
		}
		j++
		for j < n && class[b[j]]&clsDigit != 0 {
			j++
		}
	}
	return j
}

// tokenEnd returns the end of the token starting at i and whether it is an HPT token.
func tokenEnd[T text](b T, i int) (int, bool) {
	if e := hptAt(b, i); e >= 0 {
		return e, true
	}
	c := b[i]
	switch {
	case isSp(c):
		j := i + 1
		for j < len(b) && isSp(b[j]) {
			j++
		}
		return j, false
	case isPunct(c):
		return i + 1, false
	}
	return wordEnd(b, i), false
}

// wordEnd returns the end of the Word token starting at i (i itself when there is none). A
// Word also ends where an HPT token begins right after a byte that cannot be in a host name:
// NUL bytes and garbage left by an over-long line (NCCL 2.13-2.19) can run straight into the
// next record's host.
func wordEnd[T text](b T, i int) int {
	for i < len(b) && isWordByte(b[i]) {
		if !isHostByte(b[i]) && i+1 < len(b) && isAlnum(b[i+1]) && hptAt(b, i+1) >= 0 {
			return i + 1
		}
		i++
	}
	return i
}

// spEnd skips one Sp token (a run of white space) at i; it returns i when there is none.
func spEnd[T text](b T, i int) int {
	for i < len(b) && isSp(b[i]) {
		i++
	}
	return i
}

// word returns the Word token at i, or nil where the token at i is not a Word. An HPT token
// can start at i only if the run of word bytes ends at ':' or '-' (the host part may hold
// '-', and ':' must follow it), so only then is hptAt asked.
//
// Most Words are letters, digits, '.' and '_' up to white space, punctuation other than ':'
// and '-', or the line's end; such a run holds no HPT and is read in one loop.
func word(b []byte, i int) []byte {
	j := i
	for j < len(b) && class[b[j]]&(clsHost|clsPunct) == clsHost {
		j++
	}
	if wordStop(b, j) {
		return b[i:j]
	}
	e := wordEnd(b, i)
	if e < len(b) && (b[e] == ':' || b[e] == '-') && hptAt(b, i) >= 0 {
		return nil
	}
	return b[i:e]
}

// wordStop reports whether a run of letters, digits, '.' and '_' that ends at j is a whole
// Word: the line ends there, or white space or punctuation other than ':' and '-' follows.
func wordStop(b []byte, j int) bool {
	return j == len(b) || class[b[j]]&clsSp != 0 || class[b[j]]&clsPunct != 0 && b[j] != ':' && b[j] != '-'
}

// lit reports whether b holds s at i.
func lit(b []byte, i int, s string) bool {
	return len(b)-i >= len(s) && string(b[i:i+len(s)]) == s
}
