package ranks

// shakyOverlap reports whether realign placed some rank of g (an excerpt whose opCounts say
// nothing) where no more than half of its calls that meet those of the rank with the most
// calls agree with them: the best overlap of a few calls, or of two communicators' calls,
// is no placement, and the calls it puts side by side are not compared (Group.shaky).
func shakyOverlap(g *Group) bool {
	if !g.aligned {
		return false
	}
	anchor := g.Members[0]
	for _, m := range g.Members {
		if len(m.kept()) > len(anchor.kept()) {
			anchor = m
		}
	}
	for _, m := range g.Members {
		if m == anchor || len(m.kept()) == 0 {
			continue
		}
		d := m.Start - anchor.Start
		n := meet(anchor.kept(), m.kept(), d)
		agree := int64(agreeing(anchor.kept(), m.kept(), d))
		if n > 0 && (2*agree <= n || agree < n && fitsElsewhere(anchor.kept(), m.kept(), d)) {
			return true
		}
	}
	return false
}

// meet is how many calls of b meet calls of a where b's first call is at a's d.
func meet(a, b []refCall, d int64) int64 {
	return max(min(int64(len(a)), d+int64(len(b)))-max(0, d), 0)
}

// fitsElsewhere reports whether b fits a at an offset other than d with every call that
// meets agreeing, two or more: a training loop repeats its calls, so that the best overlap
// of an excerpt's ranks can be a step off, with calls that differ where the other offset
// has none. Where so, the calls that differ at d say nothing.
func fitsElsewhere(a, b []refCall, d int64) bool {
	for e := -int64(len(b)) + 2; e < int64(len(a))-1; e++ {
		if n := meet(a, b, e); e != d && n >= 2 && int64(agreeing(a, b, e)) == n {
			return true
		}
	}
	return false
}
