package ranks_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages/ranks"
)

// stallLogs writes cfg's hung job (rank 5 never enqueues world work 40; the others wait and
// their watchdogs time out ten minutes later) twice: whole, and cut before the watchdog lines
// (where the others' calls end), as a log taken while the job still ran.
func stallLogs(t *testing.T, cfg gen.Config) (whole, cut string) {
	t.Helper()
	cfg.Seed, cfg.Ranks, cfg.RanksPerHost, cfg.Steps = 3, 8, 4, 12
	cfg.WatchdogRank, cfg.WatchdogSeq = gen.Rank(5), 40
	var b bytes.Buffer
	if _, err := gen.Write(&b, cfg); err != nil {
		t.Fatal(err)
	}
	var kept []string
	for line := range strings.Lines(b.String()) {
		if !strings.Contains(line, "ProcessGroupNCCL") {
			kept = append(kept, line)
		}
	}
	dir := t.TempDir()
	whole, cut = filepath.Join(dir, "whole.log"), filepath.Join(dir, "cut.log")
	for path, text := range map[string]string{whole: b.String(), cut: strings.Join(kept, "")} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return whole, cut
}

// commSuspect is the world communicator's suspect rank 5 in h, or nil.
func commSuspect(h ranks.HangReport) *ranks.SuspectReport {
	for _, c := range h.Comms {
		for i, s := range c.Suspects {
			if s.Rank != nil && *s.Rank == 5 {
				return &c.Suspects[i]
			}
		}
	}
	return nil
}

// TestCutVersusStall: the same hung job cut before the stall shows (rank 5 one call behind,
// its last call a fraction of a second before the others') is no hang on any communicator;
// with the ten minutes to the watchdog lines, rank 5 is named with its stall. Forms: a
// sub-second one, whole seconds, and one without a year (syslog's).
func TestCutVersusStall(t *testing.T) {
	for _, c := range []struct {
		form   string
		digits int
	}{{"nccl-all", 6}, {"nccl-all", 0}, {"slash", 0}, {"syslog", 3}, {"glog", 0}} {
		t.Run(c.form+"-"+string(rune('0'+c.digits)), func(t *testing.T) {
			whole, cut := stallLogs(t, gen.Config{Timestamps: c.form, TimestampDigits: c.digits})
			h := analyze(t, cut).ranks.HangReport()
			if s := commSuspect(h); s != nil {
				t.Errorf("cut log: rank 5 is a suspect: %+v", s)
			}
			if !strings.Contains(h.Comms[0].Verdict, "the log looks cut") {
				t.Errorf("cut log: verdict %q, want the log looks cut", h.Comms[0].Verdict)
			}
			h = analyze(t, whole).ranks.HangReport()
			s := commSuspect(h)
			if s == nil || !strings.Contains(strings.Join(s.Evidence, "\n"), "its calls stopped at") {
				t.Fatalf("whole log: rank 5 %+v, want a suspect whose calls stopped", s)
			}
		})
	}
}

// TestStallUntimedUnchanged: without times, the cut log's rank behind is a suspect as
// before (nothing tells a cut from a hang).
func TestStallUntimedUnchanged(t *testing.T) {
	_, cut := stallLogs(t, gen.Config{})
	if s := commSuspect(analyze(t, cut).ranks.HangReport()); s == nil {
		t.Fatal("untimed cut log: rank 5 is no suspect")
	}
}

// TestStallClockSkew: where the hosts' clocks read ten minutes apart, the other host's
// lines are not held against rank 5's: neither a stall nor a cut is claimed from them.
func TestStallClockSkew(t *testing.T) {
	for _, skew := range []time.Duration{10 * time.Minute, -10 * time.Minute} {
		whole, cut := stallLogs(t, gen.Config{Timestamps: "nccl-all", TimestampDigits: 6, ClockSkew: skew})
		for _, path := range []string{whole, cut} {
			h := analyze(t, path).ranks.HangReport()
			s := commSuspect(h)
			if s == nil {
				t.Fatalf("skew %v, %s: rank 5 no suspect (a cut claimed across hosts)", skew, filepath.Base(path))
			}
			if strings.Contains(strings.Join(s.Evidence, "\n"), "stopped at") {
				t.Errorf("skew %v, %s: a stall claimed: %v", skew, filepath.Base(path), s.Evidence)
			}
		}
	}
}

// TestHealthyTimedSilent: a healthy timed job, whole and cut anywhere, has no suspect.
func TestHealthyTimedSilent(t *testing.T) {
	var b bytes.Buffer
	if _, err := gen.Write(&b, gen.Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 8, Timestamps: "nccl-all", TimestampDigits: 6}); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(b.String(), "\n")
	dir := t.TempDir()
	for _, cut := range [][2]int{{0, len(lines)}, {0, len(lines) / 2}, {len(lines) / 3, len(lines)}, {len(lines) / 4, 3 * len(lines) / 4}, {0, len(lines) - 7}} {
		path := filepath.Join(dir, "x.log")
		if err := os.WriteFile(path, []byte(strings.Join(lines[cut[0]:cut[1]], "")), 0o644); err != nil {
			t.Fatal(err)
		}
		if h := analyze(t, path).ranks.HangReport(); h.Found() {
			t.Errorf("lines %v: a suspect: %+v", cut, h.Comms)
		}
	}
}

// withLines is the log at path with lines appended, written next to it as name.
func withLines(t *testing.T, path, name string, lines ...string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(filepath.Dir(path), name)
	if err := os.WriteFile(out, []byte(string(b)+strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStallFromOtherLines: the cut log's rank 5, whose calls stopped, is stalled where its own
// later lines of other kinds go on ten minutes (NCCL INFO lines, a Python traceback's last
// line of its host); where they follow its last call at once, the log still looks cut.
func TestStallFromOtherLines(t *testing.T) {
	_, cut := stallLogs(t, gen.Config{Timestamps: "nccl-all", TimestampDigits: 6})
	b, err := os.ReadFile(cut)
	if err != nil {
		t.Fatal(err)
	}
	var last string // rank 5's last line: gpu-node-01's [1]
	for line := range strings.Lines(string(b)) {
		if strings.Contains(line, "gpu-node-01:") && strings.Contains(line, " [1] NCCL INFO") {
			last = line
		}
	}
	at, err := time.Parse("2006-01-02 15:04:05.000000", last[1:27])
	if err != nil {
		t.Fatal(err)
	}
	env := last[28:strings.Index(last, " NCCL INFO")]
	info := func(d time.Duration, msg string) string {
		return "[" + at.Add(d).Format("2006-01-02 15:04:05.000000") + "] " + env + " NCCL INFO " + msg + "\n"
	}
	for _, c := range []struct {
		name    string
		lines   []string
		stalled bool
	}{
		{"info", []string{info(5*time.Minute, "[Service thread] Connection closed by localRank 2"), info(10*time.Minute, "[Service thread] Connection closed by localRank 3")}, true},
		{"failure", []string{info(time.Second, "[Service thread] Connection closed by localRank 2"),
			"[" + at.Add(10*time.Minute).Format("2006-01-02 15:04:05.000000") + "] RuntimeError: NCCL communicator was aborted on rank 5.\n"}, true},
		{"cut", []string{info(100*time.Millisecond, "[Service thread] Connection closed by localRank 2")}, false},
	} {
		h := analyze(t, withLines(t, cut, c.name+".log", c.lines...)).ranks.HangReport()
		s := commSuspect(h)
		stalled := s != nil && strings.Contains(strings.Join(s.Evidence, "\n"), "its calls stopped at")
		if stalled != c.stalled {
			t.Errorf("%s: rank 5 %+v (verdict %q), want stalled %v", c.name, s, h.Comms[0].Verdict, c.stalled)
		}
	}
}
