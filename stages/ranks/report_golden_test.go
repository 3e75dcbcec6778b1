package ranks_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
)

// reports is the family's Reports for one input, as the golden files hold them: every one
// for a fixture; for a generated job (thousands of calls a rank, the fixtures hold their
// kind of volumes already) hang's and check's only.
type reports struct {
	Hang  any `json:"hang"`
	Check any `json:"check"`
	Ranks any `json:"ranks,omitempty"`
	Comms any `json:"comms,omitempty"`
}

func reportsOf(a analyzed, verdictsOnly bool) reports {
	r := reports{Hang: a.ranks.HangReport(), Check: a.ranks.CheckReport()}
	if !verdictsOnly {
		r.Ranks, r.Comms = a.ranks.RanksReport(a.times), a.ranks.CommsReport()
	}
	return r
}

// TestReportsGolden holds the family's Reports on its fixtures and on generated jobs (one
// per fault) to the files under testdata/golden; run `go test ./stages/ranks -update` to
// rewrite them after a deliberate change.
func TestReportsGolden(t *testing.T) {
	cases := map[string][]string{"two-jobs": {filepath.Join("testdata", "ranks", "two-jobs")}}
	tmp := map[string]string{} // the temporary folder of each generated job
	for _, dir := range []string{"ranks", "watchdog"} {
		logs, err := filepath.Glob(filepath.Join("testdata", dir, "*.log"))
		if err != nil || len(logs) == 0 {
			t.Fatalf("no fixtures in testdata/%s: %v", dir, err)
		}
		for _, l := range logs {
			cases[dir+"-"+strings.TrimSuffix(filepath.Base(l), ".log")] = []string{l}
		}
	}
	for name, cfg := range map[string]gen.Config{
		"healthy":     {Noise: true},
		"clean-abort": {CleanAbort: true},
		"stop":        {StopRank: gen.Rank(5), StopAfter: 40},
		"abort":       {AbortRank: gen.Rank(5), StopRank: gen.Rank(5), StopAfter: 40},
		"missing":     {MissingRank: gen.Rank(5)},
		"watchdog":    {WatchdogRank: gen.Rank(5), WatchdogSeq: 30},
	} {
		all, _ := genLog(t, cfg, "")
		cases["gen-"+name], tmp["gen-"+name] = []string{all}, filepath.Dir(all)
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			checkGolden(t, filepath.Join("testdata", "golden", name+".json"), tmp[name], reportsOf(analyze(t, in...), tmp[name] != ""))
		})
	}
	// Every golden file is some case's: a case renamed or dropped leaves none behind.
	files, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.json"))
	for _, f := range files {
		if _, ok := cases[strings.TrimSuffix(filepath.Base(f), ".json")]; !ok && !*update {
			t.Errorf("%s is no case's golden file", f)
		} else if !ok {
			os.Remove(f)
		}
	}
}
