package diagnose

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// rasJSON folds the RAS JSON fields back into communicators and files each whole one's
// verdict as the text form's lines would be filed (rasItem): the communicator's status and
// errors, the INCOMPLETE, ERROR and MISMATCH entries with what differs and the outlier
// ranks, and the ranks RAS considers dead. The verdicts are NCCL's own (rasClientRunComms in
// src/ras/client_support.cc), computed from the raw data the JSON form prints instead. The
// items come after every other item in input order (the report is pasted after the log).
func (b *builder) rasJSON() {
	pos := len(b.e.Items)
	w := rasFold{done: func(c *rasComm) {
		for _, it := range rasVerdict(c) {
			b.rasItem(it, pos)
			pos++
		}
	}}
	for i := range b.e.RAS {
		w.field(&b.e.RAS[i])
	}
	w.end()
}

// rasStatusNames are NCCL's communicator states in its order (statusStr).
var rasStatusNames = []string{"NOCOMM", "INIT", "RUNNING", "FINALIZE", "ABORT"}

// rasVerdict returns the items of a communicator's verdict: none where it is not whole (cut,
// or its records do not add up to the sizes it declares) or has no error.
func rasVerdict(c *rasComm) []*Item {
	ranks, missing, ok := c.whole()
	if !ok {
		return nil
	}
	var v rasItems
	v.incomplete(c, missing)
	v.errors(c, ranks)
	st := v.statuses(c, ranks, missing)
	v.counts(c, ranks)
	if len(v.classes) == 0 && len(v.dead) == 0 {
		return nil
	}
	errs := ""
	for _, cl := range v.classes {
		errs += "," + cl.name
	}
	out := []*Item{rasNewItem(c.at, "comm_status", st+" "+errs[min(1, len(errs)):])}
	for _, cl := range v.classes {
		out = append(out, rasNewItem(c.at, "finding", "("+rasHash(c.hash)+") "+cl.name))
		out = append(out, cl.items...)
	}
	return append(out, v.dead...)
}

// rasClass is one entry of the verdict (INCOMPLETE, ERROR, MISMATCH): what differs, and the
// outlier ranks.
type rasClass struct {
	name  string
	items []*Item
}

type rasItems struct {
	classes []*rasClass
	dead    []*Item
}

// class returns the entry named name, opening it.
func (v *rasItems) class(name string) *rasClass {
	for _, cl := range v.classes {
		if cl.name == name {
			return cl
		}
	}
	cl := &rasClass{name: name}
	v.classes = append(v.classes, cl)
	return cl
}

// whole returns the communicator's ranks' and missing ranks' records, and whether they are
// all there: as many as the communicator declares, each rank once and inside it, every rank
// with the same collectives.
func (c *rasComm) whole() (ranks, missing []*rasRec, ok bool) {
	if c.bad || c.size < 0 || c.nRanks < 0 || c.nMissing < 0 {
		return nil, nil, false
	}
	seen := map[int64]bool{}
	for _, r := range c.recs {
		w, m := r.kind()
		if !w || r.rank >= c.size || seen[r.rank] {
			return nil, nil, false
		}
		seen[r.rank] = true
		if m {
			missing = append(missing, r)
		} else {
			ranks = append(ranks, r)
		}
	}
	if int64(len(ranks)) != c.nRanks || int64(len(missing)) != c.nMissing {
		return nil, nil, false
	}
	for _, r := range ranks {
		if !slices.Equal(r.ops, ranks[0].ops) {
			return nil, nil, false
		}
	}
	return ranks, missing, true
}

// incomplete files the missing ranks RAS could not reach (INCOMPLETE) and those it
// considers dead.
func (v *rasItems) incomplete(c *rasComm, missing []*rasRec) {
	var gone []*rasRec
	for _, r := range missing {
		if r.flags["unresponsive"] {
			gone = append(gone, r)
		}
		if r.flags["considered_dead"] {
			it := rasRankItem(r, "considered dead")
			it.Name = "dead"
			v.dead = append(v.dead, it)
		}
	}
	if len(gone) == 0 {
		return
	}
	cl := v.class("INCOMPLETE")
	cl.items = append(cl.items, rasNewItem(c.at, "finding", "Missing communicator data from "+plural(len(gone), "rank", "ranks")))
	if rasOutlier(len(gone), -1) {
		for _, r := range gone {
			cl.items = append(cl.items, rasRankItem(r, ""))
		}
	}
}

// errors files the ranks whose initialization or asynchronous error is set (ERROR): neither
// ncclSuccess (0) nor ncclInProgress (7).
func (v *rasItems) errors(c *rasComm, ranks []*rasRec) {
	for _, e := range []struct {
		what string
		of   func(*rasRec) int64
	}{{"Initialization", func(r *rasRec) int64 { return r.initState }}, {"Asynchronous", func(r *rasRec) int64 { return r.asyncErr }}} {
		var bad []*rasRec
		for _, r := range ranks {
			if n := e.of(r); n != 0 && n != 7 {
				bad = append(bad, r)
			}
		}
		if len(bad) == 0 {
			continue
		}
		cl := v.class("ERROR")
		s := "s"
		if len(bad) == 1 {
			s = ""
		}
		cl.items = append(cl.items, rasNewItem(c.at, "finding", fmt.Sprintf("%s error%s on %s", e.what, s, plural(len(bad), "rank", "ranks"))))
		if rasOutlier(len(bad), -1) {
			for _, r := range bad {
				cl.items = append(cl.items, rasRankItem(r, fmt.Sprintf("%s error %d", e.what, e.of(r))))
			}
		}
	}
}

// statuses files ranks whose status differs from the others' (MISMATCH), a missing rank that
// answered counting as NOCOMM; it returns the communicator's status, its ranks' most common.
func (v *rasItems) statuses(c *rasComm, ranks, missing []*rasRec) string {
	var by [5][]*rasRec
	for _, r := range ranks {
		by[r.status()] = append(by[r.status()], r)
	}
	for _, r := range missing {
		if !r.flags["unresponsive"] {
			by[0] = append(by[0], r)
		}
	}
	groups := rasGroups(by[:])
	if len(groups) == 0 {
		return "UNKNOWN"
	}
	main := rasStatusNames[groups[0]]
	if len(groups) < 2 {
		return main
	}
	cl := v.class("MISMATCH")
	cl.items = append(cl.items, rasNewItem(c.at, "finding", "Communicator ranks have different status"))
	for _, g := range groups {
		if rs := by[g]; len(rs) > 1 {
			cl.items = append(cl.items, rasNewItem(c.at, "finding", fmt.Sprintf("%d ranks have status %s", len(rs), rasStatusNames[g])))
		}
		if rs := by[g]; rasOutlier(len(rs), c.size) {
			for _, r := range sortedRecs(rs) {
				cl.items = append(cl.items, rasRankItem(r, rasIf(len(rs) == 1, "has status "+rasStatusNames[g])))
			}
		}
	}
	return main
}

// status is the rank's state as NCCL tells it: ABORT, FINALIZE, RUNNING or INIT.
func (r *rasRec) status() int {
	switch {
	case r.flags["abort_flag"]:
		return 4
	case r.flags["finalize_called"] || r.flags["destroy_flag"]:
		return 3
	case r.initState == 0:
		return 2
	}
	return 1
}

// rasGroups returns the indexes of the non-empty groups, the largest first (ties in order).
func rasGroups(by [][]*rasRec) []int {
	var gs []int
	for i := range by {
		if len(by[i]) > 0 {
			gs = append(gs, i)
		}
	}
	slices.SortStableFunc(gs, func(a, b int) int { return len(by[b]) - len(by[a]) })
	return gs
}

// counts files, per collective, the ranks whose operation count is not the others'
// (MISMATCH): groups of ranks by count, the outlier groups' ranks named.
func (v *rasItems) counts(c *rasComm, ranks []*rasRec) {
	if len(ranks) == 0 {
		return
	}
	for i, op := range ranks[0].ops {
		byVal := map[string][]*rasRec{}
		var vals []string
		for _, r := range ranks {
			if byVal[r.counts[i]] == nil {
				vals = append(vals, r.counts[i])
			}
			byVal[r.counts[i]] = append(byVal[r.counts[i]], r)
		}
		if len(vals) < 2 {
			continue
		}
		slices.SortStableFunc(vals, func(a, b string) int {
			return cmp.Or(len(byVal[b])-len(byVal[a]), cmp.Compare(rasNum(b), rasNum(a)))
		})
		cl := v.class("MISMATCH")
		cl.items = append(cl.items, rasNewItem(c.at, "finding", "Communicator ranks have different "+op+" operation counts"))
		for _, val := range vals {
			rs := byVal[val]
			what := "has launched up to operation " + val
			if val == "0" {
				what = "has not launched any operations"
			}
			if len(rs) > 1 {
				cl.items = append(cl.items, rasNewItem(c.at, "finding", strconv.Itoa(len(rs))+" ranks have"+what[3:]))
			}
			if !rasOutlier(len(rs), c.size) {
				continue
			}
			for _, r := range sortedRecs(rs) {
				cl.items = append(cl.items, rasRankItem(r, rasIf(len(rs) == 1, what)))
			}
		}
	}
}

// rasOutlier is NCCL's rasCountIsOutlier (not verbose): whether a group of count ranks, of
// total (-1: not said), is named rank by rank.
func rasOutlier(count int, total int64) bool {
	return count == 1 || count <= 10 && (total < 0 || int64(count)*4 <= total)
}

func rasIf(ok bool, s string) string {
	if ok {
		return s
	}
	return ""
}

func sortedRecs(rs []*rasRec) []*rasRec {
	return slices.SortedFunc(slices.Values(rs), func(a, b *rasRec) int { return cmp.Compare(a.rank, b.rank) })
}

// rasNewItem is a RAS item of the verdict, at the line of field f.
func rasNewItem(f *RASField, name, text string) *Item {
	return &Item{Ev: evRAS, Pid: -1, Rank: -1, RankLast: -1, GPU: -1, Code: -1, Seq: -1, Name: name,
		File: f.File, Line: f.Line, Text: text}
}

// rasRankItem names an outlier rank, at its record's "rank" line, as the text form's `Rank
// <r> [<what>] -- GPU <g> managed by process <pid> on node <addr>` does.
func rasRankItem(r *rasRec, what string) *Item {
	it := rasNewItem(r.at, "rank", what)
	it.Rank, it.RankLast, it.Pid, it.GPU = r.rank, r.rank, r.pid, r.gpu
	if r.host != "unknown" {
		it.Host = r.host
	}
	return it
}

// rasHash writes a communicator's hash as the text form does (%016lx): the JSON form's
// "0x..." without its prefix, zero-padded to 16 digits.
func rasHash(h string) string {
	h = strings.TrimPrefix(h, "0x")
	if len(h) < 16 {
		h = strings.Repeat("0", 16-len(h)) + h
	}
	return h
}
