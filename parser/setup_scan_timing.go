package parser

import "strconv"

// scanInitTimings reads `Init timings: rank 0 nranks 16 total 1.84 (kernels 0.21, ...)` and
// 2.23's `Init timings - ncclCommInitRank: rank ...` after their first word.
func scanInitTimings(c *setupCur) (Setup, bool) {
	if !c.sp() || !c.lit("timings") {
		return Setup{}, false
	}
	t := Timing{}
	if !c.lit(":") {
		if !c.sp() || !c.lit("-") || !c.sp() {
			return Setup{}, false
		}
		api, ok := c.word()
		if !ok || !c.lit(":") {
			return Setup{}, false
		}
		t.API = apiName(api)
	}
	var ok bool
	if !c.spLit("rank") || !c.sp() {
		return Setup{}, false
	}
	if t.Rank, ok = c.dec(); !ok || !c.spLit("nranks") || !c.sp() {
		return Setup{}, false
	}
	if t.NRanks, ok = c.dec(); !ok || !c.spLit("total") {
		return Setup{}, false
	}
	if !c.timingRest(&t) {
		return Setup{}, false
	}
	return Setup{Kind: SetupTimings, Timing: t}, true
}

// scanBootTimings reads `Bootstrap timings total 0.35 (create 0.01, ...)` after its first
// word.
func scanBootTimings(c *setupCur) (Setup, bool) {
	if !c.spLit("timings") || !c.spLit("total") {
		return Setup{}, false
	}
	t := Timing{Rank: -1, NRanks: -1}
	if !c.timingRest(&t) {
		return Setup{}, false
	}
	return Setup{Kind: SetupBootTimings, Timing: t}, true
}

// timingRest reads ` 1.84 (kernels 0.21, alloc 0.02)`, the total and its optional parts, to
// the message's end. It takes only a total of digits and '.', which strconv.ParseFloat
// reads as the grammar does, and parts printed as partsText prints them.
func (c *setupCur) timingRest(t *Timing) bool {
	if !c.sp() {
		return false
	}
	w, ok := c.word()
	if !ok || !plainDecimal(w) {
		return false
	}
	if t.Total, ok = parseTotal(w); !ok {
		return false
	}
	if c.end() {
		return true
	}
	if !c.sp() || !c.lit("(") {
		return false
	}
	from := c.i
	for {
		if _, ok := c.word(); !ok || !c.lit(" ") {
			return false
		}
		if _, ok := c.word(); !ok {
			return false
		}
		if c.lit(")") {
			break
		}
		if !c.lit(",") || !c.lit(" ") {
			return false
		}
	}
	t.Parts = string(c.b[from : c.i-1])
	return c.end()
}

func parseTotal(w []byte) (float64, bool) {
	f, err := strconv.ParseFloat(string(w), 64)
	return f, err == nil
}

// plainDecimal reports whether w is digits and '.' only.
func plainDecimal(w []byte) bool {
	for _, b := range w {
		if !isDigit(b) && b != '.' {
			return false
		}
	}
	return true
}

// apiName returns the communicator-creating call's name, without allocating for the ones
// NCCL prints.
func apiName(b []byte) string {
	for _, n := range [...]string{"ncclCommInitRank", "ncclCommInitRankConfig", "ncclCommInitAll", "ncclCommSplit",
		"ncclCommInitRankScalable", "ncclCommShrink"} {
		if string(b) == n {
			return n
		}
	}
	return string(b)
}
