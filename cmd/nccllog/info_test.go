package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages/info"
)

// infoFixtures are the set-up logs under testdata/info, one per version family, each with
// the faults of its line (none, or a WARN alone, gives no outlier). `go test -update`
// writes them with nccllog-gen's set-up generator and rewrites the goldens.
var infoFixtures = []struct {
	family string
	cfg    gen.SetupConfig
}{
	{"2.4", gen.SetupConfig{EnvRank: gen.Rank(6)}},
	{"2.8", gen.SetupConfig{SocketHost: gen.Rank(2)}},
	{"2.12", gen.SetupConfig{NoGDRHost: gen.Rank(1)}},
	{"2.18", gen.SetupConfig{OneProcess: true}},
	{"2.22", gen.SetupConfig{VersionRank: gen.Rank(6), WarnRank: gen.Rank(5)}},
	{"2.26", gen.SetupConfig{WarnRank: gen.Rank(3)}},
	{"2.30", gen.SetupConfig{NoGDRHost: gen.Rank(3), WarnRank: gen.Rank(5)}},
	{"rccl", gen.SetupConfig{EnvRank: gen.Rank(2), Hosts: 3, RanksPerHost: 2}},
}

// TestInfoGolden holds info's table and JSON on each family's fixture to testdata/info.
func TestInfoGolden(t *testing.T) {
	for _, fx := range infoFixtures {
		t.Run(fx.family, func(t *testing.T) {
			log := filepath.Join("testdata", "info", fx.family+".log")
			if *update {
				writeInfoFixture(t, log, fx.family, fx.cfg)
			}
			for _, format := range []string{"table", "json"} {
				got, stderr, code := runCLI(t, "", "info", "--format", format, log)
				if code != 0 || stderr != "" {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				checkGolden(t, filepath.Join("testdata", "info", fx.family+"."+format+".golden"), got)
			}
		})
	}
}

func writeInfoFixture(t *testing.T, path, family string, c gen.SetupConfig) {
	t.Helper()
	c.Family = family
	var b bytes.Buffer
	if err := gen.WriteSetup(&b, c); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkGolden compares got with the golden file at path, or writes it there with -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/nccllog -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("output differs from %s (-want +got):\n%s", path, diff)
	}
}

// TestInfoJSONOutliersEmpty: a uniform job's JSON has "outliers": [], not null, so that
// scripts can test its length.
func TestInfoJSONOutliersEmpty(t *testing.T) {
	got, _, code := runCLI(t, "", "info", "--format", "json", filepath.Join("testdata", "info", "2.18.log"))
	var rep info.InfoReport
	if err := json.Unmarshal([]byte(got), &rep); code != 0 || err != nil {
		t.Fatalf("exit %d, %v", code, err)
	}
	if rep.Outliers == nil || len(rep.Outliers) != 0 || !bytes.Contains([]byte(got), []byte(`"outliers": []`)) {
		t.Errorf("outliers = %v", rep.Outliers)
	}
}

// TestInfoCellsCut: a table cell names at most eight runs of ranks and four hosts, then
// how many in all; a short list prints whole.
func TestInfoCellsCut(t *testing.T) {
	var every2nd []int64
	for r := int64(0); r < 2000; r += 2 {
		every2nd = append(every2nd, r)
	}
	hosts := []string{"h0", "h1", "h2", "h3", "h4", "h5"}
	for _, c := range []struct{ got, want string }{
		{ranksCell(every2nd), "0,2,4,6,8,10,12,14,… (1,000 ranks)"},
		{ranksCell([]int64{0, 1, 2, 3, 5, 7, 8}), "0-3,5,7-8"},
		{ranksCell(nil), "-"},
		{hostsCell(hosts), "h0,h1,h2,h3,… (6 hosts)"},
		{hostsCell(hosts[:4]), "h0,h1,h2,h3"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestInfoLogEndsInInit: a healthy job's log that ends while its ranks start their second
// communicator has no outlier; the table says how many communicators the log does not hold
// whole, and the JSON counts them.
func TestInfoLogEndsInInit(t *testing.T) {
	var b bytes.Buffer
	if _, err := gen.Write(&b, gen.Config{Seed: 1, Ranks: 16, Steps: 1}); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(b.String(), "\n")
	var cut string // up to the 12th ncclCommSplit Init START: 4 of 16 processes have none yet
	for i, starts := 0, 0; i < len(lines) && cut == ""; i++ {
		if strings.Contains(lines[i], "ncclCommSplit") && strings.Contains(lines[i], "Init START") {
			if starts++; starts == 12 {
				cut = strings.Join(lines[:i+1], "")
			}
		}
	}
	if cut == "" {
		t.Fatal("the generated log has fewer than 12 ncclCommSplit Init START lines")
	}
	got, _, code := runCLI(t, cut, "info", "-")
	if code != 0 || !strings.Contains(got, "== outliers ==\nnone") || !strings.Contains(got, "not whole in the log") {
		t.Errorf("exit %d:\n%s", code, got)
	}
	got, _, _ = runCLI(t, cut, "info", "--format", "json", "-")
	var rep info.InfoReport
	if err := json.Unmarshal([]byte(got), &rep); err != nil || rep.CommsNotWhole == 0 || len(rep.Outliers) != 0 {
		t.Errorf("%v: comms_not_whole %d, outliers %v", err, rep.CommsNotWhole, rep.Outliers)
	}
}
