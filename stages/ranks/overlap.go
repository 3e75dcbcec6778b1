package ranks

// histCap is how many calls of a rank without an Init line are kept to align an excerpt
// whose opCounts say nothing (2.8's are 0, 2.27+'s can stay 0): beyond it the rank's log is
// no excerpt, and its calls stay aligned by position.
const histCap = 2048

// remember keeps call c of m for realign, while m may be part of such an excerpt.
func (m *Member) remember(c refCall) {
	switch {
	case m.rankFrom == rankInit || m.histOver:
	case len(m.kept()) < histCap:
		mc := m.callState()
		mc.hist = append(mc.hist, c)
	default:
		m.calls.hist, m.histOver = nil, true
	}
}

// realign places the ranks of an excerpt without usable opCounts (no Init line, opCounts 0 or
// not going up) where their calls overlap longest, instead of all at position 0: pasted tails
// of each rank's log start at different calls. It rebuilds the reference sequence and each
// rank's first divergence from the kept calls. It does nothing where any rank was placed by
// opCount or has no kept calls.
func (r *Ranks) realign(g *Group) {
	if g.aligned || !g.needsOverlap() {
		return
	}
	g.aligned = true
	anchor := g.Members[0]
	for _, m := range g.Members {
		if len(m.kept()) > len(anchor.kept()) {
			anchor = m
		}
	}
	lo := int64(0)
	for _, m := range g.Members {
		m.Start = bestOffset(anchor.kept(), m.kept())
		lo = min(lo, m.Start)
	}
	for _, m := range g.Members {
		m.Start -= lo
	}
	r.rebuild(g)
}

// needsOverlap reports whether g is such an excerpt: two or more ranks with calls, every one
// kept, none placed by opCount.
func (g *Group) needsOverlap() bool {
	n := 0
	for _, m := range g.Members {
		if m.Calls == 0 {
			continue
		}
		if m.rankFrom == rankInit || m.histOver || int64(len(m.kept())) != m.Calls || m.Start != 0 {
			return false
		}
		n++
	}
	for i := range g.ref.len() {
		if g.ref.at(i).op != 0 && !g.opsDown {
			return false
		}
	}
	return n >= 2
}

// bestOffset is where b's first call falls relative to a's (negative: before it) so that
// the most of their overlapping calls agree; ties go to the offset nearest 0.
// Where every call agrees at offset 0 (a whole log, not an excerpt) it looks no further, so
// that a healthy log costs one pass.
func bestOffset(a, b []refCall) int64 {
	if agreeing(a, b, 0) == min(len(a), len(b)) {
		return 0
	}
	best, bestScore := int64(0), -1
	for d := -int64(len(b)) + 1; d < int64(len(a)); d++ {
		score := agreeing(a, b, d)
		if score > bestScore || (score == bestScore && abs(d) < abs(best)) {
			best, bestScore = d, score
		}
	}
	return best
}

// agreeing counts the calls of b that agree with a's where b's first call is at a's d.
func agreeing(a, b []refCall, d int64) int {
	score := 0
	for i := max(0, -d); i < int64(len(b)) && i+d < int64(len(a)); i++ {
		if agree(a[i+d].sig, b[i].sig) {
			score++
		}
	}
	return score
}

func agree(x, y uint32) bool { return x == y || x == 0 || y == 0 }

func abs(v int64) int64 { return max(v, -v) }

// rebuild makes the reference sequence and each rank's first divergence anew from the kept
// calls at the ranks' starts.
func (r *Ranks) rebuild(g *Group) {
	g.ref = refSeq{}
	for _, m := range g.Members {
		m.noDiv()
		for i, c := range m.kept() {
			pos := m.Start + int64(i)
			for g.ref.len() <= pos {
				g.ref.push(refCall{})
			}
			ref := g.ref.at(pos)
			if ref.step == 0 {
				ref.step = c.step
			}
			switch {
			case ref.sig == 0:
				ref.sig = c.sig
			case c.sig != 0 && ref.sig != c.sig && m.FirstDiv() < 0:
				m.setDiv(pos, r.sigs.sig(c.sig))
			}
		}
	}
}
