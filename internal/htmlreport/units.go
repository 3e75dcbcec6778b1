package htmlreport

import (
	"math"
	"strconv"
	"strings"
)

// byteUnits are the binary units a chart axis or a table cell is scaled to.
var byteUnits = []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}

// byteScale is the unit that shows max with at most four digits before the point, and its
// divisor: a chart's axis is labelled once with the unit, its values scaled by the divisor.
func byteScale(max float64) (unit string, div float64) {
	div = 1
	i := 0
	for max/div >= 1024 && i < len(byteUnits)-1 {
		div *= 1024
		i++
	}
	return byteUnits[i], div
}

// humanBytes is b in the largest unit that keeps it at 1 or more, with three significant
// digits: 512 B, 1.5 MiB, 24 GiB.
func humanBytes(b float64) string {
	unit, div := byteScale(b)
	v := b / div
	if v >= 1023.5 && unit != byteUnits[len(byteUnits)-1] {
		// 1023.9 KiB would print as "1024 KiB": say 1.00 MiB.
		unit, div = byteScale(b + div)
		v = b / div
	}
	switch {
	case unit == "B":
		return strconv.FormatFloat(v, 'f', 0, 64) + " B"
	case v < 10:
		return strconv.FormatFloat(v, 'f', 2, 64) + " " + unit
	case v < 100:
		return strconv.FormatFloat(v, 'f', 1, 64) + " " + unit
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + " " + unit
}

// humanCount is n with thousands separators: 1,234,567.
func humanCount(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// round3 keeps three decimals, so chart data stays short and readable in tooltips.
func round3(v float64) float64 {
	if r := math.Round(v*1000) / 1000; finite(r) {
		return r
	}
	return v // past 1.8e305 v*1000 overflows; such a number has no thousandths to round
}

func finite(v float64) bool { return !math.IsInf(v, 0) && !math.IsNaN(v) }

// fixed is v with prec decimals, and inf, -inf or nan as Python prints them where it is not
// finite (fmt would print +Inf and NaN).
func fixed(prec int, v float64) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}

// humanLag is a lag given in ms, in ms below a second and in s from it, with three
// significant digits where it has a fraction: 0.5 ms, 12.3 ms, 250 ms, 1.25 s.
func humanLag(ms float64) string {
	if !finite(ms) {
		return fixed(0, ms) + " ms"
	}
	v, unit := ms, "ms"
	if math.Abs(ms) >= 999.5 {
		v, unit = ms/1e3, "s"
	}
	a := math.Abs(v)
	switch {
	case a == 0:
		return "0 " + unit
	case a < 10:
		return strconv.FormatFloat(v, 'f', 2, 64) + " " + unit
	case a < 100:
		return strconv.FormatFloat(v, 'f', 1, 64) + " " + unit
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + " " + unit
}
