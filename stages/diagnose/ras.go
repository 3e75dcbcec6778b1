package diagnose

import (
	"slices"
	"strconv"
	"strings"
)

// rasReport is what an NCCL RAS report's lines say, read in order (the text form's lines, or
// the JSON form's verdict, rasjson_verdict.go): the communicators table's rows that show an
// error, and the Errors and Warnings entries with the ranks and processes they name.
type rasReport struct {
	rows    []*Item
	entries []*rasEntry
	cur     *rasEntry // the entry the next lines belong to
}

// rasEntry is one entry: `#<g>-<c> (<hash>) <WHAT>` and its lines, or a job-level section
// (INCOMPLETE, DEAD, TIMEOUT) and its lines.
type rasEntry struct {
	comm, what string
	head       *Item
	lines      []*Item // what it finds: what differs, how many ranks have which count
	named      []*Item // its Rank and Process lines
	diffs      []*rasDiff
}

// rasDiff is one thing an entry finds different (`Communicator ranks have different
// AllGather operation counts`) and the groups of ranks it counts, as printed: NCCL prints the
// largest group first (rasValCountsCompareRev) and names only the ranks of small groups
// (rasCountIsOutlier).
type rasDiff struct {
	text   string
	counts bool // operation counts differ
	groups []*rasGroup
}

// rasGroup is n ranks at one value (an operation count; -1 where not a count), and those of
// them the report names.
type rasGroup struct {
	n     int
	val   int64
	ranks []int64
}

// rasItem files a RAS report line: the outlier ranks it names, and whether a communicator's
// status or a finding says something is wrong (MISMATCH, INCOMPLETE, DEAD, ...).
func (b *builder) rasItem(it *Item, pos int) {
	if b.ras == nil {
		b.ras, b.rasRep = newCand(KindRASReport, false), &rasReport{}
	}
	c, r := b.ras, b.rasRep
	switch it.Name {
	case "header":
		r.cur = nil
		if it.Text == "INCOMPLETE" || it.Text == "TIMEOUT" {
			r.open(it, "", it.Text)
		}
	case "comm_status":
		r.cur = nil
		if rasFaulty(it.Text) {
			r.rows = append(r.rows, it)
			c.add(it, pos, nil)
			c.fault = true
		}
	case "finding":
		if comm, what, ok := rasHead(it.Text); ok {
			r.open(it, comm, what)
		} else {
			r.line(it)
		}
		if rasFaulty(it.Text) {
			c.fault = true
		}
		c.add(it, pos, nil)
	case "rank", "dead":
		if it.Name == "dead" && it.Pid < 0 && it.Rank < 0 {
			r.open(it, "", "DEAD") // the DEAD section's head
		} else {
			r.name(it)
		}
		c.add(it, pos, nil)
		c.fault = true
	}
}

// rasFaulty reports whether a status or a finding says something is wrong.
func rasFaulty(s string) bool {
	for _, w := range []string{"MISMATCH", "INCOMPLETE", "DEAD", "ERROR", "TIMEOUT", "different"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// rasHead reads an entry's head as the item gives it: `(<hash>) <WHAT>`, or `<WHAT>` alone.
func rasHead(s string) (comm, what string, ok bool) {
	if h, rest, found := strings.Cut(s, ") "); found && strings.HasPrefix(h, "(") && !strings.Contains(rest, " ") {
		comm, s = h[1:], rest
	}
	switch s {
	case "MISMATCH", "ERROR", "INCOMPLETE":
		return comm, s, true
	}
	return "", "", false
}

func (r *rasReport) open(it *Item, comm, what string) {
	r.cur = &rasEntry{comm: comm, what: what, head: it}
	r.entries = append(r.entries, r.cur)
}

func (r *rasReport) entry() *rasEntry {
	if r.cur == nil {
		r.open(nil, "", "")
	}
	return r.cur
}

// line files a finding: what differs opens a diff, a count of ranks a group of the diff.
func (r *rasReport) line(it *Item) {
	e := r.entry()
	e.lines = append(e.lines, it)
	n, val, ok := rasCount(it.Text)
	if !ok {
		e.diffs = append(e.diffs, &rasDiff{text: it.Text, counts: strings.HasSuffix(it.Text, " operation counts")})
		return
	}
	d := e.diff()
	d.groups = append(d.groups, &rasGroup{n: n, val: val})
}

func (d *rasDiff) last() *rasGroup {
	if len(d.groups) == 0 {
		return nil
	}
	return d.groups[len(d.groups)-1]
}

func (e *rasEntry) diff() *rasDiff {
	if len(e.diffs) == 0 {
		e.diffs = append(e.diffs, &rasDiff{})
	}
	return e.diffs[len(e.diffs)-1]
}

// name files a Rank or Process line: a rank joins the group of the count line before it
// while that group has room, else it is a group of its own (`Rank 5 has launched up to
// operation 6649 -- ...`).
func (r *rasReport) name(it *Item) {
	e := r.entry()
	e.named = append(e.named, it)
	if it.Name != "rank" || it.Rank < 0 {
		return
	}
	d := e.diff()
	val := int64(-1)
	if _, v, ok := rasCount("1 ranks have " + strings.TrimPrefix(it.Text, "has ")); ok {
		val = v
	}
	if g := d.last(); it.Text != "" || g == nil || len(g.ranks) >= g.n {
		d.groups = append(d.groups, &rasGroup{n: 1, val: val})
	}
	g := d.groups[len(d.groups)-1]
	g.ranks = append(g.ranks, it.Rank)
}

// rasCount reads `<n> ranks have launched up to operation <v>`, `<n> ranks have not
// launched any operations` (v 0) and `<n> ranks have status <s>` (v -1).
func rasCount(s string) (n int, val int64, ok bool) {
	num, rest, _ := strings.Cut(s, " ranks have ")
	k, err := strconv.ParseInt(num, 10, 32)
	if err != nil || k < 1 || rest == "" {
		return 0, 0, false
	}
	switch {
	case rest == "not launched any operations":
		return int(k), 0, true
	case strings.HasPrefix(rest, "launched up to operation "):
		v, err := strconv.ParseInt(strings.TrimPrefix(rest, "launched up to operation "), 10, 64)
		return int(k), v, err == nil
	case strings.HasPrefix(rest, "status "):
		return int(k), -1, true
	}
	return 0, 0, false
}

// rasDone gives the RAS finding its processes, ranks, communicator, evidence and sentence,
// once every line is read.
func (b *builder) rasDone() {
	c, r := b.ras, b.rasRep
	if c == nil || !c.fault {
		return
	}
	lead := r.lead()
	var items []*Item
	if lead != nil {
		items = lead.evidence()
	}
	for _, e := range r.entries {
		if len(e.named) > 0 && e != lead {
			items = append(items, e.evidence()...)
		}
	}
	for _, e := range r.entries {
		if len(e.named) == 0 && e != lead {
			items = append(items, e.evidence()...)
		}
		for _, it := range e.named {
			b.rasNamed(c, it)
		}
	}
	if len(items) == 0 {
		items = r.rows // a report cut before its entries
	}
	c.items = items
	if lead != nil {
		c.comm = lead.comm
	}
	c.summary = r.summary(lead, c)
	if d := lead.countDiff(); d != nil && d.namesAhead() {
		c.ranks, c.procs = nil, nil // the ranks it names are ahead: not the ones that stopped
	}
}

// rasNamed adds the rank or process a Rank or Process line names: the process the log's NCCL
// lines show where its rank and pid are the same (RAS prints the node's address, NCCL its
// host name).
func (b *builder) rasNamed(c *cand, it *Item) {
	if it.Rank >= 0 && !containsRank(c.ranks, it.Rank) {
		c.ranks = append(c.ranks, it.Rank)
	}
	p := b.x.byRank[it.Rank]
	if p == nil || it.Pid < 0 || p.pid != it.Pid {
		p = nil
		if it.Pid >= 0 {
			p = b.x.of(it)
		}
	}
	if p != nil && !slices.Contains(c.procs, p) {
		c.procs = append(c.procs, p)
	}
}

// lead is the entry the sentence tells: the first that names ranks, else the first.
func (r *rasReport) lead() *rasEntry {
	for _, e := range r.entries {
		if len(e.named) > 0 && e.comm != "" {
			return e
		}
	}
	for _, e := range r.entries {
		if len(e.named) > 0 {
			return e
		}
	}
	if len(r.entries) > 0 {
		return r.entries[0]
	}
	return nil
}

// evidence is the entry's lines to cite, most telling first: what differs, the ranks and
// processes it names, the counts, its head.
func (e *rasEntry) evidence() []*Item {
	var out, counts []*Item
	for _, it := range e.lines {
		if _, _, ok := rasCount(it.Text); ok {
			counts = append(counts, it)
		} else {
			out = append(out, it)
		}
	}
	out = append(append(out, e.named...), counts...)
	if e.head != nil {
		out = append(out, e.head)
	}
	return out
}

func containsRank(rs []int64, r int64) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// rasLineText says a RAS line again where its item keeps no text of its own: `Rank <r>
// [<what>] -- GPU <g> managed by process <pid> on node <addr>`, `Process <pid> on node
// <addr> managing GPU <g>`.
func rasLineText(it *Item) string {
	switch {
	case it.Name == "rank":
		s := "Rank " + itoa(it.Rank)
		if it.Text != "" {
			s += " " + it.Text
		}
		if it.Pid < 0 {
			return s + " -- [process information not found]"
		}
		return s + " -- GPU " + itoa(it.GPU) + " managed by process " + itoa(it.Pid) + " on node " + it.Host
	case it.Name == "dead" && it.Pid >= 0:
		return "Process " + itoa(it.Pid) + " on node " + it.Host + " managing GPU " + itoa(it.GPU)
	case it.Text != "":
		return it.Text
	}
	return "NCCL RAS " + it.Name
}
