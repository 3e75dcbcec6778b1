package main

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nccllog/nccllog/internal/gen"
)

// traceLog is calls on two hosts, one with a launcher rank, times to the microsecond.
const traceLog = "[2025-06-11 14:03:27.512034] gpu-node-00:12:12 [0] NCCL INFO AllReduce: opCount 1 sendbuff 0x1 recvbuff 0x2 count 8 datatype 7 op 0 root 0 comm 0x7f00 [nranks=2] stream 0x9\n" +
	"3: [2025-06-11 14:03:27.512534] gpu-node-01:40:40 [0] NCCL INFO AllReduce: opCount 1 sendbuff 0x1 recvbuff 0x2 count 8 datatype 7 op 0 root 0 comm 0x7f10 [nranks=2] stream 0x9\n" +
	"[2025-06-11 14:03:28.000000] gpu-node-00:12:12 [0] NCCL INFO Broadcast: opCount 2 sendbuff 0x1 recvbuff 0x2 count 100 datatype 0 op 0 root 0 comm 0x7f00 [nranks=2] stream 0x9\n"

func traceOf(t *testing.T, in string) (string, string, int) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "job.json")
	_, stderr, code := runCLI(t, in, "calls", "--format", "trace", "-o", out, "-")
	b, err := os.ReadFile(out)
	if err != nil && code == exitOK {
		t.Fatal(err)
	}
	return string(b), stderr, code
}

func TestCallsTraceGolden(t *testing.T) {
	got, stderr, code := traceOf(t, traceLog)
	if code != exitOK {
		t.Fatalf("status %d: %s", code, stderr)
	}
	golden := filepath.Join("testdata", "golden", "calls_trace.json")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("trace differs from %s:\n%s", golden, got)
	}
	checkTraceSchema(t, got)
}

// TestCallsTraceSchema holds a generated timed job's trace to the Trace Event format's rules.
func TestCallsTraceSchema(t *testing.T) {
	got, stderr, code := traceOf(t, timedLog(t, "iso", 0))
	if code != exitOK {
		t.Fatalf("status %d: %s", code, stderr)
	}
	if n := checkTraceSchema(t, got); n != 5 {
		t.Errorf("%d processes, want 5 (the job's 4 and steps)", n)
	}
}

// checkTraceSchema checks the rules of the Trace Event format (the JSON Object Format) that
// Chromium's and Perfetto's importers hold files to, and returns how many processes it names:
// a JSON object whose traceEvents is a list (present, not null) and whose otherData, where
// given, is an object; displayTimeUnit ms or ns; every event an object with a ph, integer
// pid and tid; complete events (X) with a name, a numeric ts, a non-negative dur and args an
// object; instant events (i, the calls) with a name, a numeric ts, no dur, the thread's scope
// (no s, or "t") and args of an integer opCount and either bytes or count and dtype; metadata events (M) of the names the importers know, with their args; and, per
// thread, complete events that nest or keep apart (both importers warn of, and Perfetto drops,
// a slice that overlaps another's end). Every process and thread with slices is named.
func checkTraceSchema(t *testing.T, text string) int {
	t.Helper()
	var f struct {
		DisplayTimeUnit string `json:"displayTimeUnit"`
		OtherData       any    `json:"otherData"`
		TraceEvents     *[]any `json:"traceEvents"`
	}
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	if err := d.Decode(&f); err != nil {
		t.Fatalf("not a JSON object: %v", err)
	}
	if f.TraceEvents == nil {
		t.Fatal("no traceEvents list")
	}
	if _, ok := f.OtherData.(map[string]any); f.OtherData != nil && !ok {
		t.Errorf("otherData %v is not an object", f.OtherData)
	}
	if f.DisplayTimeUnit != "ms" && f.DisplayTimeUnit != "ns" {
		t.Errorf("displayTimeUnit %q", f.DisplayTimeUnit)
	}
	var tr traceThreads
	for i, v := range *f.TraceEvents {
		e, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("event %d is not an object: %v", i, v)
		}
		tr.event(t, i, e)
	}
	tr.check(t)
	return len(tr.procNames)
}

// traceThreads is what checkTraceSchema gathers of a trace's events: the slices of each
// thread and the names given to processes and threads.
type traceThreads struct {
	slices      map[[2]int64][]traceSlice
	procNames   map[int64]bool
	threadNames map[[2]int64]bool
}

// traceSlice is a complete event's span, in nanoseconds, and its place in the file.
type traceSlice struct {
	from, to int64
	i        int
}

func (tr *traceThreads) event(t *testing.T, i int, e map[string]any) {
	t.Helper()
	if tr.slices == nil {
		tr.slices, tr.procNames, tr.threadNames = map[[2]int64][]traceSlice{}, map[int64]bool{}, map[[2]int64]bool{}
	}
	pid, tid := traceInt(t, i, e, "pid"), traceInt(t, i, e, "tid")
	args, hasArgs := e["args"].(map[string]any)
	if _, given := e["args"]; given && !hasArgs {
		t.Fatalf("event %d: args %v is not an object", i, e["args"])
	}
	switch e["ph"] {
	case "X":
		if _, ok := e["name"].(string); !ok {
			t.Fatalf("event %d: no name", i)
		}
		ts, dur := traceNanos(t, i, e, "ts"), traceNanos(t, i, e, "dur")
		if dur < 0 {
			t.Fatalf("event %d: dur %v", i, e["dur"])
		}
		k := [2]int64{pid, tid}
		tr.slices[k] = append(tr.slices[k], traceSlice{ts, ts + dur, i})
	case "i":
		tr.instant(t, i, e, args)
		k := [2]int64{pid, tid}
		ts := traceNanos(t, i, e, "ts")
		tr.slices[k] = append(tr.slices[k], traceSlice{ts, ts, i})
	case "M":
		switch e["name"] {
		case "process_name", "thread_name":
			if _, ok := args["name"].(string); !ok {
				t.Fatalf("event %d: %v without a name", i, e["name"])
			}
			if e["name"] == "process_name" {
				tr.procNames[pid] = true
			} else {
				tr.threadNames[[2]int64{pid, tid}] = true
			}
		case "process_sort_index":
			if _, ok := args["sort_index"].(json.Number); !ok {
				t.Fatalf("event %d: no sort_index", i)
			}
		default:
			t.Fatalf("event %d: metadata %v", i, e["name"])
		}
	default:
		t.Fatalf("event %d: ph %v", i, e["ph"])
	}
}

// instant checks a call's instant event: a name, no dur, the thread's scope, and its args.
func (tr *traceThreads) instant(t *testing.T, i int, e, args map[string]any) {
	t.Helper()
	if _, ok := e["name"].(string); !ok {
		t.Fatalf("event %d: no name", i)
	}
	if s, given := e["s"]; given && s != "t" {
		t.Fatalf("event %d: scope %v", i, s)
	}
	if _, given := e["dur"]; given {
		t.Fatalf("event %d: an instant with a dur", i)
	}
	traceInt(t, i, args, "opCount")
	if _, ok := args["bytes"]; ok {
		traceInt(t, i, args, "bytes")
	} else if _, ok := args["dtype"].(string); !ok {
		t.Fatalf("event %d: args %v have neither bytes nor count and dtype", i, args)
	} else {
		traceInt(t, i, args, "count")
	}
}

// check: every thread's slices nest or keep apart, and its process and itself are named.
func (tr *traceThreads) check(t *testing.T) {
	t.Helper()
	for k, ss := range tr.slices {
		if !tr.procNames[k[0]] || !tr.threadNames[k] {
			t.Errorf("pid %d tid %d has slices but no process_name or thread_name", k[0], k[1])
		}
		slices.SortStableFunc(ss, func(a, b traceSlice) int { return cmp.Or(cmp.Compare(a.from, b.from), cmp.Compare(b.to, a.to)) })
		var open []traceSlice // the slices that enclose the current one, innermost last
		for _, s := range ss {
			for len(open) > 0 && open[len(open)-1].to <= s.from {
				open = open[:len(open)-1]
			}
			if len(open) > 0 && s.to > open[len(open)-1].to {
				o := open[len(open)-1]
				t.Fatalf("pid %d tid %d: event %d [%d, %d] ns overlaps the end of event %d [%d, %d] ns", k[0], k[1], s.i, s.from, s.to, o.i, o.from, o.to)
			}
			open = append(open, s)
		}
	}
}

// traceInt is e's integer field k.
func traceInt(t *testing.T, i int, e map[string]any, k string) int64 {
	t.Helper()
	n, ok := e[k].(json.Number)
	v, err := strconv.ParseInt(string(n), 10, 64)
	if !ok || err != nil {
		t.Fatalf("event %d: %s %v is not an integer", i, k, e[k])
	}
	return v
}

// traceNanos is e's field k, microseconds, as nanoseconds: a plain decimal of at most three
// decimals (nccllog writes no exponent and no finer fraction).
func traceNanos(t *testing.T, i int, e map[string]any, k string) int64 {
	t.Helper()
	n, ok := e[k].(json.Number)
	whole, frac, _ := strings.Cut(string(n), ".")
	us, err := strconv.ParseInt(whole, 10, 64)
	if !ok || err != nil || len(frac) > 3 || strings.TrimLeft(frac, "0123456789") != "" {
		t.Fatalf("event %d: %s %v is not a number of microseconds", i, k, e[k])
	}
	ns, _ := strconv.ParseInt((frac + "000")[:3], 10, 64)
	if strings.HasPrefix(whole, "-") {
		ns = -ns
	}
	return us*1000 + ns
}

// TestCallsTraceRefusesUntimed: no time is invented; the file is not left behind.
func TestCallsTraceRefusesUntimed(t *testing.T) {
	in := traceLog + "gpu-node-00:12:12 [0] NCCL INFO AllReduce: opCount 3 sendbuff 0x1 recvbuff 0x2 count 8 datatype 7 op 0 root 0 comm 0x7f00 [nranks=2] stream 0x9\n"
	got, stderr, code := traceOf(t, in)
	want := `nccllog: "<stdin>" line 4: the log's lines carry no time; --format trace needs NCCL_DEBUG_TIMESTAMP_LEVELS=ALL or a collector's timestamps` + "\n"
	if code != exitData || stderr != want || got != "" {
		t.Errorf("status %d, stderr %q, file %q; want %d, %q and no file", code, stderr, got, exitData, want)
	}
	in = traceLog + "2025-06-11T14:03:29Z gpu-node-00:12:12 [0] NCCL INFO AllReduce: opCount 3 sendbuff 0x1 recvbuff 0x2 count 8 datatype 7 op 0 root 0 comm 0x7f00 [nranks=2] stream 0x9\n"
	if _, stderr, code := traceOf(t, in); code != exitData || !strings.Contains(stderr, `"<stdin>" line 4: the call's time (iso) does not compare`) {
		t.Errorf("mixed zones: status %d, stderr %q", code, stderr)
	}
}

// TestCallsTraceGzip: a .gz name writes the same trace, gzip-compressed.
func TestCallsTraceGzip(t *testing.T) {
	want, _, _ := traceOf(t, traceLog)
	out := filepath.Join(t.TempDir(), "job.json.gz")
	if _, stderr, code := runCLI(t, traceLog, "calls", "--format", "trace", "-o", out, "-"); code != exitOK {
		t.Fatalf("status %d: %s", code, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil || string(got) != want {
		t.Errorf("gunzipped %q (%v), want %q", got, err, want)
	}
}

// TestCallsTraceStepSpans: a timed job with progress lines gets a "steps" process (sorted
// above the hosts) with a thread for its input and one slice per step on it, in step order,
// from the step's earliest call to its latest; a log without progress lines gets none.
func TestCallsTraceStepSpans(t *testing.T) {
	got, stderr, code := traceOf(t, timedLog(t, "iso", 0))
	if code != exitOK {
		t.Fatalf("status %d: %s", code, stderr)
	}
	spans, calls := stepSpans(t, got)
	if len(spans) != 2 || spans[0].Args.Step != 0 || spans[1].Args.Step != 1 {
		t.Fatalf("spans %+v, want steps 0 and 1 on the steps process's one thread", spans)
	}
	if first, last := calls[0], calls[len(calls)-1]; spans[0].Ts != first || spans[1].Ts+spans[1].Dur != last {
		t.Errorf("spans %+v do not run from the first call (%v) to the last (%v)", spans, first, last)
	}
	for _, want := range []string{
		`{"ph":"M","pid":2,"tid":0,"name":"process_name","args":{"name":"steps"}}`,
		`{"ph":"M","pid":2,"tid":0,"name":"process_sort_index","args":{"sort_index":0}}`,
		`{"ph":"M","pid":2,"tid":1,"name":"thread_name","args":{"name":"steps of \u003cstdin\u003e"}}`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %s", want)
		}
	}
	if plain, _, _ := traceOf(t, traceLog); strings.Contains(plain, `"steps"`) || strings.Contains(plain, `"ph":"X"`) {
		t.Errorf("spans without progress lines:\n%s", plain)
	}
}

// TestCallsTraceStepSpansApart: where a host's clock runs ahead, a step's earliest call comes
// before the previous step's latest; the step's slice then starts where that one ends, as a
// thread's slices must keep apart, and still ends at its latest call.
func TestCallsTraceStepSpansApart(t *testing.T) {
	var b bytes.Buffer
	if _, err := gen.Write(&b, gen.Config{Seed: 1, Ranks: 4, RanksPerHost: 2, Steps: 3, Timestamps: "iso",
		ClockSkew: 30 * time.Second}); err != nil {
		t.Fatal(err)
	}
	got, stderr, code := traceOf(t, b.String())
	if code != exitOK {
		t.Fatalf("status %d: %s", code, stderr)
	}
	checkTraceSchema(t, got)
	spans, _ := stepSpans(t, got)
	if len(spans) != 3 {
		t.Fatalf("spans %+v, want steps 0 to 2", spans)
	}
	for i, sp := range spans[1:] {
		if end := spans[i].Ts + spans[i].Dur; sp.Ts != end {
			t.Errorf("step %d's slice starts at %v, want at the end of step %d's (%v): the skew should overlap them", sp.Args.Step, sp.Ts, i, end)
		}
	}
}

// stepSpans returns the complete events of the trace (the step slices) and the times of its
// calls, sorted.
func stepSpans(t *testing.T, trace string) ([]traceEvent, []float64) {
	t.Helper()
	var f struct{ TraceEvents []traceEvent }
	if err := json.Unmarshal([]byte(trace), &f); err != nil {
		t.Fatal(err)
	}
	var spans []traceEvent
	var calls []float64
	for _, e := range f.TraceEvents {
		switch e.Ph {
		case "X":
			if e.Pid != 2 || e.Tid != 1 || e.Name != "step "+strconv.FormatInt(e.Args.Step, 10) || e.Dur < 1 {
				t.Errorf("span %+v", e)
			}
			spans = append(spans, e)
		case "i":
			calls = append(calls, e.Ts)
		}
	}
	slices.Sort(calls)
	return spans, calls
}

// traceEvent is what TestCallsTraceStepSpans reads of an event.
type traceEvent struct {
	Ph, Name string
	Pid, Tid int
	Ts, Dur  float64
	Args     struct{ Step int64 }
}

// TestCallsTraceNanosecondCalls: calls of one process less than a microsecond apart (a
// collector's nanosecond times) keep their nanoseconds as ts's three decimals, as instants
// that both trace importers take.
func TestCallsTraceNanosecondCalls(t *testing.T) {
	line := func(ts string, op int) string {
		return ts + " gpu-node-00:12:12 [0] NCCL INFO AllReduce: opCount " + strconv.Itoa(op) +
			" sendbuff 0x1 recvbuff 0x2 count 8 datatype 7 op 0 root 0 comm 0x7f00 [nranks=2] stream 0x9\n"
	}
	in := line("2026-03-01T12:00:05.549250000Z", 1) + line("2026-03-01T12:00:05.549250400Z", 2) +
		line("2026-03-01T12:00:05.549251300Z", 3) + line("2026-03-01T12:00:05.549251300Z", 4)
	got, stderr, code := traceOf(t, in)
	if code != exitOK {
		t.Fatalf("status %d: %s", code, stderr)
	}
	checkTraceSchema(t, got)
	for _, want := range []string{`"ts":0,`, `"ts":0.400,`, `"ts":1.300,"args":{"opCount":3,`, `"ts":1.300,"args":{"opCount":4,`} {
		if !strings.Contains(got, want) {
			t.Errorf("no %s in:\n%s", want, got)
		}
	}
}

// TestCallsTraceCommThreads: each communicator of a process is a thread of its own, named by
// its pointer, and its calls' args keep only what the event's place does not say: opCount
// (decimal) and bytes, or count and dtype where the datatype is not NCCL's.
func TestCallsTraceCommThreads(t *testing.T) {
	in := traceLog + "[2025-06-11 14:03:28.000100] gpu-node-00:12:12 [0] NCCL INFO AllGather: opCount 0 sendbuff 0x1 recvbuff 0x2 count 4 datatype 9 op 0 root 0 comm 0x7f20 [nranks=2] stream 0x9\n" +
		"[2025-06-11 14:03:28.000200] gpu-node-00:12:12 [0] NCCL INFO AllGather: opCount 1a sendbuff 0x1 recvbuff 0x2 count 4 datatype 42 op 0 root 0 comm 0x7f20 [nranks=2] stream 0x9\n"
	got, stderr, code := traceOf(t, in)
	if code != exitOK {
		t.Fatalf("status %d: %s", code, stderr)
	}
	checkTraceSchema(t, got)
	for _, want := range []string{
		`{"ph":"M","pid":1,"tid":1,"name":"thread_name","args":{"name":"comm 0x7f00"}}`,
		`{"ph":"M","pid":1,"tid":2,"name":"thread_name","args":{"name":"comm 0x7f20"}}`,
		`{"ph":"i","name":"Broadcast","pid":1,"tid":1,"ts":487966,"args":{"opCount":2,"bytes":100}}`,
		`{"ph":"i","name":"AllGather","pid":1,"tid":2,"ts":488066,"args":{"opCount":0,"bytes":8}}`,
		`{"ph":"i","name":"AllGather","pid":1,"tid":2,"ts":488166,"args":{"opCount":26,"count":4,"dtype":"datatype 42"}}`,
	} {
		if !strings.Contains(got, want+",\n") && !strings.Contains(got, want+"\n]}") {
			t.Errorf("no %s in:\n%s", want, got)
		}
	}
}
