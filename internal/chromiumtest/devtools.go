package chromiumtest

import (
	"context"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// DevToolsTrace is what Chromium's own trace viewer, the Performance panel of the DevTools
// that Chromium serves on its debugging port, shows after it loaded a trace file: the labels
// of its time ruler (none when it did not import the file) and a screenshot of the window.
type DevToolsTrace struct {
	Ruler []string
	PNG   []byte
}

// findFileInput finds the Performance panel's file input ("Load profile"), which lives in
// the panel's shadow roots.
const findFileInput = `(() => {
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.tagName === 'INPUT' && el.type === 'file') return el;
      if (el.shadowRoot) { const r = walk(el.shadowRoot); if (r) return r; }
    }
    return null;
  };
  return walk(document);
})()`

// rulerJS gives the labels of the flame chart's time ruler ("1,000 ms", "2 s"), through
// the shadow roots, once there are some, and null before.
const rulerJS = `(() => {
  const out = [];
  const deep = (n) => {
    if (n.nodeName === 'STYLE' || n.nodeName === 'SCRIPT') return;
    if (n.nodeType === 3) {
      const s = n.textContent.trim();
      if (/^[0-9][0-9,.]*\s(µs|ms|s|min)$/.test(s)) out.push(s);
      return;
    }
    if (n.shadowRoot) for (const c of n.shadowRoot.childNodes) deep(c);
    for (const c of n.childNodes) deep(c);
  };
  deep(document.body);
  return out.length ? out : null;
})()`

// OpenTrace loads the trace file into the Performance panel of the DevTools that headless
// Chromium serves itself (trace_app.html on its debugging port: no network, nothing to
// install), as a user's "Load profile" does, and waits up to wait for the panel's ruler.
// A file the panel cannot import leaves no ruler: Ruler is then empty.
func OpenTrace(t testing.TB, exe, file string, width, height int, wait time.Duration) DevToolsTrace {
	t.Helper()
	port := freePort(t)
	ctx, cancel := browser(exe, width, height, chromedp.Flag("remote-debugging-port", strconv.Itoa(port)), remote.WebSocket)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 2*wait+30*time.Second)
	defer cancel()
	url := "http://127.0.0.1:" + strconv.Itoa(port) + "/devtools/trace_app.html?panel=timeline"
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("DevTools' trace_app.html: %v", err)
	}
	input, err := chromedp.Run(ctx, chromedp.Poll[*runtime.RemoteObject](findFileInput,
		chromedp.WithPollingInterval(200*time.Millisecond), chromedp.WithPollingTimeout(wait)))
	if err != nil || input == nil || input.ObjectID == "" {
		t.Fatalf("the Performance panel shows no file input (%v): this Chromium's DevTools may have changed", err)
	}
	if _, err := chromedp.Call(ctx, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: []string{file}, ObjectID: input.ObjectID}); err != nil {
		t.Fatal(err)
	}
	var tr DevToolsTrace
	tr.Ruler, _ = chromedp.Run(ctx, chromedp.Poll[[]string](rulerJS,
		chromedp.WithPollingInterval(200*time.Millisecond), chromedp.WithPollingTimeout(wait)))
	if tr.PNG, err = chromedp.Run(ctx, chromedp.CaptureScreenshot()); err != nil {
		t.Fatal(err)
	}
	return tr
}

// freePort returns a TCP port free on the loopback a moment ago, for Chromium's debugging
// server, whose HTTP side serves DevTools' pages.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
