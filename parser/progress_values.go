package parser

import (
	"math"
	"strconv"
	"strings"
)

// NonFinite says which non-finite value a progress line printed for a number, as Python
// prints them (`inf`, `-inf`, `nan`; a step timed at zero gives inf TFLOP/s). Finite is the
// zero value.
type NonFinite uint8

const (
	Finite NonFinite = iota
	PosInf
	NegInf
	NaN
)

// NonFiniteOf classes v.
func NonFiniteOf(v float64) NonFinite {
	switch {
	case math.IsNaN(v):
		return NaN
	case math.IsInf(v, 1):
		return PosInf
	case math.IsInf(v, -1):
		return NegInf
	}
	return Finite
}

// Value is the number a field holds: finite where c is Finite, else the non-finite value c
// names.
func (c NonFinite) Value(finite float64) float64 {
	switch c {
	case PosInf:
		return math.Inf(1)
	case NegInf:
		return math.Inf(-1)
	case NaN:
		return math.NaN()
	}
	return finite
}

// String is how Python prints the value ("" for Finite).
func (c NonFinite) String() string {
	switch c {
	case PosInf:
		return "inf"
	case NegInf:
		return "-inf"
	case NaN:
		return "nan"
	}
	return ""
}

// setNumber stores v in *f, or its class in *nf where it is not finite (then *f is 0): a Line
// holding NaN would equal no Line, not even itself, and the scanner is held to the grammar
// by comparing Lines.
func setNumber(v float64, f *float64, nf *NonFinite) {
	if c := NonFiniteOf(v); c != Finite {
		*f, *nf = 0, c
		return
	}
	*f, *nf = v, Finite
}

// setField takes the step time and TFLOP/s from the fields that hold them. The time is
// printed in units of 10^timeExp seconds (Megatron-LM: milliseconds, -3) and is converted in
// decimal, so 820.7 ms is the float nearest 0.8207 s, not 820.7 × 0.001. A value that is not
// a number leaves the field unset; inf, -inf and nan set it, marked non-finite.
func (p *Progress) setField(key, value, timeKey string, timeExp int, tflopsKey string) {
	switch key {
	case timeKey:
		if v, ok := parseDecimal(value, timeExp); ok {
			setNumber(v, &p.TimeS, &p.TimeNF)
			p.HasTime = true
		}
	case tflopsKey:
		if v, ok := parseDecimal(value, 0); ok {
			setNumber(v, &p.TFLOPs, &p.TFLOPsNF)
			p.HasTFLOPs = true
		}
	}
}

// parseDecimal reads a number as frameworks print it (2.376, 1.249e+03, torchtitan's
// thousands separators in 1,339.16) and returns it times 10^exp, rounded once. inf, -inf,
// infinity and nan in any case (and C's -nan) are their values, whatever exp: where the
// number is not read otherwise (so they cost a finite number nothing).
func parseDecimal(s string, exp int) (float64, bool) {
	if v, ok := parsePlain(s, exp); ok {
		return v, true
	}
	return parseSpecial(s)
}

// parsePlain is parseDecimal but for the special spellings: ParseFloat reads them where exp
// is 0 (but for -nan); with exp they become no number ("inf" becomes "infe-3").
func parsePlain(s string, exp int) (float64, bool) {
	s, ok := dropThousands(s)
	if !ok {
		return 0, false
	}
	if exp != 0 {
		mant, e, hasExp := strings.Cut(strings.ToLower(s), "e")
		n := 0
		if hasExp {
			var err error
			if n, err = strconv.Atoi(e); err != nil {
				return 0, false
			}
		}
		s = mant + "e" + strconv.Itoa(n+exp)
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}

// parseSpecial reads the non-finite spellings, and nothing else.
func parseSpecial(s string) (float64, bool) {
	if len(s) == 4 && (s[0] == '-' || s[0] == '+') && strings.EqualFold(s[1:], "nan") {
		return math.NaN(), true // C's printf, unlike Python, prints the sign of a NaN
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil && NonFiniteOf(v) != Finite
}

// dropThousands removes the ',' separators of a number's integer part (Python's `{:,}`): an
// optional '-', one to three digits, then groups of ',' and three digits. A ',' anywhere
// else makes it no number.
func dropThousands(s string) (string, bool) {
	if !strings.Contains(s, ",") {
		return s, true
	}
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	intEnd := strings.IndexAny(s, ".eE")
	if intEnd < 0 {
		intEnd = len(s)
	}
	groups := strings.Split(s[:intEnd], ",")
	if len(groups[0]) < 1 || len(groups[0]) > 3 || strings.Contains(s[intEnd:], ",") {
		return "", false
	}
	for i, g := range groups {
		if i > 0 && len(g) != 3 || strings.Trim(g, "0123456789") != "" {
			return "", false
		}
	}
	return sign + strings.Join(groups, "") + s[intEnd:], true
}

// blankSGR replaces each ANSI SGR escape (ESC [ digits and ';' m: colours, bold, reset) with
// a space. torchtitan colours every field of its progress line; the colours are display
// attributes, not text. A space rather than nothing: every word of the result is a word of
// the line as printed, so a progress line still holds the word "step" that split looks for.
func blankSGR(text string) string {
	if !strings.Contains(text, "\x1b[") {
		return text
	}
	var b strings.Builder
	for {
		i := strings.Index(text, "\x1b[")
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		j := i + 2
		for j < len(text) && (text[j] >= '0' && text[j] <= '9' || text[j] == ';') {
			j++
		}
		if j < len(text) && text[j] == 'm' {
			b.WriteString(text[:i])
			b.WriteByte(' ')
			text = text[j+1:]
			continue
		}
		b.WriteString(text[:j])
		text = text[j:]
	}
}
