package htmlreport

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/chromiumtest"
)

func TestChromiumDrawsEveryChart(t *testing.T) {
	exe := chromiumtest.Find(t)
	shots, err := os.MkdirTemp("", "nccllog-report-")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(shots, "report.html")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := Render(f, fixture(1000, 2*zoomFrom)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	for _, scheme := range []string{"light", "dark"} {
		t.Run(scheme, func(t *testing.T) {
			charts, png := chromiumtest.Open(t, exe, file, scheme)
			if len(charts) != 6 {
				t.Errorf("%d chart containers, want 6: %+v", len(charts), charts)
			}
			checkDrawnLabels(t, charts)
			shot := filepath.Join(shots, "report-"+scheme+".png")
			if err := os.WriteFile(shot, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot: %s", shot)
		})
	}
}

// checkDrawnLabels: every chart drew axis labels, and none is a bare fraction (198.711) or the
// name of a format the script did not call.
func checkDrawnLabels(t *testing.T, charts []chromiumtest.Chart) {
	t.Helper()
	for _, c := range charts {
		if len(c.Labels) == 0 {
			t.Errorf("chart %s drew no axis label", c.ID)
		}
		for _, l := range c.Labels {
			if rawFloat.MatchString(l) || strings.Contains(l, "nl") {
				t.Errorf("chart %s: axis label %q", c.ID, l)
			}
		}
	}
}
