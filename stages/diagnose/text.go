package diagnose

import (
	"strconv"
	"strings"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// rankList writes sorted ranks with runs folded: "0-8, 10-15".
func rankList(rs []int64) string {
	var b strings.Builder
	for i := 0; i < len(rs); {
		j := i
		for j+1 < len(rs) && rs[j+1] == rs[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(itoa(rs[i]))
		if j > i {
			b.WriteString("-" + itoa(rs[j]))
		}
		i = j + 1
	}
	return b.String()
}

// short cuts a message for a sentence.
func short(s string) string {
	const n = 160
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// some counts what a sentence names, "A process" (with one) where the lines name none: a
// line that shows no process still shows one printed it.
func some(n int, one, many string) string {
	if n == 0 {
		return "A " + one
	}
	return plural(n, one, many)
}

// decimalAt is the number that opens s (up to 18 digits, so that it cannot overflow) and
// how many bytes it takes; n is 0 where s opens with no digit.
func decimalAt[T ~string | ~[]byte](s T) (v int64, n int) {
	for n < len(s) && n < 18 && s[n] >= '0' && s[n] <= '9' {
		v = v*10 + int64(s[n]-'0')
		n++
	}
	return v, n
}
