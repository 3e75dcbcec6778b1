package parser

import (
	"errors"
	"strings"
)

// The capture types read numbers in the base NCCL prints them. They never use base 0: a
// leading zero is not octal, and `1a` is hexadecimal only where NCCL prints %lx.

var errNumber = errors.New("not a number")

// decNum is a %d / %zi / %zu field: optional minus, decimal digits.
type decNum int64

func (d *decNum) Capture(values []string) error {
	v, err := parseDec(strings.Join(values, ""))
	*d = decNum(v)
	return err
}

// hexNum is a %lx / %x field: hexadecimal digits without 0x.
type hexNum uint64

func (h *hexNum) Capture(values []string) error {
	v, err := parseHex(strings.Join(values, ""))
	*h = hexNum(v)
	return err
}

// ptrNum is a %p field: 0x followed by hexadecimal digits, or (nil).
type ptrNum uint64

func (p *ptrNum) Capture(values []string) error {
	s := strings.Join(values, "")
	if s == "(nil)" {
		*p = 0
		return nil
	}
	if len(s) < 3 || s[0] != '0' || s[1] != 'x' {
		return errNumber
	}
	v, err := parseHex(s[2:])
	*p = ptrNum(v)
	return err
}

// ptrField is a collective line's %p field as a poster may have left it: a pointer, (nil), or
// any other run of text without white space (`<PTR>`, `0x...`, `XXX`, `[ptr]`), which is a
// pointer nccllog cannot read (Unread) rather than a reason to drop the call.
type ptrField struct {
	V      uint64
	Unread bool
}

func (p *ptrField) Capture(values []string) error {
	p.V, p.Unread = ptrValue(strings.Join(values, ""))
	p.Unread = !p.Unread
	return nil
}

// ptrValue reads a %p field's text: (nil) is 0, 0x and 1 to 16 hexadecimal digits a pointer;
// ok is false for any other text.
func ptrValue[T string | []byte](s T) (v uint64, ok bool) {
	if string(s) == "(nil)" {
		return 0, true
	}
	if len(s) < 3 || s[0] != '0' || s[1] != 'x' {
		return 0, false
	}
	v, err := parseHex(s[2:])
	if err != nil {
		return 0, false
	}
	return v, true
}

func parseDec[T string | []byte](s T) (int64, error) {
	neg := false
	if len(s) > 0 && s[0] == '-' {
		neg, s = true, s[1:]
	}
	if len(s) == 0 || len(s) > 18 {
		return 0, errNumber
	}
	var v int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, errNumber
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, nil
}

func parseHex[T string | []byte](s T) (uint64, error) {
	if len(s) == 0 || len(s) > 16 {
		return 0, errNumber
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		d, ok := hexDigit(s[i])
		if !ok {
			return 0, errNumber
		}
		v = v<<4 | uint64(d)
	}
	return v, nil
}

// hexVal is each byte's value as a hexadecimal digit, or 0xff.
var hexVal = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = byte(c-'a') + 10
		t[c-'a'+'A'] = byte(c-'a') + 10
	}
	return t
}()

func hexDigit(c byte) (byte, bool) {
	v := hexVal[c]
	return v, v != 0xff
}

// hptWord is the `host:pid:tid` token of an envelope.
type hptWord struct {
	Host     string
	Pid, Tid int64
}

func (h *hptWord) Capture(values []string) error {
	s := strings.Join(values, "")
	j := strings.LastIndexByte(s, ':')
	i := strings.LastIndexByte(s[:max(j, 0)], ':')
	if i < 0 { // i == 0: a host the line printed empty (`:168:1228`)
		return errNumber
	}
	pid, err1 := parseDec(s[i+1 : j])
	tid, err2 := parseDec(s[j+1:])
	if err1 != nil || err2 != nil {
		return errNumber
	}
	*h = hptWord{Host: strings.Clone(s[:i]), Pid: pid, Tid: tid}
	return nil
}

// optDec is an optional %d field's value, -1 where the line did not print it.
func optDec(d *decNum) int64 {
	if d == nil {
		return -1
	}
	return int64(*d)
}
