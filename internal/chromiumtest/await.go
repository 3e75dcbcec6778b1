package chromiumtest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Await loads file in headless Chromium in a window of width × height, evaluates js until it
// gives something other than null, undefined or false (for up to wait), and returns that
// value and a PNG screenshot of the window. It fails the test if js never gave one, if the
// page requested anything but itself and data: URLs (pages make those of what they hold) or
// if it logged an error or a warning other than those that contain one of benign.
func Await[T any](t testing.TB, exe, file string, width, height int, wait time.Duration, js string, benign ...string) (T, []byte) {
	t.Helper()
	url := "file://" + file
	ctx, cancel := browser(exe, width, height)
	defer cancel()
	var ev pageEvents
	if err := chromedp.Listen(ctx, ev.listen(url)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithTimeout(ctx, wait+30*time.Second)
	defer cancel()
	v, png, err := await[T](ctx, url, wait, js)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	ev.mu.Lock()
	defer ev.mu.Unlock()
	var requests []string
	for _, r := range ev.requests {
		if !strings.HasPrefix(r, "data:") {
			requests = append(requests, r)
		}
	}
	if len(requests) > 0 {
		t.Errorf("the page made requests: %q", requests)
	}
	var logged []string
	for _, e := range ev.errors {
		if !slices.ContainsFunc(benign, func(b string) bool { return strings.Contains(e, b) }) {
			logged = append(logged, e)
		}
	}
	if len(logged) > 0 {
		t.Errorf("the page logged: %q", logged)
	}
	return v, png
}

func await[T any](ctx context.Context, url string, wait time.Duration, js string) (T, []byte, error) {
	var zero T
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		return zero, nil, err
	}
	if _, err := chromedp.Call(ctx, runtime.Enable, cdp.Empty{}); err != nil {
		return zero, nil, err
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		return zero, nil, err
	}
	v, err := chromedp.Run(ctx, chromedp.Poll[T](js, chromedp.WithPollingInterval(200*time.Millisecond), chromedp.WithPollingTimeout(wait)))
	if err != nil {
		return zero, nil, err
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	return v, png, err
}
