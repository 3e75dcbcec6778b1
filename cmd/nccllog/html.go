package main

import (
	"cmp"
	"io"
	"slices"
	"strings"

	"github.com/nccllog/nccllog/internal/htmlreport"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/agg"
	"github.com/nccllog/nccllog/stages/ranks"
)

// stagesOfHTML are what report --html computes beyond report: ranks, for the findings of hang
// and check and the per-rank and per-step volume.
var stagesOfHTML = []string{"ranks"}

// printReportOrHTML prints the report, unless --html sends it to a file (written by commit).
func printReportOrHTML(w *output, r *view) error {
	if r.opts.html != "" {
		return nil
	}
	return printReport(w, r)
}

// htmlOut is report's streamer under --html: it writes the page once the run has succeeded.
type htmlOut struct {
	nothing
	path string
}

func (h *htmlOut) commit(r *view, ok bool) error {
	if !ok {
		return nil
	}
	return writeOutput(h.path, func(w io.Writer) error { return htmlreport.Render(w, htmlData(r)) })
}

// htmlData fills the page's data from a run's results.
func htmlData(r *view) *htmlreport.Data {
	d := &htmlreport.Data{Title: "nccllog report: " + inputNames(r), Version: r.lines.Version,
		Lines: lineClasses(r.lines), Ops: opStats(r.agg), Hist: hist(r.agg), Dropped: dropped(r.agg)}
	for _, f := range r.res.Inputs {
		d.Inputs = append(d.Inputs, htmlreport.Input{Name: f.Name, Lines: f.Lines.Total})
	}
	d.Comms, d.Rank = processVolumes(r.ranks.Groups())
	d.Ranks = len(d.Rank)
	d.Steps = htmlSteps(r)
	d.Findings = append(hangFindings(r.ranks.HangReport()), checkFindings(r.ranks.CheckReport())...)
	return d
}

// processVolumes is what each process (a GPU's rank) moved over all its communicators,
// named by its rank in the largest communicator it belongs to: with tensor, pipeline and data
// parallel groups a job has several communicator ranks per GPU, and the page counts GPUs.
func processVolumes(groups []*ranks.Group) (comms int, out []htmlreport.RankVolume) {
	type proc struct {
		host string
		pid  int64
	}
	at := make(map[proc]int)
	for _, g := range groups {
		for _, m := range g.Members {
			i, seen := at[proc{m.Host, m.Pid}]
			if !seen {
				i = len(out)
				at[proc{m.Host, m.Pid}] = i
				out = append(out, htmlreport.RankVolume{Host: m.Host, Pid: m.Pid, Rank: -1})
			}
			p, v := &out[i], m.Volume()
			p.Calls, p.Bytes, p.BusBytes = p.Calls+m.Calls, p.Bytes+v.Bytes, p.BusBytes+v.BusBytes
			if !seen || g.NRanks > p.NRanks {
				p.Comm, p.NRanks, p.Rank = commLabel(g), g.NRanks, m.Rank
			}
			if m.End != "" {
				p.End = m.End
			}
		}
	}
	return len(groups), out
}

func inputNames(r *view) string {
	var names []string
	for _, f := range r.res.Inputs {
		names = append(names, f.Name)
	}
	if len(names) > 3 {
		return strings.Join(names[:3], ", ") + " and " + itoa(int64(len(names)-3)) + " more"
	}
	return strings.Join(names, ", ")
}

func lineClasses(l *stages.Lines) []htmlreport.ClassCount {
	var out []htmlreport.ClassCount
	for _, k := range lineClassOrder {
		if n := l.ByKind[k]; n > 0 || k.String() == "malformed" {
			out = append(out, htmlreport.ClassCount{Class: k.String(), Lines: n})
		}
	}
	if l.Unread > 0 {
		out = append(out, htmlreport.ClassCount{Class: "unread (outside --steps)", Lines: l.Unread})
	}
	if l.Spliced > 0 {
		out = append(out, htmlreport.ClassCount{Class: "(spliced)", Lines: l.Spliced})
	}
	return out
}

func opStats(a *agg.Agg) []htmlreport.OpStat {
	var out []htmlreport.OpStat
	for _, s := range a.Stats() {
		out = append(out, htmlreport.OpStat{Op: string(s.Op), Calls: s.Calls, Min: s.Min, Max: s.Max, Total: s.Total, Avg: s.Avg()})
	}
	return out
}

// hist lays the buckets out as one row per op and one column per size bucket (Agg.Hist
// lists only the buckets an op has calls in).
func hist(a *agg.Agg) htmlreport.Hist {
	var h htmlreport.Hist
	lo := append([]int64{0}, agg.DefaultEdges...)
	for i, l := range lo {
		hi := int64(-1)
		if i+1 < len(lo) {
			hi = lo[i+1]
		}
		h.Buckets = append(h.Buckets, bucketLabel(agg.Bucket{Lo: l, Hi: hi}))
	}
	for _, b := range a.Hist(agg.DefaultEdges) {
		if len(h.Ops) == 0 || h.Ops[len(h.Ops)-1] != string(b.Op) {
			h.Ops = append(h.Ops, string(b.Op))
			h.Counts = append(h.Counts, make([]int64, len(lo)))
		}
		h.Counts[len(h.Ops)-1][slices.Index(lo, b.Lo)] += b.Calls
	}
	return h
}

func dropped(a *agg.Agg) []htmlreport.Dropped {
	var out []htmlreport.Dropped
	for _, d := range a.DroppedRows() {
		out = append(out, htmlreport.Dropped{Op: string(d.Op), Reason: d.Reason, Calls: d.Calls})
	}
	return out
}

// htmlSteps joins the progress lines' time and TFLOP/s with what one rank issued in each step,
// summed over communicators, for every step either knows.
func htmlSteps(r *view) []htmlreport.Step {
	by := make(map[int64]*htmlreport.Step)
	at := func(n int64) *htmlreport.Step {
		if by[n] == nil {
			by[n] = &htmlreport.Step{Step: n}
		}
		return by[n]
	}
	for _, p := range r.steps.Points() {
		s := at(p.Step)
		s.HasTime, s.TimeS, s.HasFLOPs, s.TFLOPs = p.HasTime, p.TimeS, p.HasTFLOPs, p.TFLOPs
	}
	for _, g := range r.ranks.Groups() {
		for n, v := range r.ranks.StepVolume(g) {
			if r.opts.cfg.Selects(n) {
				s := at(n)
				s.Calls, s.Bytes, s.BusBytes = s.Calls+v.Calls, s.Bytes+v.Bytes, s.BusBytes+v.BusBytes
			}
		}
	}
	out := make([]htmlreport.Step, 0, len(by))
	for _, s := range by {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b htmlreport.Step) int { return cmp.Compare(a.Step, b.Step) })
	return out
}
