package parser

import "strings"

// gLabel is a launcher's `[name|index]:` label (`[trainer0|0]:`), as a launcher that runs
// named process groups prints before each line of a child's output. The index is the
// child's place among the launcher's children, not a global rank the form proves: the
// prefix carries no rank.
type gLabel struct {
	Name  labelName  `parser:"@Word '|'"`
	Index labelIndex `parser:"@Word ']' ':'"`
}

// labelName is a label's name: identifier bytes, opening with a letter or '_'. Its Capture
// adds to what it holds: the time grammar captures a name a token at a time (`trainer`, `0`).
type labelName string

func (n *labelName) Capture(values []string) error {
	s := string(*n) + strings.Join(values, "")
	if s == "" || isDigit(s[0]) || !labelWord([]byte(s)) {
		return errNumber
	}
	*n = labelName(s)
	return nil
}

// labelIndex is a label's index: digits only, captured as labelName is.
type labelIndex string

func (n *labelIndex) Capture(values []string) error {
	s := string(*n) + strings.Join(values, "")
	if s == "" || !isDigit(s[0]) || !labelWord([]byte(s)) {
		return errNumber
	}
	*n = labelIndex(s)
	return nil
}

// labelWord reports whether w is a label's name or index: identifier bytes opening with a
// letter or '_', or up to 18 digits.
func labelWord(w []byte) bool {
	if len(w) == 0 {
		return false
	}
	if isDigit(w[0]) {
		if len(w) > 18 {
			return false
		}
		for _, c := range w {
			if !isDigit(c) {
				return false
			}
		}
		return true
	}
	for _, c := range w {
		if c != '_' && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !isDigit(c) {
			return false
		}
	}
	return true
}

// scanLabel reads `name|index]:` after the `[` as gLabel does; it returns its end, -1 for
// none.
func scanLabel(b []byte, i int) int {
	w := word(b, i)
	if len(w) == 0 || isDigit(w[0]) || !labelWord(w) || !lit(b, i+len(w), "|") {
		return -1
	}
	i += len(w) + 1
	w = word(b, i)
	if len(w) == 0 || !isDigit(w[0]) || !labelWord(w) || !lit(b, i+len(w), "]:") {
		return -1
	}
	return i + len(w) + 2
}
