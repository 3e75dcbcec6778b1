package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nccllog/nccllog/internal/chromiumtest"
)

// TestCallsTraceInDevTools: a generated timed job's trace, plain and gzip-compressed, loads
// into Chromium's own trace viewer (the DevTools Performance panel, served by Chromium itself,
// so CI runs this wherever it has Chromium) and the viewer's time ruler spans the trace's
// time: the panel read the events and their times, not just the file.
func TestCallsTraceInDevTools(t *testing.T) {
	exe := chromiumtest.Find(t)
	log := timedLog(t, "nccl-all", 6)
	for _, name := range []string{"job.json", "job.json.gz"} {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), name)
			if _, stderr, code := runCLI(t, log, "calls", "--format", "trace", "-o", file, "-"); code != exitOK {
				t.Fatalf("status %d: %s", code, stderr)
			}
			span := devtoolsSpan(t, filepath.Join(filepath.Dir(file), "job.json"), log)
			tr := chromiumtest.OpenTrace(t, exe, file, 1600, 900, 90*time.Second)
			if len(tr.Ruler) == 0 {
				t.Fatal("the Performance panel shows no time ruler: it did not import the trace")
			}
			last := rulerMax(t, tr.Ruler)
			// The ruler's ticks run a little past the last slice, to the window's edge.
			if last > span*5/4 || last < span/4 {
				t.Errorf("the ruler ends at %v (%q), the trace spans %v", last, tr.Ruler, span)
			}
			if out := os.Getenv(traceScreenshotEnv); out != "" && name == "job.json" {
				if err := os.WriteFile(out, tr.PNG, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestCallsTraceDevToolsRefusesCut: a cut file leaves the panel without a ruler, so that
// TestCallsTraceInDevTools sees a failed import.
func TestCallsTraceDevToolsRefusesCut(t *testing.T) {
	exe := chromiumtest.Find(t)
	file := filepath.Join(t.TempDir(), "cut.json")
	if err := os.WriteFile(file, []byte(`{"traceEvents":[{"ph":"X","pid":1`), 0o644); err != nil {
		t.Fatal(err)
	}
	if tr := chromiumtest.OpenTrace(t, exe, file, 1600, 900, 20*time.Second); len(tr.Ruler) > 0 {
		t.Errorf("a cut file gave a ruler: %q", tr.Ruler)
	}
}

// devtoolsSpan is the time from the trace's first event to the end of its last slice or
// instant; plain is
// where the uncompressed trace is, written from log if it is not there.
func devtoolsSpan(t *testing.T, plain, log string) time.Duration {
	t.Helper()
	b, err := os.ReadFile(plain)
	if err != nil {
		if _, stderr, code := runCLI(t, log, "calls", "--format", "trace", "-o", plain, "-"); code != exitOK {
			t.Fatalf("status %d: %s", code, stderr)
		}
		if b, err = os.ReadFile(plain); err != nil {
			t.Fatal(err)
		}
	}
	var f struct {
		TraceEvents []struct {
			Ph      string
			Ts, Dur float64
		}
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	var end float64
	for _, e := range f.TraceEvents {
		if e.Ph == "X" || e.Ph == "i" {
			end = max(end, e.Ts+e.Dur)
		}
	}
	return time.Duration(end * float64(time.Microsecond))
}

// rulerMax is the largest time among the ruler's labels ("12,000 ms", "1.5 s").
func rulerMax(t *testing.T, labels []string) time.Duration {
	t.Helper()
	units := map[string]time.Duration{"µs": time.Microsecond, "ms": time.Millisecond, "s": time.Second, "min": time.Minute}
	var last time.Duration
	for _, l := range labels {
		f := strings.Fields(l)
		if len(f) != 2 {
			t.Fatalf("ruler label %q", l)
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(f[0], ",", ""), 64)
		if err != nil || units[f[1]] == 0 {
			t.Fatalf("ruler label %q", l)
		}
		last = max(last, time.Duration(v*float64(units[f[1]])))
	}
	return last
}
