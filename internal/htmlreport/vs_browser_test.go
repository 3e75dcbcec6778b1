package htmlreport

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nccllog/nccllog/internal/chromiumtest"
)

// TestChromiumDrawsVs: the two-run page loads without a script error or a request and draws
// every chart it places, in both themes, steps past the zoom included.
func TestChromiumDrawsVs(t *testing.T) {
	exe := chromiumtest.Find(t)
	shots, err := os.MkdirTemp("", "nccllog-vs-")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(shots, "vs.html")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := RenderVs(f, vsFixture(2*zoomFrom)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	for _, scheme := range []string{"light", "dark"} {
		t.Run(scheme, func(t *testing.T) {
			charts, png := chromiumtest.Open(t, exe, file, scheme)
			if len(charts) != len(vsChartIDs) {
				t.Errorf("%d chart containers, want %d: %+v", len(charts), len(vsChartIDs), charts)
			}
			checkDrawnLabels(t, charts)
			shot := filepath.Join(shots, "vs-"+scheme+".png")
			if err := os.WriteFile(shot, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot: %s", shot)
		})
	}
}
