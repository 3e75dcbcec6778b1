package diagnose

import "bytes"

// The heads of the loggers logger.go reads past: vLLM's, glog's, pytest's short summary.

// loggerHead is where the logger's head in t starts and ends, (0, 0) where none: at t's
// start or behind a Ray prefix that opens it.
func loggerHead(t []byte) (int, int) {
	at := 0
	if len(t) > 0 && t[0] == '(' {
		at = rayPrefixLen(t)
		if at == 0 {
			return 0, 0
		}
	}
	if n := vllmHead(t[at:]); n > 0 {
		return at, at + n
	}
	if n := glogHead(t[at:]); n > 0 {
		return at, at + n
	}
	if n := pytestHead(t[at:]); n > 0 {
		return at, at + n
	}
	return 0, 0
}

// pytestHead is the length of pytest's short summary head t opens with (`FAILED
// tests/test_dist.py::TestAllReduce::test[2] - `, `ERROR ... - `), behind which it prints the
// test's exception, 0 where none.
func pytestHead(t []byte) int {
	var i int
	switch {
	case bytes.HasPrefix(t, []byte("FAILED ")):
		i = len("FAILED ")
	case bytes.HasPrefix(t, []byte("ERROR ")):
		i = len("ERROR ")
	default:
		return 0
	}
	j := bytes.IndexByte(t[i:], ' ')
	if j <= 0 || !bytes.Contains(t[i:i+j], []byte("::")) || !bytes.HasPrefix(t[i+j:], []byte(" - ")) {
		return 0
	}
	return i + j + len(" - ")
}

// rayPrefixLen is the length of the `(Name pid=N, ip=A) ` t opens with, 0 where none.
func rayPrefixLen(t []byte) int {
	n := len(t) - len(bytes.TrimLeft(afterRay(t), " "))
	if n == 0 || t[n-1] != ' ' {
		return 0
	}
	return n
}

// vllmHead is the length of vLLM's `ERROR 04-07 00:57:46 ray_utils.py:45] ` t opens with (its
// time with or without fractions), 0 where none.
func vllmHead(t []byte) int {
	i := 0
	for _, lv := range [...]string{"ERROR ", "WARNING ", "INFO ", "DEBUG ", "CRITICAL "} {
		if len(t) > len(lv) && string(t[:len(lv)]) == lv {
			i = len(lv)
			break
		}
	}
	if i == 0 || !digitsAt(t, i, 2) || t[i+2] != '-' || !digitsAt(t, i+3, 2) || t[i+5] != ' ' {
		return 0
	}
	return clockSource(t, i+6)
}

// glogHead is the length of glog's `E0407 00:57:46.123456 12345 file.cc:45] ` t opens with, 0
// where none.
func glogHead(t []byte) int {
	if len(t) < 8 || (t[0] != 'E' && t[0] != 'W' && t[0] != 'F' && t[0] != 'I') || !digitsAt(t, 1, 4) || t[5] != ' ' {
		return 0
	}
	i := 6
	if !clockAt(t, i) {
		return 0
	}
	i += 8
	for i < len(t) && (t[i] == '.' || isDec(t[i])) {
		i++
	}
	for i < len(t) && t[i] == ' ' {
		i++
	}
	j := i
	for j < len(t) && isDec(t[j]) {
		j++
	}
	if j == i || j >= len(t) || t[j] != ' ' {
		return 0
	}
	return sourceEnd(t, j+1)
}

// clockSource is the end of `HH:MM:SS[.frac] file:N] ` at t[i:], 0 where it is not one.
func clockSource(t []byte, i int) int {
	if !clockAt(t, i) {
		return 0
	}
	i += 8
	if i < len(t) && (t[i] == ',' || t[i] == '.') {
		i++
		for i < len(t) && isDec(t[i]) {
			i++
		}
	}
	if i >= len(t) || t[i] != ' ' {
		return 0
	}
	return sourceEnd(t, i+1)
}

// sourceEnd is the end of `file:N] ` at t[i:] (a file name without blanks), 0 where none.
func sourceEnd(t []byte, i int) int {
	const maxSource = 96
	for j := i; j < len(t) && j < i+maxSource; j++ {
		switch t[j] {
		case ' ':
			return 0
		case ']':
			if j+1 < len(t) && t[j+1] == ' ' && j > i && isDec(t[j-1]) {
				return j + 2
			}
			return 0
		}
	}
	return 0
}

// clockAt reports whether t[i:] opens with `HH:MM:SS`.
func clockAt(t []byte, i int) bool {
	return digitsAt(t, i, 2) && i+8 <= len(t) && t[i+2] == ':' && digitsAt(t, i+3, 2) && t[i+5] == ':' && digitsAt(t, i+6, 2)
}

// digitsAt reports whether t[i:] opens with n digits, with a byte after them.
func digitsAt(t []byte, i, n int) bool {
	if i < 0 || i+n >= len(t) {
		return false
	}
	for _, c := range t[i : i+n] {
		if !isDec(c) {
			return false
		}
	}
	return true
}
