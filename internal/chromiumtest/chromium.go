// Package chromiumtest opens an HTML page in headless Chromium for tests: it checks that
// every chart drew, that the page fetched nothing and logged no error, and returns a
// screenshot. Tests skip without Chromium unless NCCLLOG_CHROMIUM=1, which makes its absence
// a failure (CI sets it).
package chromiumtest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Find returns the Chromium to drive, or skips the test (fails it under NCCLLOG_CHROMIUM=1).
func Find(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the browser tests run without -short")
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("NCCLLOG_CHROMIUM") == "1" {
		t.Fatal("NCCLLOG_CHROMIUM=1 but no chromium on PATH")
	}
	t.Skip("no chromium on PATH (apt-get install chromium); NCCLLOG_CHROMIUM=1 makes this a failure")
	return ""
}

// pageEvents is what the page did besides drawing: requests for anything but the page itself,
// and console errors and warnings and uncaught exceptions.
type pageEvents struct {
	mu       sync.Mutex
	requests []string
	errors   []string
}

func (p *pageEvents) listen(page string) func(any) {
	return func(ev any) {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			if e.Request.URL != page {
				p.requests = append(p.requests, e.Request.URL)
			}
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				p.errors = append(p.errors, string(e.Type)+": "+argsText(e.Args))
			}
		case *runtime.EventExceptionThrown:
			p.errors = append(p.errors, "exception: "+e.ExceptionDetails.Text)
		}
	}
}

func argsText(args []*runtime.RemoteObject) string {
	var s []string
	for _, a := range args {
		s = append(s, string(a.Value)+a.Description)
	}
	return strings.Join(s, " ")
}

// paintJS reports, for every chart container, how many canvases it holds, how many of
// their pixels are not transparent, and the labels ECharts drew on its axes.
const paintJS = `Array.from(document.querySelectorAll("div.item")).map(function (d) {
  var cs = d.querySelectorAll("canvas"), painted = 0, labels = [];
  cs.forEach(function (c) {
    var px = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    for (var i = 3; i < px.length; i += 4) { if (px[i] !== 0) painted++; }
  });
  var inst = window.echarts && echarts.getInstanceByDom(d);
  ["xAxis", "yAxis"].forEach(function (kind) {
    for (var i = 0, m; inst && (m = inst.getModel().getComponent(kind, i)); i++) {
      m.axis.getViewLabels().forEach(function (l) { labels.push(String(l.formattedLabel)); });
    }
  });
  return {id: d.id, canvases: cs.length, painted: painted, labels: labels};
})`

// Chart is one chart container of the page, what was drawn in it and its axes' labels as
// drawn.
type Chart struct {
	ID       string   `json:"id"`
	Canvases int      `json:"canvases"`
	Painted  int      `json:"painted"`
	Labels   []string `json:"labels"`
}

// Open loads file in headless Chromium with the colour scheme ("light" or "dark"), fails the
// test if a chart container has no painted canvas, if the page requested anything or if it
// logged an error, and returns the charts and a PNG screenshot of the whole page.
func Open(t testing.TB, exe, file, scheme string) ([]Chart, []byte) {
	t.Helper()
	url := "file://" + file
	ctx, cancel := browser(exe, 1280, 1000)
	defer cancel()
	var ev pageEvents
	// Listen starts the browser; the timeout goes on the actions, not on the browser's context.
	if err := chromedp.Listen(ctx, ev.listen(url)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	charts, png, err := load(ctx, url, scheme)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range charts {
		if c.Canvases == 0 || c.Painted < 1000 {
			t.Errorf("chart %s: %d canvases, %d painted pixels", c.ID, c.Canvases, c.Painted)
		}
	}
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if len(ev.requests) > 0 {
		t.Errorf("the page made requests: %q", ev.requests)
	}
	if len(ev.errors) > 0 {
		t.Errorf("the page logged: %q", ev.errors)
	}
	return charts, png
}

func load(ctx context.Context, url, scheme string) ([]Chart, []byte, error) {
	media := emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		return nil, nil, err
	}
	if _, err := chromedp.Call(ctx, runtime.Enable, cdp.Empty{}); err != nil {
		return nil, nil, err
	}
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, media); err != nil {
		return nil, nil, err
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		return nil, nil, err
	}
	charts, err := chromedp.Run(ctx, chromedp.Evaluate[[]Chart](paintJS))
	if err != nil {
		return nil, nil, err
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	return charts, png, err
}

// browser starts a headless Chromium of exe with a window of width × height and the extra
// options; cancel stops it.
func browser(exe string, width, height int, extra ...chromedp.ExecAllocatorOption) (context.Context, context.CancelFunc) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.WindowSize(width, height))
	alloc, stopAlloc := chromedp.NewExecAllocator(context.Background(), append(opts, extra...)...)
	ctx, stop := chromedp.NewContext(alloc)
	return ctx, func() { stop(); stopAlloc() }
}
