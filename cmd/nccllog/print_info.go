package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nccllog/nccllog/stages/info"
	"github.com/nccllog/nccllog/stages/ranks"
)

// shownTimings is how many init timing lines the table shows; JSON has them all.
const shownTimings = 10

func printInfo(w *output, r *view) error {
	rep := r.info.Report()
	if r.opts.format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printOutliers(w, rep.Outliers)
	printIdentity(w, rep)
	printCommsInfo(w, rep.Comms)
	if rep.CommsNotListed > 0 {
		w.printf("  more than %s communicators: per-communicator detail truncated; %s Init lines of later ones not listed, and communicators per process not compared\n",
			count(ranks.MaxComms), count(rep.CommsNotListed))
	}
	if n := rep.CommsNotWhole; n > 0 {
		w.printf("  %s not whole in the log (a rank missing, or with Init START and no COMPLETE: an excerpt, one node's log, a log that ends in init): communicators per process not compared\n",
			plural(int64(n), "communicator"))
	}
	printFacts(w, "network and transports", rep.Network)
	printFacts(w, "environment", rep.Env)
	printTuning(w, rep.Tuning)
	printTimings(w, rep.Timings)
	printWarns(w, rep)
	printMissing(w, rep.Missing)
	return nil
}

func printOutliers(w *output, os []info.Outlier) {
	w.printf("== outliers ==\n")
	if len(os) == 0 {
		w.printf("none: every rank that states a fact below states the same\n")
		return
	}
	t := newTextTable(w, "what", "value", "majority", "ranks", "hosts", "evidence")
	for _, o := range os {
		t.row(o.What, o.Value, o.Majority, ranksCell(o.Ranks), hostsCell(o.Hosts), o.Evidence)
	}
	t.flush()
}

func printIdentity(w *output, rep *info.InfoReport) {
	w.printf("\n== identity ==\n%s on %s\n", plural(int64(rep.Processes), "process"), plural(int64(len(rep.Hosts)), "host"))
	for _, v := range rep.Versions {
		w.printf("%s: %s (ranks %s)\n", v.Label(), plural(int64(v.Processes), "process"), ranksCell(v.Ranks))
	}
	for _, v := range rep.BareVersions {
		w.printf("%s version %s (%s without an envelope, first %s)\n", v.Lib, v.Version, plural(v.Lines, "line"), v.Evidence)
	}
	if len(rep.Hosts) == 0 {
		return
	}
	t := newTextTable(w, "host", "processes", "GPUs (cudaDev/nvmlDev/busId)")
	for _, h := range rep.Hosts {
		gs := make([]string, len(h.GPUs))
		for i, g := range h.GPUs {
			gs[i] = fmt.Sprintf("%s/%s/%s", devText(g.CudaDev), devText(g.NvmlDev), cmp.Or(g.BusID, "-"))
		}
		t.row(h.Host, itoa(int64(h.Processes)), strings.Join(gs, " "))
	}
	t.flush()
}

func printCommsInfo(w *output, cs []info.CommRow) {
	if len(cs) == 0 {
		return
	}
	w.printf("\n== communicators ==\n")
	t := newTextTable(w, "comm", "nranks", "seen", "hosts", "layout", "channels", "rings", "transport")
	for _, c := range cs {
		t.row(c.Comm, itoa(c.NRanks), itoa(int64(c.RanksSeen)), itoa(int64(c.Hosts)), strings.Join(c.Layout, " | "),
			strings.Join(c.Channels, " | "), strings.Join(c.Rings, " | "), c.Transport)
	}
	t.flush()
}

func printFacts(w *output, title string, rows []info.FactRow) {
	if len(rows) == 0 {
		return
	}
	w.printf("\n== %s ==\n", title)
	t := newTable(w, "what", "value", "processes", "ranks", "hosts")
	for _, f := range rows {
		t.row(f.What, f.Value, itoa(int64(f.Processes)), ranksCell(f.Ranks), hostsCell(f.Hosts))
	}
	t.flush()
}

func printTuning(w *output, rows []info.TuneRow) {
	if len(rows) == 0 {
		return
	}
	w.printf("\n== tuning (rank 0 of each communicator) ==\n")
	t := newTable(w, "op", "bytes", "algo", "proto", "sizes", "lines")
	for _, r := range rows {
		t.row(r.OpLabel(), size(r.LoBytes)+" - "+size(r.HiBytes), r.Algo, r.Proto, itoa(int64(r.Sizes)), count(r.Lines))
	}
	t.flush()
}

func printTimings(w *output, rows []info.TimingRow) {
	if len(rows) == 0 {
		return
	}
	w.printf("\n== init timings, slowest first (s) ==\n")
	t := newTable(w, "total", "what", "rank", "nranks", "host:pid", "parts", "evidence")
	for _, r := range rows[:min(len(rows), shownTimings)] {
		t.row(fmt.Sprintf("%.2f", r.TotalS), r.Label(), itoa(r.Rank), itoa(r.NRanks), fmt.Sprintf("%s:%d", r.Host, r.Pid), r.Parts, r.Evidence.String())
	}
	t.flush()
	if n := len(rows) - shownTimings; n > 0 {
		w.printf("(%d more; --format json lists them all)\n", n)
	}
}

func printWarns(w *output, rep *info.InfoReport) {
	if rep.FirstWarn != nil {
		f := rep.FirstWarn
		w.printf("\n== first WARN in time ==\n[%s] rank %d %s:%d %s (%s)\n", f.Time, f.Rank, f.Host, f.Pid, f.Text, f.Evidence)
	}
	if len(rep.Warns) > 0 {
		w.printf("\n== WARNs by template ==\n")
		t := newTextTable(w, "count", "ranks", "hosts", "first", "last", "template")
		for _, g := range rep.Warns {
			t.row(count(g.Count), ranksCell(g.Ranks), hostsCell(g.Hosts), g.First.String(), g.Last.String(), g.Template)
		}
		t.flush()
	}
	if len(rep.Errors) > 0 {
		w.printf("\n== errors, by root cause ==\n")
		t := newTextTable(w, "chains", "result", "started at", "outermost", "ranks", "evidence", "WARN")
		for _, e := range rep.Errors {
			t.row(count(e.Chains), fmt.Sprintf("%d %s", e.Result, e.ResultName), e.Where, e.Outermost, ranksCell(e.Ranks), e.Evidence.String(), e.Warn)
		}
		t.flush()
	}
}

func printMissing(w *output, rows []info.MissingRow) {
	if len(rows) == 0 {
		return
	}
	w.printf("\n== missing lines ==\n")
	for _, m := range rows {
		w.printf("no %s lines: add %s; without them: %s\n", m.Lines, m.Add, m.Disables)
	}
}

// devText is a device index, or "-" where the version does not print it.
func devText(d int64) string {
	if d < 0 {
		return "-"
	}
	return itoa(d)
}

// Table cells name at most cellRanges runs of ranks and cellHosts hosts, then how many in
// all: an outlier of a thousand ranks on hundreds of hosts is otherwise one line of many
// kilobytes. The JSON lists every one.
const (
	cellRanges = 8
	cellHosts  = 4
)

// ranksCell prints sorted ranks compactly, 0-6,8, cut after cellRanges runs.
func ranksCell(rs []int64) string {
	parts := ranks.RankRuns(rs)
	if len(parts) == 0 {
		return "-"
	}
	if len(parts) <= cellRanges {
		return strings.Join(parts, ",")
	}
	return strings.Join(parts[:cellRanges], ",") + ",… (" + plural(int64(len(rs)), "rank") + ")"
}

// hostsCell lists hosts, cut after cellHosts.
func hostsCell(hs []string) string {
	if len(hs) <= cellHosts {
		return strings.Join(hs, ",")
	}
	return strings.Join(hs[:cellHosts], ",") + ",… (" + plural(int64(len(hs)), "host") + ")"
}
