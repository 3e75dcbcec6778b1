package info_test

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
	"github.com/nccllog/nccllog/stages/info"
	"github.com/nccllog/nccllog/stages/internal/goldentest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// TestReportGolden holds the info family's Report of each golden log, and of generated
// set-up logs healthy and with faults, to testdata/golden; run `go test ./stages/info
// -update` to rewrite them after a deliberate change.
func TestReportGolden(t *testing.T) {
	logs := append(goldentest.Logs(),
		goldentest.Log{Name: "setup-2.18", Setup: &gen.SetupConfig{Family: "2.18", Hosts: 2, RanksPerHost: 2}},
		goldentest.Log{Name: "setup-2.26-faults", Setup: &gen.SetupConfig{Family: "2.26", Hosts: 2, RanksPerHost: 2,
			SocketHost: gen.Rank(1), EnvRank: gen.Rank(0), VersionRank: gen.Rank(2), WarnRank: gen.Rank(3)}},
		goldentest.Log{Name: "setup-rccl-oneprocess", Setup: &gen.SetupConfig{Family: "rccl", Hosts: 2, RanksPerHost: 2, OneProcess: true}},
	)
	for _, l := range logs {
		t.Run(l.Name, func(t *testing.T) {
			res := goldentest.Run(t, l, stages.MustPlan(stages.Config{}, all.Registry(), "info"), nil)
			goldentest.Check(t, filepath.Join("testdata", "golden", l.Name+".json"), info.InfoOf(res.Set).Report(), *update)
		})
	}
}

// TestTimingKindText: a timings row's kind is written and read as its word.
func TestTimingKindText(t *testing.T) {
	for _, k := range []info.TimingKind{info.TimingInit, info.TimingBootstrap} {
		b, err := k.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var got info.TimingKind
		if err := got.UnmarshalText(b); err != nil || got != k || string(b) != k.String() {
			t.Errorf("%v: %q read back as %v, %v", k, b, got, err)
		}
	}
	var k info.TimingKind
	if err := k.UnmarshalText([]byte("boot")); err == nil {
		t.Error("boot read as a timings kind")
	}
}
