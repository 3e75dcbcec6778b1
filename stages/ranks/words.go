package ranks

import (
	"strings"

	"github.com/dustin/go-humanize"
)

// The little formatters the family's wording needs; cmd/nccllog has its own copies for the
// other commands' tables (each a line or two).

// count prints a count with thousands separators.
func count(v int64) string { return humanize.Comma(v) }

// size prints bytes in binary units (12 KiB, 9.5 MiB).
func size(v int64) string {
	if v < 0 {
		return "-" + humanize.IBytes(uint64(-v))
	}
	return humanize.IBytes(uint64(v))
}

func sizeF(v float64) string { return size(int64(v + 0.5)) }

// calls is "1 call" or "1,234 calls".
func calls(n int64) string {
	if n == 1 {
		return "1 call"
	}
	return count(n) + " calls"
}

// plural is "1 rank", "2 ranks", "1,024 processes".
func plural(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "s") {
		return count(n) + " " + word + "es"
	}
	return count(n) + " " + word + "s"
}

// known is v, nil where it is not known (negative): JSON's null.
func known(v int64) *int64 {
	if v < 0 {
		return nil
	}
	return &v
}

// orEmpty is s, or an empty list where it is nil: JSON's [] rather than null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// intList prints 0-7,9 for a sorted list.
func intList(rs []int64) string { return strings.Join(RankRuns(rs), ",") }

// RankRuns cuts sorted ranks into runs of consecutive ones: 0-6, 8. The info printer's rank
// cells use it too.
func RankRuns(rs []int64) []string {
	var parts []string
	for i := 0; i < len(rs); {
		j := i
		for j+1 < len(rs) && rs[j+1] == rs[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, itoa(rs[i])+"-"+itoa(rs[j]))
		} else {
			parts = append(parts, itoa(rs[i]))
		}
		i = j + 1
	}
	return parts
}

func withStep(s int64) string {
	if s < 0 {
		return ""
	}
	return ", step " + itoa(s)
}
