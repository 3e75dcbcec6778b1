package main

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	if n := checkTraceSchema(t, got); n != 4 {
		t.Errorf("%d processes, want 4", n)
	}
}

// checkTraceSchema checks the rules of the Trace Event format (the JSON Object Format) that
// Chromium's and Perfetto's importers hold files to, and returns how many processes it names:
// a JSON object whose traceEvents is a list; displayTimeUnit ms or ns; every event with a
// ph, integer pid and tid; complete events (X) with a name, a numeric ts and a non-negative
// dur; metadata events (M) of the names the importers know, with their args.
func checkTraceSchema(t *testing.T, text string) int {
	t.Helper()
	var f struct {
		DisplayTimeUnit string `json:"displayTimeUnit"`
		TraceEvents     []map[string]any
	}
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	if err := d.Decode(&f); err != nil {
		t.Fatalf("not a JSON object: %v", err)
	}
	if f.DisplayTimeUnit != "ms" && f.DisplayTimeUnit != "ns" {
		t.Errorf("displayTimeUnit %q", f.DisplayTimeUnit)
	}
	names := map[string]bool{}
	for i, e := range f.TraceEvents {
		for _, k := range []string{"pid", "tid"} {
			if n, ok := e[k].(json.Number); !ok || strings.ContainsAny(string(n), ".eE") {
				t.Fatalf("event %d: %s %v is not an integer", i, k, e[k])
			}
		}
		args, _ := e["args"].(map[string]any)
		switch e["ph"] {
		case "X":
			if _, ok := e["name"].(string); !ok {
				t.Fatalf("event %d: no name", i)
			}
			if _, ok := e["ts"].(json.Number); !ok {
				t.Fatalf("event %d: ts %v", i, e["ts"])
			}
			if dur, ok := e["dur"].(json.Number); !ok || strings.HasPrefix(string(dur), "-") {
				t.Fatalf("event %d: dur %v", i, e["dur"])
			}
		case "M":
			switch e["name"] {
			case "process_name", "thread_name":
				if _, ok := args["name"].(string); !ok {
					t.Fatalf("event %d: %v without a name", i, e["name"])
				}
				if e["name"] == "process_name" {
					names[args["name"].(string)] = true
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
	return len(names)
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

// TestCallsTraceStepSpans: a timed job with progress lines gets, per process, one slice per
// step on its "steps" thread (tid 1), covering that step's calls, in step order; a log
// without progress lines gets none.
func TestCallsTraceStepSpans(t *testing.T) {
	got, stderr, code := traceOf(t, timedLog(t, "iso", 0))
	if code != exitOK {
		t.Fatalf("status %d: %s", code, stderr)
	}
	var f struct{ TraceEvents []traceEvent }
	if err := json.Unmarshal([]byte(got), &f); err != nil {
		t.Fatal(err)
	}
	steps := map[int][]int64{} // by pid: the steps of its spans
	for _, e := range f.TraceEvents {
		if e.Ph == "X" && e.Tid == 1 {
			if !strings.HasPrefix(e.Name, "step ") || e.Dur < 1 {
				t.Errorf("span %+v", e)
			}
			steps[e.Pid] = append(steps[e.Pid], e.Args.Step)
		}
	}
	if len(steps) != 4 {
		t.Fatalf("spans on %d processes, want 4: %v", len(steps), steps)
	}
	for pid, s := range steps {
		if len(s) != 2 || s[0] != 0 || s[1] != 1 {
			t.Errorf("process %d: spans of steps %v, want [0 1]", pid, s)
		}
	}
	if plain, _, _ := traceOf(t, traceLog); strings.Contains(plain, `"tid":1`) {
		t.Errorf("spans without progress lines:\n%s", plain)
	}
}

// traceEvent is what TestCallsTraceStepSpans reads of an event.
type traceEvent struct {
	Ph, Name string
	Pid, Tid int
	Ts, Dur  float64
	Args     struct{ Step int64 }
}
