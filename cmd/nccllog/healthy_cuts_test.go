package main

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/internal/sharedtest"
	"github.com/nccllog/nccllog/pipeline"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
	"github.com/nccllog/nccllog/stages/diagnose"
	"github.com/nccllog/nccllog/stages/info"
	"github.com/nccllog/nccllog/stages/ranks"
	"github.com/nccllog/nccllog/stages/strag"
)

// alarm is one verdict that raised something on a piece of a log, and of what kind.
type alarm struct {
	verdict string // hang, check, diagnose, stragglers, info
	// shape: hang's suspects are ranks behind at one call, every one for that alone, and
	// check's findings are short ranks: the shape of a hang, which a piece that ends before
	// the job's log does cannot be told from (TestHangOnHealthyCuts). "": anything else.
	shape bool
	// absent: hang names ranks without lines on a communicator no line names, whose opCounts
	// are all 0, where nothing tells a piece from a whole log whose other ranks printed
	// nothing (TestVerdictsOnHealthyCuts); they are left out of kinds.
	absent bool
	// kinds are the kinds of what it raised: hang's suspects' evidence ("absent" for other
	// ranks without lines), check's findings', diagnose's first finding's.
	kinds []string
	what  string
}

// trueFault is a verdict a sample's own fault raises, and the kinds it raises.
type trueFault struct {
	verdict string
	kinds   []string
}

// allows reports whether a is what the fault raises.
func (f trueFault) allows(a alarm) bool {
	return f.verdict == a.verdict && !slices.ContainsFunc(a.kinds, func(k string) bool { return !slices.Contains(f.kinds, k) })
}

// trueFaults are the verdicts that the samples' own faults raise, on the whole sample and
// on any piece that holds the lines that show them.
var trueFaults = map[string][]trueFault{
	// Device 1 issues an AllReduce device 0 never does (NCCL issue 203): device 0 is behind.
	"issue-nccl203-tensorflow-1proc-2gpu-allreduce-opcount-hex.log": {{"hang", []string{"behind"}}, {"check", []string{"length"}}},
	// Rank 1's proxy thread gets an IB completion error (status=4, local protection) and
	// returns ncclSystemError (-> 6) after the ranks' first AllReduce: its log ends in it.
	"nccl-2.27.5-sglang-16rank-initcomplete-opcount-tuning-warn.log": {{"hang", []string{"ends-in-warn"}}, {"diagnose", []string{"network-error"}}},
	// Rank 0 gets the same IB completion error after its init: its log ends in it.
	"nccl-2.27.5-sglang-16rank-node0007-initcomplete-algomatrix-warn.log": {{"hang", []string{"ends-in-warn"}}, {"diagnose", []string{"network-error"}}},
}

// verdictAlarms runs every verdict's family over data, through pipeline.Analyze and the
// families' Reports as the commands do, and returns what each raised.
func verdictAlarms(t *testing.T, data []byte) []alarm {
	t.Helper()
	in := []pipeline.Input{{Name: "-", Stdin: bytes.NewReader(data)}}
	plan := stages.MustPlan(stages.Config{}, all.Registry(), "ranks", "diagnose", "stragglers", "info")
	res, err := pipeline.RunAll(context.Background(), in, pipeline.Options{Plan: plan, Parsers: testParsers()}, nothing{}) // pipeline.Analyze, with the tests' Parsers
	if err != nil {
		t.Fatal(err)
	}
	r := ranks.RanksOf(res.Set)
	out := hangAlarms(r)
	if c := r.Check(); len(c) > 0 {
		a := alarm{verdict: "check", shape: true, what: fmt.Sprintf("%s at call %d", c[0].Kind, c[0].Index)}
		for _, f := range c {
			a.shape = a.shape && f.Kind == ranks.KindLength
			a.kinds = addKind(a.kinds, f.Kind.String())
		}
		out = append(out, a)
	}
	if d := diagnose.Build(res.Set); d.Status == diagnose.StatusFault {
		out = append(out, alarm{verdict: "diagnose", kinds: []string{d.Findings[0].Kind.String()}, what: d.Findings[0].Summary})
	}
	if s := strag.StragOf(res.Set).Report(); len(s.Stragglers) > 0 {
		out = append(out, alarm{verdict: "stragglers", what: fmt.Sprintf("%+v", s.Stragglers[0])})
	}
	if o := info.InfoOf(res.Set).Report().Outliers; len(o) > 0 {
		out = append(out, alarm{verdict: "info", what: fmt.Sprintf("%s: %q, majority %q", o[0].What, o[0].Value, o[0].Majority)})
	}
	return out
}

// hangAlarms is hang's alarm on each communicator with suspects, and on the process groups.
func hangAlarms(r *ranks.Ranks) []alarm {
	var out []alarm
	for _, f := range r.Hang() {
		if len(f.Suspects) == 0 {
			continue
		}
		a := alarm{verdict: "hang", shape: true, what: fmt.Sprintf("comm of %d ranks: %d suspects, first %v", f.Group.NRanks, len(f.Suspects), f.Suspects[0].Evidence)}
		behind := map[int64]bool{}
		for _, s := range f.Suspects {
			if s.Absent && f.Group.Inferred() && zeroOps(f.Group) {
				a.absent = true
				continue
			}
			if s.Absent {
				a.kinds = addKind(a.kinds, "absent")
			}
			for _, e := range s.Evidence {
				a.kinds = addKind(a.kinds, e.String())
			}
			a.shape = a.shape && !s.Absent && slices.Equal(s.Evidence, []ranks.Evidence{ranks.EvBehind})
			behind[s.Behind] = true
		}
		a.shape = a.shape && len(behind) <= 1
		out = append(out, a)
	}
	for _, pg := range r.HangReport().PGs {
		if len(pg.Suspects) > 0 {
			out = append(out, alarm{verdict: "hang", kinds: []string{"process-group"}, what: fmt.Sprintf("process group %d: %d suspects", pg.PG, len(pg.Suspects))})
		}
	}
	return out
}

func addKind(ks []string, k string) []string {
	if slices.Contains(ks, k) {
		return ks
	}
	return append(ks, k)
}

// zeroOps: every rank's first call has opCount 0.
func zeroOps(g *ranks.Group) bool {
	return !slices.ContainsFunc(g.Members, func(m *ranks.Member) bool { return m.FirstOp() != 0 })
}

// healthyJobs are generated jobs that did not fail, of several shapes, untimed and timed.
func healthyJobs(t *testing.T) map[string][]byte {
	cfgs := map[string]gen.Config{
		"noise":     {Seed: 2, Ranks: 8, RanksPerHost: 4, Steps: 4, Noise: true},
		"abort-iso": {Seed: 4, Ranks: 8, Steps: 4, CleanAbort: true, NCCLVersion: "2.28.3", Timestamps: "iso", ArrivalJitter: 2 * time.Millisecond},
		"multi":     {Seed: 5, Ranks: 8, Steps: 4, GPUsPerProcess: 4, Teardown: true},
		"nccl-all":  {Seed: 7, Ranks: 16, Steps: 4, Timestamps: "nccl-all", Noise: true, NCCLVersion: "2.27.5", Prefix: "torchrun"},
	}
	if testing.Short() {
		for _, name := range []string{"noise", "multi", "nccl-all"} {
			delete(cfgs, name)
		}
	}
	out := map[string][]byte{}
	for name, c := range cfgs {
		var b bytes.Buffer
		if _, err := gen.Write(&b, c); err != nil {
			t.Fatal(err)
		}
		out["gen-"+name] = b.Bytes()
	}
	return out
}

// allowed reports whether alarm a is allowed on a whole log or on a piece of it (that runs
// to the log's end or not), of a sample (excerpt) or of a generated job: a sample's own
// fault; the shape of a hang on a piece that ends before the job's log does; ranks without
// lines that no line tells from a piece's, on a piece of a sample.
func allowed(a alarm, faults []trueFault, whole, excerpt, runsToEnd bool) bool {
	switch {
	case a.absent && (whole || !excerpt):
		return false
	case len(a.kinds) == 0 && a.absent:
		return true
	case slices.ContainsFunc(faults, func(f trueFault) bool { return f.allows(a) }):
		return true
	}
	return !whole && a.shape && (excerpt || !runsToEnd)
}

// TestVerdictsSilentOnHealthyCuts: hang, check, diagnose, stragglers and info's outliers
// raise nothing on the real samples and generated healthy jobs, whole and cut (the first
// lines, the last lines, a middle piece, at 7 points each; 2 with -short, where a sample gets
// one of the six pieces in turn), but the samples' own faults (trueFaults) and, on a piece
// that ends before the job's log does, the shape of a hang. A sample is itself a piece of its job's log, so the shape is allowed on any of its
// pieces; a generated log is whole, so a piece that runs to its end must be silent.
func TestVerdictsSilentOnHealthyCuts(t *testing.T) {
	logs := healthyJobs(t)
	for _, f := range sharedtest.Optional(t, "samples/*.log") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		logs[filepath.Base(f)] = b
	}
	points := 8
	if testing.Short() {
		points = 3
	}
	checked, raised := 0, 0
	names := slices.Sorted(maps.Keys(logs))
	for li, name := range names {
		data := logs[name]
		excerpt := !strings.HasPrefix(name, "gen-")
		judge := func(piece string, runsToEnd bool, as []alarm) {
			checked += 5
			for _, a := range as {
				if allowed(a, trueFaults[name], piece == "whole", excerpt, runsToEnd) {
					raised++
					continue
				}
				t.Errorf("%s, %s: %s raised %v (shape %v, absent ranks %v): %s", name, piece, a.verdict, a.kinds, a.shape, a.absent, a.what)
			}
		}
		judge("whole", true, verdictAlarms(t, data))
		lines := bytes.SplitAfter(data, []byte("\n"))
		n := len(lines)
		for i := 1; i < points; i++ {
			k := n * i / points
			for ci, cut := range [][2]int{{0, k}, {k, n}, {k / 2, k/2 + n/2}} {
				if testing.Short() && excerpt && ((i-1)*3+ci)%6 != li%6 {
					continue // -short: each sample whole and one of its pieces in turn (go test ./... cuts each in all six)
				}
				piece := fmt.Sprintf("lines %d-%d of %d", cut[0]+1, cut[1], n)
				judge(piece, cut[1] == n, verdictAlarms(t, bytes.Join(lines[cut[0]:cut[1]], nil)))
			}
		}
	}
	t.Logf("%d (log or piece, verdict) pairs checked, %d raised an allowed alarm", checked, raised)
}
