package main

import (
	"io"
	"strings"

	"github.com/nccllog/nccllog/internal/htmlreport"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/agg"
	"github.com/nccllog/nccllog/stages/diagnose"
	"github.com/nccllog/nccllog/stages/ranks"
	"github.com/nccllog/nccllog/stages/steps"
	"github.com/nccllog/nccllog/stages/strag"
)

// stagesOfHTML are what report --html computes beyond report: ranks, for the verdicts of hang
// and check and the per-rank and per-step volume; info, for the set-up and WARN section;
// diagnose, for the first fault and what follows from it; stragglers, for the arrival lag by
// rank and step.
var stagesOfHTML = []string{"ranks", "info", "diagnose", "stragglers"}

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
		Lines: lineClasses(r.lines)}
	stats := r.agg.StatsReport()
	d.Ops, d.Hist, d.Dropped = opStats(stats), hist(r.agg.HistReport()), dropped(stats.Dropped)
	for _, f := range r.res.Inputs {
		d.Inputs = append(d.Inputs, htmlreport.Input{Name: f.Name, Lines: f.Lines.Total})
	}
	d.Comms, d.Rank = processVolumes(r.ranks.Groups())
	d.Ranks = len(d.Rank)
	d.Steps = htmlSteps(r)
	d.Hang, d.Check, d.VerdictNotes = htmlVerdicts(r)
	d.Setup = r.info.Report()
	diag := diagnose.Build(r.res.Set)
	d.Diagnosis = &diag
	rep, lags := strag.Lags(r.res.Set)
	d.Lags = &htmlreport.Lags{Report: rep, Map: lags}
	return d
}

// htmlVerdicts are hang's and check's Reports, whose sentences the page shows as those
// commands print them, and the lines they end with; with no communicator, hang's process
// groups alone and the sentence both commands print.
func htmlVerdicts(r *view) (*ranks.HangReport, *ranks.CheckReport, []string) {
	hang, check := r.ranks.HangReport(), r.ranks.CheckReport()
	switch {
	case len(r.ranks.Groups()) == 0 && len(hang.PGs) == 0:
		return nil, nil, []string{noRanksText}
	case len(r.ranks.Groups()) == 0:
		return &hang, nil, []string{noRanksText}
	case len(check.Findings) == 0:
		return &hang, &check, check.NoDisagreement(r.opts.steps)
	}
	return &hang, &check, nil
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
			if end := m.End(); end != "" {
				p.End = end
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

func opStats(rep agg.StatsReport) []htmlreport.OpStat {
	var out []htmlreport.OpStat
	for _, s := range rep.Ops {
		out = append(out, htmlreport.OpStat{Op: s.Op, Calls: s.Calls, Min: s.MinBytes, Max: s.MaxBytes, Total: s.TotalBytes, Avg: s.AvgBytes})
	}
	return out
}

// hist is the histogram as the page draws it: one row per op, one column per size bucket.
func hist(rep agg.HistReport) htmlreport.Hist {
	var h htmlreport.Hist
	for _, b := range agg.GridBuckets() {
		h.Buckets = append(h.Buckets, bucketLabel(b.LoBytes, b.HiBytes))
	}
	h.Ops, h.Counts = rep.Grid()
	return h
}

func dropped(rows []agg.DroppedRow) []htmlreport.Dropped {
	var out []htmlreport.Dropped
	for _, d := range rows {
		out = append(out, htmlreport.Dropped{Op: d.Op, Reason: d.Reason, Calls: d.Calls})
	}
	return out
}

// htmlSteps joins the progress lines' time and TFLOP/s with what one rank issued in each step,
// summed over communicators, for every step either knows.
func htmlSteps(r *view) []htmlreport.Step {
	volumes := func(yield func(int64, steps.Volume) bool) {
		for _, g := range r.ranks.Groups() {
			for n, v := range r.ranks.StepVolume(g) {
				if r.opts.cfg.Selects(n) && !yield(n, steps.Volume{Calls: v.Calls, Bytes: v.Bytes, BusBytes: v.BusBytes}) {
					return
				}
			}
		}
	}
	joined := steps.JoinVolumes(r.steps.Points(), volumes)
	out := make([]htmlreport.Step, 0, len(joined))
	for _, s := range joined {
		p := s.Point
		out = append(out, htmlreport.Step{Step: p.Step, HasTime: p.HasTime, TimeS: p.TimeS, HasFLOPs: p.HasTFLOPs,
			TFLOPs: p.TFLOPs, Calls: s.Calls, Bytes: s.Bytes, BusBytes: s.BusBytes})
	}
	return out
}
