package htmlreport

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
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

// chromium finds a Chromium to drive; without one the browser tests skip, unless
// NCCLLOG_CHROMIUM=1 (CI) makes its absence a failure.
func chromium(t *testing.T) string {
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
// and console errors and uncaught exceptions.
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

// paintJS reports, for every chart container, how many canvases it holds and how many of
// their pixels are not transparent.
const paintJS = `Array.from(document.querySelectorAll("div.item")).map(function (d) {
  var cs = d.querySelectorAll("canvas"), painted = 0;
  cs.forEach(function (c) {
    var px = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    for (var i = 3; i < px.length; i += 4) { if (px[i] !== 0) painted++; }
  });
  return {id: d.id, canvases: cs.length, painted: painted};
})`

type chartPaint struct {
	ID       string `json:"id"`
	Canvases int    `json:"canvases"`
	Painted  int    `json:"painted"`
}

func TestChromiumDrawsEveryChart(t *testing.T) {
	exe := chromium(t)
	shots, err := os.MkdirTemp("", "nccllog-report-")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(shots, "report.html")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := Render(f, fixture(1000, 20)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, scheme := range []string{"light", "dark"} {
		t.Run(scheme, func(t *testing.T) {
			png := openInChromium(t, exe, "file://"+file, scheme)
			shot := filepath.Join(shots, "report-"+scheme+".png")
			if err := os.WriteFile(shot, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot: %s", shot)
		})
	}
}

// openInChromium loads the page in headless Chromium with the given colour scheme, checks
// that every chart drew on its canvas and that the page fetched nothing and logged no error,
// and returns a screenshot of the whole page.
func openInChromium(t *testing.T, exe, url, scheme string) []byte {
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.WindowSize(1280, 1000))...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	var ev pageEvents
	// Listen starts the browser; the timeout goes on the actions, not on the browser's context.
	if err := chromedp.Listen(ctx, ev.listen(url)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	media := emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, runtime.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, media); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	paint, err := chromedp.Run(ctx, chromedp.Evaluate[[]chartPaint](paintJS))
	if err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if len(paint) != 5 {
		t.Errorf("%d chart containers, want 5: %+v", len(paint), paint)
	}
	for _, p := range paint {
		if p.Canvases == 0 || p.Painted < 1000 {
			t.Errorf("chart %s: %d canvases, %d painted pixels", p.ID, p.Canvases, p.Painted)
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
	return png
}
