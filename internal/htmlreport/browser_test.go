package htmlreport

import (
	"os"
	"path/filepath"
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
			if len(charts) != 5 {
				t.Errorf("%d chart containers, want 5: %+v", len(charts), charts)
			}
			shot := filepath.Join(shots, "report-"+scheme+".png")
			if err := os.WriteFile(shot, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot: %s", shot)
		})
	}
}
