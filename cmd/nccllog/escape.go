package main

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// escaped is s as text output shows text from the logs (host names, environment values,
// WARN text, file names, a partial result's anything): bytes a terminal would act on are
// spelled out, so that a crafted log can neither move the cursor, colour the screen nor
// forge a line. ESC is \e, tab \t, newline \n, carriage return \r; the other C0 bytes, DEL,
// the C1 controls (U+0080-U+009F, which some terminals obey) and bytes that are not UTF-8
// are \xNN, each byte. Everything else, UTF-8 included, is kept; a backslash is kept too,
// so the text is for reading: JSON gives the exact values.
func escaped(s string) string {
	if plainText(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1, r < 0x20 || r == 0x7f, r >= 0x80 && r <= 0x9f:
			escapeBytes(&b, s[i:i+n])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// plainText reports whether s holds nothing escaped would change: printable ASCII and UTF-8
// above the C1 controls, all that ordinary logs hold.
func plainText(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			continue
		}
		if c < 0x80 {
			return false
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || r <= 0x9f {
			return false
		}
		i += n - 1
	}
	return true
}

// escapeBytes writes a control character or an invalid byte as escaped spells it.
func escapeBytes(b *strings.Builder, s string) {
	if len(s) == 1 {
		switch s[0] {
		case 0x1b:
			b.WriteString(`\e`)
			return
		case '\t':
			b.WriteString(`\t`)
			return
		case '\n':
			b.WriteString(`\n`)
			return
		case '\r':
			b.WriteString(`\r`)
			return
		}
	}
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(b, `\x%02x`, s[i])
	}
}

// escapedArgs returns printf's arguments with every string, and what prints as one (an
// error, a fmt.Stringer), escaped; the format is the program's own and is kept.
func escapedArgs(a []any) []any {
	var out []any
	for i, v := range a {
		e := escapedArg(v)
		if e == nil {
			continue
		}
		if out == nil {
			out = append([]any(nil), a...)
		}
		out[i] = e
	}
	if out == nil {
		return a
	}
	return out
}

// escapedArg is v escaped, or nil where v needs nothing (a number, or plain text).
func escapedArg(v any) any {
	switch v := v.(type) {
	case string:
		if plainText(v) {
			return nil
		}
		return escaped(v)
	case int, int64, uint64, float64, bool: // the most common, before the interface checks
		return nil
	case error, fmt.Stringer:
		return escapedFormatter{v}
	}
	return nil
}

// escapedFormatter prints an error or a Stringer escaped where it prints as text (%s, %v,
// %q), and as it would otherwise (a Stringer that is a number, under %d).
type escapedFormatter struct{ v any }

func (e escapedFormatter) Format(f fmt.State, verb rune) {
	switch verb {
	case 's', 'v', 'q':
		fmt.Fprintf(f, fmt.FormatString(f, verb), escaped(fmt.Sprint(e.v)))
	default:
		fmt.Fprintf(f, fmt.FormatString(f, verb), e.v)
	}
}

// errorLine is err as one line of stderr: errors.Join's parts joined by "; " rather than
// newlines, every part escaped, so that no name or text inside it can break the line.
func errorLine(err error) string {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var parts []string
		for _, e := range j.Unwrap() {
			if e != nil {
				parts = append(parts, errorLine(e))
			}
		}
		return strings.Join(parts, "; ")
	}
	return escaped(err.Error())
}
