package ranks

import (
	"cmp"
	"slices"
	"strings"
)

// Side is one way the ranks of a communicator issued a call.
type Side struct {
	Sig     Sig
	Members []*Member
}

// CheckFinding is a disagreement between the ranks of a communicator: the first call where
// they issued different op, count, datatype, reduction op or root ("mismatch", with What
// naming every field that differs, comma-separated, in that order), or call sequences of
// different lengths ("length": the ranks behind the most any rank issued; not those where the
// input's end explains where they stop, Coverage.EndsCut and Coverage.Cut).
type CheckFinding struct {
	Group *Group
	Kind  FindingKind
	What  string
	Index int64 // the call's position in each rank's sequence
	Step  int64 // the step of that call, -1 where none is known
	Sides []Side
	// Short are the ranks that never got to the call (mismatch) or issued fewer calls than the
	// most any rank did (length), with how many each issued.
	Short []*Member
}

// Check returns every communicator's first mismatch and its length disagreement, if any.
func (r *Ranks) Check() []CheckFinding {
	r.settle()
	var out []CheckFinding
	for _, g := range r.Groups() {
		cov := r.Cover(g)
		out = r.checkOf(out, g, &cov)
	}
	return out
}

// Verdicts returns what Check and Hang return, from one grouping with each communicator's
// coverage worked out once: calling both groups and covers every communicator twice, which
// on a log of thousands of communicators costs as much as reading their lines.
func (r *Ranks) Verdicts() ([]CheckFinding, []HangFinding) {
	r.settle()
	gs := r.Groups()
	ctx, sctx := newAbsentCtx(gs), r.newStallCtx(gs)
	var checks []CheckFinding
	var hangs []HangFinding
	for _, g := range gs {
		cov := r.Cover(g)
		checks = r.checkOf(checks, g, &cov)
		hangs = append(hangs, r.hangOf(g, cov, ctx, sctx))
	}
	return checks, hangs
}

// Called reports whether a rank of a communicator kept in detail made a call. Without one,
// Verdicts has no mismatch and no rank that others waited on: a log of communicator set-up
// (tens of thousands of ranks) need not be grouped and covered to learn that.
func (r *Ranks) Called() bool {
	for _, g := range r.groups {
		if g.MaxCalls() > 0 {
			return true
		}
	}
	return false
}

// checkOf appends g's first mismatch and its length disagreement, if any, to out; cov is g's
// coverage.
func (r *Ranks) checkOf(out []CheckFinding, g *Group, cov *Coverage) []CheckFinding {
	if cov.Conflict != "" || cov.Truncated || g.shaky {
		return out
	}
	if f, ok := r.firstMismatch(g); ok {
		out = append(out, f)
	}
	if f, ok := lengthFinding(g, cov); ok {
		out = append(out, f)
	}
	return out
}

func (r *Ranks) firstMismatch(g *Group) (CheckFinding, bool) {
	k := int64(-1)
	for _, m := range g.Members {
		if d := m.FirstDiv(); d >= 0 && (k < 0 || d < k) {
			k = d
		}
	}
	if k < 0 {
		return CheckFinding{}, false
	}
	ref := *g.ref.at(k)
	f := CheckFinding{Group: g, Kind: KindMismatch, Index: k, Step: r.steps.step(ref.step)}
	bySig := map[Sig]*Side{}
	for _, m := range g.Members {
		s := r.sigs.sig(ref.sig)
		switch {
		case m.FirstDiv() == k:
			s = m.DivSig().compared()
		case m.Start > k:
			continue // its lines start after the call
		case m.Through() <= k:
			f.Short = append(f.Short, m)
			continue
		}
		if bySig[s] == nil {
			bySig[s] = &Side{Sig: s}
		}
		bySig[s].Members = append(bySig[s].Members, m)
	}
	for _, s := range bySig {
		f.Sides = append(f.Sides, *s)
	}
	sortSides(f.Sides)
	f.What = differs(f.Sides)
	return f, true
}

// sortSides puts the largest side first (the odd ones out last); sides of one size go in
// rank order, and where ranks are not known (an inferred communicator's), by process, so that
// the order never depends on the map the sides were gathered in.
func sortSides(s []Side) {
	slices.SortFunc(s, func(a, b Side) int {
		ma, mb := a.Members[0], b.Members[0]
		return cmp.Or(cmp.Compare(len(b.Members), len(a.Members)), cmp.Compare(rankOrder(ma), rankOrder(mb)),
			cmp.Compare(ma.Host, mb.Host), cmp.Compare(ma.Pid, mb.Pid), cmp.Compare(ma.CudaDev, mb.CudaDev))
	})
}

// differs names every field in which the sides' calls differ, comma-separated.
func differs(sides []Side) string {
	var op, count, dtype, redop, root bool
	a := sides[0].Sig
	for _, s := range sides[1:] {
		b := s.Sig
		op = op || a.Op != b.Op
		count = count || a.Count != b.Count
		dtype = dtype || a.Datatype != b.Datatype
		redop = redop || a.RedOp != b.RedOp
		root = root || a.Root != b.Root
	}
	var out []string
	for _, f := range []struct {
		name string
		set  bool
	}{{"op", op}, {"count", count}, {"datatype", dtype}, {"redop", redop}, {"root", root}} {
		if f.set {
			out = append(out, f.name)
		}
	}
	return strings.Join(out, ",")
}

// lengthFinding reports ranks that issued fewer calls than the most any rank did, but for
// those where the input's end explains it (cov).
func lengthFinding(g *Group, cov *Coverage) (CheckFinding, bool) {
	top := g.MaxCalls()
	f := CheckFinding{Group: g, Kind: KindLength, Index: top, Step: -1}
	if cov.EndsCut {
		return f, false
	}
	for _, m := range g.Members {
		if m.Through() < top && !cov.Cut(m) {
			f.Short = append(f.Short, m)
		}
	}
	return f, len(f.Short) > 0
}

// RefCall returns the call the reference sequence of g holds at index k (what the ranks that
// got that far issued) and its step; ok is false past its end or where it was not compared.
func (r *Ranks) RefCall(g *Group, k int64) (Sig, int64, bool) {
	r.settle()
	if k < 0 || k >= g.ref.len() || g.ref.at(k).sig == 0 {
		return Sig{}, g.StepOf(k), false
	}
	c := g.ref.at(k)
	return r.sigs.sig(c.sig), r.steps.step(c.step), true
}
