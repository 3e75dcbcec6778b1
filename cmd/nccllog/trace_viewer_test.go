package main

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nccllog/nccllog/internal/chromiumtest"
)

// The trace viewer test imports a trace into Catapult's trace viewer (the one chrome://tracing
// served) in headless Chromium. The viewer is not in the repository: NCCLLOG_TRACE_VIEWER
// names a page that Catapult's tracing/bin/trace2html wrote (for any trace: the test puts its
// own in place of the page's); without it the test skips. NCCLLOG_TRACE_SCREENSHOT, where
// set, is where it writes the window's PNG.
const (
	traceViewerEnv     = "NCCLLOG_TRACE_VIEWER"
	traceScreenshotEnv = "NCCLLOG_TRACE_SCREENSHOT"
)

// viewerData is the trace2html script element that holds a trace (gzip, base64), and
// viewerTitle the page's title that trace2html writes, naming the trace's file.
var (
	viewerData  = regexp.MustCompile(`(?s)<script id="viewer-data" type="[^"]*">.*?</script>\n?`)
	viewerTitle = regexp.MustCompile(`<title>Trace from [^<]*</title>`)
)

// viewerJS is null while the viewer imports; then the import error it shows, or what its
// model holds: every thread's slices and the import's warnings.
const viewerJS = `(function () {
  var errs = Array.from(document.querySelectorAll(".overlay")).filter(function (o) { return o.title === "Import error"; });
  if (errs.length) return {error: errs.map(function (o) { return o.textContent; }).join("; ")};
  var m = typeof g_timelineViewEl !== "undefined" && g_timelineViewEl.model;
  if (!m) return null;
  var threads = [];
  m.getAllProcesses().forEach(function (p) {
    Object.keys(p.threads).forEach(function (k) {
      var th = p.threads[k];
      threads.push({pid: p.pid, tid: th.tid, process: p.name || "", thread: th.name || "", slices: th.sliceGroup.slices.length});
    });
  });
  return {threads: threads, warnings: m.importWarnings.map(function (w) { return w.type + ": " + w.message; })};
})()`

// viewerPolyfill starts the warning the viewer logs on every load in today's Chromium, which
// dropped the Web Components v0 that it was written for: the polyfill it ships stands in.
const viewerPolyfill = "Trace Viewer is running with WebComponentsV0 polyfill"

// viewerModel is what viewerJS gives.
type viewerModel struct {
	Error    string
	Warnings []string
	Threads  []viewerThread
}

type viewerThread struct {
	Pid, Tid        int
	Process, Thread string
	Slices          int
}

// TestCallsTraceInViewer: a generated timed job's trace (two hosts, four processes, two
// steps) imports into the trace viewer without an error or a warning, with every process and
// thread named and every slice of the file on its thread.
func TestCallsTraceInViewer(t *testing.T) {
	viewer, exe := findViewer(t)
	trace, stderr, code := traceOf(t, timedLog(t, "nccl-all", 6))
	if code != exitOK {
		t.Fatalf("status %d: %s", code, stderr)
	}
	m, png := openInViewer(t, exe, viewer, trace)
	if m.Error != "" || len(m.Warnings) > 0 {
		t.Fatalf("import error %q, warnings %q", m.Error, m.Warnings)
	}
	want := traceSlices(t, trace)
	for _, th := range m.Threads {
		k := [2]int{th.Pid, th.Tid}
		if th.Process == "" || th.Thread == "" || th.Slices != want[k] {
			t.Errorf("viewer's pid %d tid %d (%q, %q): %d slices, the file has %d", th.Pid, th.Tid, th.Process, th.Thread, th.Slices, want[k])
		}
		delete(want, k)
	}
	if len(want) > 0 {
		t.Errorf("threads the viewer lacks: %v", want)
	}
	if out := os.Getenv(traceScreenshotEnv); out != "" {
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCallsTraceViewerShowsErrors: a file the viewer cannot import gives the error it shows,
// so that TestCallsTraceInViewer sees one.
func TestCallsTraceViewerShowsErrors(t *testing.T) {
	viewer, exe := findViewer(t)
	if m, _ := openInViewer(t, exe, viewer, `{"traceEvents":[{"ph":"X","pid":1`); m.Error == "" {
		t.Errorf("no import error for a cut file: %+v", m)
	}
}

// findViewer returns the trace viewer page and the Chromium to open it in, or skips.
func findViewer(t *testing.T) (string, string) {
	t.Helper()
	exe := chromiumtest.Find(t)
	viewer := os.Getenv(traceViewerEnv)
	if viewer == "" {
		t.Skip(traceViewerEnv + " is not set: it names a page of Catapult's trace viewer, as tracing/bin/trace2html writes one")
	}
	return viewer, exe
}

// openInViewer opens trace in a copy of the viewer page that holds it instead of the page's
// own trace.
func openInViewer(t *testing.T, exe, viewer, trace string) (viewerModel, []byte) {
	t.Helper()
	page, err := os.ReadFile(viewer)
	if err != nil {
		t.Fatal(err)
	}
	html := viewerData.ReplaceAllString(string(page), "")
	html = viewerTitle.ReplaceAllLiteralString(html, "<title>nccllog calls --format trace</title>")
	head := strings.LastIndex(html, "</head>")
	if head < 0 {
		t.Fatalf("%s: no </head>: not a page trace2html wrote", viewer)
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write([]byte(trace))
	w.Close()
	data := `<script id="viewer-data" type="text/plain">` + "\n" + base64.StdEncoding.EncodeToString(z.Bytes()) + "\n</script>\n"
	file := filepath.Join(t.TempDir(), "viewer.html")
	if err := os.WriteFile(file, []byte(html[:head]+data+html[head:]), 0o644); err != nil {
		t.Fatal(err)
	}
	return chromiumtest.Await[viewerModel](t, exe, file, 1600, 900, 2*time.Minute, viewerJS, viewerPolyfill)
}

// traceSlices counts the complete and instant events of each thread of trace: the viewer
// makes a thread's instant a slice of no duration.
func traceSlices(t *testing.T, trace string) map[[2]int]int {
	t.Helper()
	var f struct{ TraceEvents []traceEvent }
	if err := json.Unmarshal([]byte(trace), &f); err != nil {
		t.Fatal(err)
	}
	n := map[[2]int]int{}
	for _, e := range f.TraceEvents {
		if e.Ph == "X" || e.Ph == "i" {
			n[[2]int{e.Pid, e.Tid}]++
		}
	}
	return n
}
