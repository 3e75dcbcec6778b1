package strag_test

import (
	"flag"
	"path/filepath"
	"testing"
	"time"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages/internal/goldentest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// shortGoldens are the goldens TestReportGolden checks under -short: each is a 64-rank job.
var shortGoldens = map[string]bool{"both": true, "skew": true, "untimed": true}

// TestReportGolden holds the stragglers Report of generated 64-rank jobs (a chronic and a
// one-off straggler, both in one job, healthy, hosts' clocks apart, on the interleaving
// clock, untimed) to testdata/golden; run `go test ./stages/strag -update` to rewrite them after a deliberate
// change. Under -short it checks three of them (shortGoldens): every kind of straggler, the
// clocks apart and no times.
func TestReportGolden(t *testing.T) {
	t.Parallel()
	chronic, oneOff, both, skew, interleaved, untimed := fullJob(), fullJob(), fullJob(), fullJob(), fullJob(), fullJob()
	both.Stragglers = []gen.Straggler{{Rank: 12, Kind: gen.StragglerOneOff}, {Rank: 45, Kind: gen.StragglerChronic}}
	chronic.Stragglers = []gen.Straggler{{Rank: 37, Kind: gen.StragglerChronic}}
	oneOff.Stragglers = []gen.Straggler{{Rank: 37, Kind: gen.StragglerOneOff}}
	skew.ClockSkew = 250 * time.Millisecond
	interleaved.ArrivalJitter = 0
	untimed.Timestamps, untimed.ArrivalJitter = "", 0
	for name, c := range map[string]gen.Config{"chronic": chronic, "one-off": oneOff, "both": both, "healthy": fullJob(), "skew": skew,
		"interleaved": interleaved, "untimed": untimed} {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && !shortGoldens[name] {
				t.Skip("-short checks only the goldens of both, skew and untimed")
			}
			path, _ := write(t, c)
			goldentest.Check(t, filepath.Join("testdata", "golden", name+".json"), report(t, 0, path), *update)
		})
	}
}
