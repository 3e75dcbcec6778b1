package diagnose_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
	"github.com/nccllog/nccllog/stages/diagnose"
)

// rasConfig is the ras scenario on an NCCL whose ncclras prints both forms.
func rasConfig(format string) gen.Config {
	return gen.Config{Seed: 1, Ranks: 16, RanksPerHost: 8, Steps: 4, Failure: "ras", NCCLVersion: "2.29.2", RASFormat: format}
}

// TestRASJSONSameAsText: the same job's RAS report in JSON form gives the finding its text
// form gives (kind, outlier ranks, hosts, processes, summary), over any chunking.
func TestRASJSONSameAsText(t *testing.T) {
	text, tr := generate(t, rasConfig("text"))
	jsonLog, trj := generate(t, rasConfig("json"))
	if !slices.Equal(tr.Ranks, trj.Ranks) {
		t.Fatalf("the two forms' jobs differ: ranks %v and %v", tr.Ranks, trj.Ranks)
	}
	want := diagnoseBytes(t, "ras.log", text, 0)
	got := diagnoseBytes(t, "ras.log", jsonLog, 0)
	checkTruth(t, got, trj, true)
	if len(got.Findings) != len(want.Findings) {
		t.Fatalf("%d findings from JSON, %d from text:\n%s\nwant\n%s", len(got.Findings), len(want.Findings), js(got), js(want))
	}
	for i := range want.Findings {
		g, w := got.Findings[i], want.Findings[i]
		if g.Kind != w.Kind || !slices.Equal(g.Ranks, w.Ranks) || !slices.Equal(g.Hosts, w.Hosts) ||
			!slices.Equal(g.Processes, w.Processes) || g.Summary != w.Summary {
			t.Errorf("finding %d from JSON:\n%s\nwant as from text:\n%s", i, js(got), js(want))
		}
	}
	for _, chunk := range []int{97, 4096} {
		if c := diagnoseBytes(t, "ras.log", jsonLog, chunk); string(js(c)) != string(js(got)) {
			t.Errorf("chunks of %d bytes give another report:\n%s", chunk, js(c))
		}
	}
}

// rasRank is a rank's record in a crafted JSON report.
type rasRank struct {
	rank, initState, asyncErr int
	abort                     bool
	counts                    [5]int
}

// rasMissing is a missing rank's record.
type rasMissing struct {
	rank               int
	unresponsive, dead bool
}

// rasDoc writes a one-communicator RAS report in the JSON form of NCCL 2.29's
// rasDumpCommsToJSON.
func rasDoc(size int, ranks []rasRank, missing []rasMissing) string {
	var b strings.Builder
	b.WriteString("{\n  \"nccl_version\": \"2.29.2\",\n  \"cuda_runtime_version\": 12080,\n  \"cuda_driver_version\": 12080,\n")
	b.WriteString("  \"timestamp\": \"2026-03-01 12:01:00\",\n  \"communicators_count\": 1,\n  \"communicators\": [\n    {\n")
	fmt.Fprintf(&b, "      \"hash\": \"0xae94423cfbb2ef4a\",\n      \"secondary_hash\": \"0x1:0x2\",\n      \"size\": %d,\n", size)
	fmt.Fprintf(&b, "      \"ranks_count\": %d,\n      \"missing_ranks_count\": %d,\n      \"ranks\": [\n", len(ranks), len(missing))
	ops := []string{"Broadcast", "Reduce", "AllGather", "ReduceScatter", "AllReduce"}
	for i, r := range ranks {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "        {\n          \"rank\": %d,\n          \"host\": \"10.0.0.%d\",\n          \"pid\": %d,\n", r.rank, 10+r.rank/8, 1000+r.rank)
		fmt.Fprintf(&b, "          \"cuda_dev\": %d,\n          \"nvml_dev\": %d,\n          \"status\": {\n", r.rank%8, r.rank%8)
		fmt.Fprintf(&b, "            \"init_state\": %d,\n            \"async_error\": %d,\n", r.initState, r.asyncErr)
		fmt.Fprintf(&b, "            \"finalize_called\": false,\n            \"destroy_flag\": %t,\n            \"abort_flag\": %t\n", r.abort, r.abort)
		b.WriteString("          },\n          \"collective_counts\": {\n")
		for j, op := range ops {
			fmt.Fprintf(&b, "            \"%s\": %d", op, r.counts[j])
			if j < len(ops)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString("          }\n        }")
	}
	b.WriteString("\n      ],\n      \"missing_ranks\": [\n")
	for i, m := range missing {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "        {\n          \"rank\": %d,\n          \"host\": \"10.0.0.9\",\n          \"pid\": -1,\n", m.rank)
		b.WriteString("          \"cuda_dev\": 1,\n          \"nvml_dev\": 1,\n          \"status\": {\n")
		fmt.Fprintf(&b, "            \"unresponsive\": %t,\n            \"considered_dead\": %t\n          }\n        }", m.unresponsive, m.dead)
	}
	b.WriteString("\n      ]\n    }\n  ],\n  \"ras\": {\n    \"collection_time_sec\": 0.012,\n    \"timeouts_count\": 0\n  }\n}\n")
	return b.String()
}

// healthyRanks are n running ranks that agree.
func healthyRanks(n int) []rasRank {
	rs := make([]rasRank, n)
	for i := range rs {
		rs[i] = rasRank{rank: i, counts: [5]int{0, 0, 3, 0, 6650}}
	}
	return rs
}

// rasFinding returns the report's ras-report finding, or nil.
func rasFinding(r diagnose.Report) *diagnose.Finding {
	for i := range r.Findings {
		if r.Findings[i].Kind == diagnose.KindRASReport {
			return &r.Findings[i]
		}
	}
	return nil
}

// TestRASJSONVerdicts: NCCL's verdicts, computed from the raw data: a healthy job's report
// proves no fault; counts that differ, an error, a rank RAS cannot reach, a dead one or an
// aborted one are a fault naming the outliers.
func TestRASJSONVerdicts(t *testing.T) {
	behind := healthyRanks(16)
	behind[5].counts[4], behind[12].counts[4] = 6649, 6649
	ahead := healthyRanks(16)
	ahead[5].counts[4], ahead[12].counts[4] = 6651, 6651
	errored := healthyRanks(8)
	errored[3].asyncErr = 6
	aborted := healthyRanks(8)
	aborted[6].abort = true
	cases := []struct {
		name    string
		doc     string
		ranks   []int64 // nil: no fault
		summary string  // how the summary ends
	}{
		{"healthy", rasDoc(16, healthyRanks(16), nil), nil, ""},
		{"in progress", rasDoc(2, []rasRank{{rank: 0, initState: 7, asyncErr: 7}, {rank: 1, initState: 7, asyncErr: 7}}, nil), nil, ""},
		{"behind", rasDoc(16, behind, nil), []int64{5, 12}, "comm ae94423cfbb2ef4a: ranks 5, 12 launched up to operation 6649 while 14 ranks are at operation 6650: the ranks it names are behind."},
		{"ahead", rasDoc(16, ahead, nil), []int64{}, "ranks 5, 12 launched up to operation 6651 while 14 ranks are at operation 6650: those 14 ranks are behind, not the ranks it names."},
		{"async error", rasDoc(8, errored, nil), []int64{3}, "ERROR: Asynchronous error on 1 rank; it names rank 3."},
		{"unreachable", rasDoc(2, healthyRanks(1), []rasMissing{{rank: 1, unresponsive: true}}), []int64{1}, "INCOMPLETE: Missing communicator data from 1 rank; it names rank 1."},
		{"dead", rasDoc(8, healthyRanks(7), []rasMissing{{rank: 7, unresponsive: true, dead: true}}), []int64{7}, "INCOMPLETE: Missing communicator data from 1 rank; it names rank 7."},
		{"not a member", rasDoc(8, healthyRanks(7), []rasMissing{{rank: 7}}), []int64{7}, "MISMATCH: Communicator ranks have different status; it names rank 7."},
		{"aborted", rasDoc(8, aborted, nil), []int64{6}, "MISMATCH: Communicator ranks have different status; it names rank 6."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := diagnoseBytes(t, "ras.json.log", []byte(c.doc), 0)
			f := rasFinding(r)
			switch {
			case c.ranks == nil && f != nil:
				t.Errorf("a report that proves nothing gives: %s", f.Summary)
			case c.ranks != nil && f == nil:
				t.Errorf("no ras-report finding (status %s): %s", r.Status, js(r))
			case c.ranks != nil && (!slices.Equal(f.Ranks, c.ranks) || !strings.HasSuffix(f.Summary, c.summary)):
				t.Errorf("finding %v %q, want ranks %v and %s", f.Ranks, f.Summary, c.ranks, c.summary)
			}
		})
	}
}

// TestRASJSONCuts: a report cut anywhere (its tail lost, its head lost, its last line cut
// short) never gives a fault its lines cannot prove, and never panics. The report is of a
// healthy job but for ranks 5 and 12, behind on AllReduce; where a cut leaves the last
// count of a healthy rank cut short (6650 read as 66), the record is not taken.
func TestRASJSONCuts(t *testing.T) {
	behind := healthyRanks(16)
	behind[5].counts[4], behind[12].counts[4] = 6649, 6649
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{rasDoc(16, behind, nil), rasDoc(16, healthyRanks(16), nil)} {
		proven := strings.Contains(doc, "6649")
		lines := parseLines(p, strings.TrimSuffix(doc, "\n"))
		check := func(what string, in []stages.Line) {
			t.Helper()
			f := rasFinding(diagnoseParsed(in))
			if f != nil && (!proven || !slices.Equal(f.Ranks, []int64{5, 12})) {
				t.Fatalf("%s gives %v: %s", what, f.Ranks, f.Summary)
			}
		}
		for k := range lines {
			check(fmt.Sprintf("the first %d lines", k), lines[:k])
			check(fmt.Sprintf("the last %d lines", len(lines)-k), lines[k:])
		}
		for k, l := range lines {
			if bytes.Contains(l.Text, []byte(`"AllReduce": 6650`)) {
				cut := parseLines(p, strings.Replace(string(l.Text), "6650", "66", 1))
				check(fmt.Sprintf("line %d cut short", k+1), append(slices.Clip(lines[:k]), cut...))
			}
		}
	}
}

// parseLines parses in's lines.
func parseLines(p *parser.Parser, in string) []stages.Line {
	var out []stages.Line
	for line := range strings.SplitSeq(in, "\n") {
		l := new(parser.Line)
		p.Parse([]byte(line), l)
		out = append(out, stages.Line{Text: []byte(line), P: l})
	}
	return out
}

// diagnoseParsed builds the diagnose Report of lines, numbered from 1, added to one
// Partial: quicker than a run for the many inputs a test of cuts reads.
func diagnoseParsed(lines []stages.Line) diagnose.Report {
	set := stages.NewSet(stages.MustPlan(stages.Config{}, all.Registry(), "diagnose"))
	for i := range lines {
		l := lines[i]
		l.N = int64(i + 1)
		set.Add(&l)
	}
	set.Anchor(stages.Origin{File: "cut.log"})
	return diagnose.Build(set)
}

// TestRASJSONBounded: a huge or hostile paste of RAS JSON fields keeps at most the cap
// (counting the rest as left out), and the report over it proves nothing.
func TestRASJSONBounded(t *testing.T) {
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	plan := stages.MustPlan(stages.Config{}, all.Registry(), "diagnose")
	set := stages.NewSet(plan)
	lines := []string{`      "hash": "0x1",`, `          "rank": 1,`, `            "AllReduce": 5`, `          "host": "` + strings.Repeat("a", 400) + `",`}
	parsed := make([]parser.Line, len(lines))
	for i, s := range lines {
		if p.Parse([]byte(s), &parsed[i]); parsed[i].Kind != parser.KindFailure {
			t.Fatalf("%q is not read as a RAS field", s)
		}
	}
	n := 300_000
	if testing.Short() {
		n = 150_000 // still past the cap of 1<<17 fields; the check below fails if it is not
	}
	for i := range n {
		k := i % len(lines)
		set.Add(&stages.Line{N: int64(i + 1), Text: []byte(lines[k]), P: &parsed[k]})
	}
	set.Anchor(stages.Origin{File: "f"})
	e := diagnose.PartOf(set).Evidence()
	if len(e.RAS)+int(e.RASLeft) != n || len(e.RAS) >= n || e.RASLeft == 0 {
		t.Fatalf("%d fields kept, %d left out, of %d", len(e.RAS), e.RASLeft, n)
	}
	for _, f := range e.RAS {
		if len(f.Val) > 64 {
			t.Fatalf("a value of %d bytes is kept", len(f.Val))
		}
	}
	r := diagnose.Build(set)
	if f := rasFinding(r); f != nil || r.Left < e.RASLeft {
		t.Fatalf("a hostile paste gives %v (left %d)", f, r.Left)
	}
}
