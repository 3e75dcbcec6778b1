package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages/ranks"
)

// faultLog writes a generated 8-rank log with cfg's faults, once interleaved (with prefix) and
// once as one file per process, and returns the two inputs.
func faultLog(t *testing.T, cfg gen.Config, prefix string) (interleaved, dir string) {
	t.Helper()
	cfg.Seed, cfg.Ranks, cfg.RanksPerHost, cfg.Steps = 3, 8, 4, 12
	tmp := t.TempDir()
	interleaved = filepath.Join(tmp, "all.log")
	f, err := os.Create(interleaved)
	if err != nil {
		t.Fatal(err)
	}
	c := cfg
	c.Prefix = prefix
	if _, err := gen.Write(f, c); err != nil {
		t.Fatal(err)
	}
	f.Close()
	dir = filepath.Join(tmp, "ranks")
	if _, err := gen.WriteFiles(dir, cfg); err != nil {
		t.Fatal(err)
	}
	return interleaved, dir
}

type hangJSON struct {
	Comms []struct {
		Comm     string                `json:"comm"`
		NRanks   int64                 `json:"nranks"`
		MaxCalls int64                 `json:"max_calls"`
		Suspects []ranks.SuspectReport `json:"suspects"`
	} `json:"comms"`
}

type checkJSON struct {
	Findings []struct {
		Comm      string             `json:"comm"`
		NRanks    int64              `json:"nranks"`
		Kind      string             `json:"kind"`
		DiffersIn string             `json:"differs_in"`
		Call      int64              `json:"call"`
		Sides     []ranks.SideReport `json:"sides"`
	} `json:"findings"`
}

func runJSON(t *testing.T, v any, wantCode int, args ...string) {
	t.Helper()
	out, stderr, code := runCLI(t, "", args...)
	if code != wantCode {
		t.Fatalf("nccllog %v: exit %d, want %d; stderr %q", args, code, wantCode, stderr)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("nccllog %v: %v\n%s", args, err, out)
	}
}

// inputs runs a test on the interleaved log (srun-prefixed and plain) and the per-rank files.
func inputs(t *testing.T, cfg gen.Config, f func(t *testing.T, input string)) {
	for _, prefix := range []string{"", "srun"} {
		all, dir := faultLog(t, cfg, prefix)
		t.Run("interleaved"+prefix, func(t *testing.T) { f(t, all) })
		if prefix == "" {
			t.Run("per-rank-files", func(t *testing.T) { f(t, dir) })
		}
	}
}

// worldOf returns the entry of the 8-rank communicator.
func worldOf[T any](t *testing.T, items []T, nranks func(T) int64) T {
	t.Helper()
	for _, it := range items {
		if nranks(it) == 8 {
			return it
		}
	}
	t.Fatalf("no 8-rank communicator in %+v", items)
	var zero T
	return zero
}

func TestHangFindsStoppedRank(t *testing.T) {
	inputs(t, gen.Config{StopRank: gen.Rank(5), StopAfter: 60}, func(t *testing.T, in string) {
		var h hangJSON
		runJSON(t, &h, exitFound, "hang", "--format", "json", in)
		w := worldOf(t, h.Comms, func(c struct {
			Comm     string                `json:"comm"`
			NRanks   int64                 `json:"nranks"`
			MaxCalls int64                 `json:"max_calls"`
			Suspects []ranks.SuspectReport `json:"suspects"`
		}) int64 {
			return c.NRanks
		})
		if len(w.Suspects) == 0 {
			t.Fatal("no suspect for the world communicator")
		}
		s := w.Suspects[0]
		if s.Rank == nil || *s.Rank != 5 || s.Calls != 60 || s.Behind != w.MaxCalls-60 {
			t.Errorf("first suspect %+v, want rank 5 with 60 calls", s)
		}
		if s.Next == nil || s.Next.Op == "" {
			t.Errorf("the call rank 5 never made is not named: %+v", s)
		}
		for _, other := range w.Suspects[1:] {
			if other.Rank != nil && *other.Rank != 5 && other.Behind > 0 {
				t.Errorf("rank %d is named behind too: %+v", *other.Rank, other)
			}
		}
		var c checkJSON
		runJSON(t, &c, exitFound, "check", "--format", "json", in)
		found := false
		for _, f := range c.Findings {
			found = found || f.Kind == "length" && f.NRanks == 8
			if f.Kind == "mismatch" {
				t.Errorf("check reports a mismatch where a rank only stopped: %+v", f)
			}
		}
		if !found {
			t.Errorf("check does not report the world communicator's sequences of different lengths: %+v", c.Findings)
		}
	})
}

func TestCheckFindsMismatch(t *testing.T) {
	for _, kind := range []string{"count", "dtype"} {
		t.Run(kind, func(t *testing.T) {
			cfg := gen.Config{MismatchRank: gen.Rank(6), MismatchCall: 41, MismatchKind: kind}
			inputs(t, cfg, func(t *testing.T, in string) {
				var c checkJSON
				runJSON(t, &c, exitFound, "check", "--format", "json", in)
				if len(c.Findings) != 1 {
					t.Fatalf("want exactly one finding, got %+v", c.Findings)
				}
				f := c.Findings[0]
				want := map[string]string{"count": "count", "dtype": "datatype"}[kind]
				if f.Kind != "mismatch" || f.Call != 41 || f.DiffersIn != want || f.NRanks != 8 {
					t.Errorf("finding %+v, want a %s mismatch at call 41 of the 8-rank comm", f, want)
				}
				if len(f.Sides) != 2 || f.Sides[0].Ranks != "0-5,7" || f.Sides[1].Ranks != "6" {
					t.Errorf("sides %+v, want ranks 0-5,7 against rank 6", f.Sides)
				}
				var h hangJSON
				runJSON(t, &h, exitOK, "hang", "--format", "json", in)
			})
		})
	}
}

func TestHangAbsentAndAbortedRanks(t *testing.T) {
	_, dir := faultLog(t, gen.Config{MissingRank: gen.Rank(2)}, "")
	var h hangJSON
	runJSON(t, &h, exitFound, "hang", "--format", "json", dir)
	absent := false
	for _, c := range h.Comms {
		for _, s := range c.Suspects {
			absent = absent || c.NRanks == 8 && s.Absent && s.Rank != nil && *s.Rank == 2
		}
	}
	if !absent {
		t.Errorf("rank 2's missing file is not reported: %+v", h)
	}

	all, _ := faultLog(t, gen.Config{AbortRank: gen.Rank(4), StopRank: gen.Rank(4), StopAfter: 30}, "")
	runJSON(t, &h, exitFound, "hang", "--format", "json", all)
	top := h.Comms[0].Suspects[0]
	if top.Rank == nil || *top.Rank != 4 || !strings.Contains(strings.Join(top.Evidence, " "), "Abort") {
		t.Errorf("the aborting rank is not first, with its Abort: %+v", top)
	}
}

// TestNoFindingWithoutFaults: the same logs without faults give no finding and exit 0.
func TestNoFindingWithoutFaults(t *testing.T) {
	inputs(t, gen.Config{Noise: true}, func(t *testing.T, in string) {
		var c checkJSON
		runJSON(t, &c, exitOK, "check", "--format", "json", in)
		if len(c.Findings) != 0 {
			t.Errorf("findings on a fault-free log: %+v", c.Findings)
		}
		var h hangJSON
		runJSON(t, &h, exitOK, "hang", "--format", "json", in)
		for _, cm := range h.Comms {
			if len(cm.Suspects) > 0 {
				t.Errorf("suspects on a fault-free log: %+v", cm)
			}
		}
	})
}

// TestHangWarnAtEnd: a process whose log ends in a WARN, with no call after it, is a suspect
// on that alone; the same WARN followed by more calls is not.
func TestHangWarnAtEnd(t *testing.T) {
	const head = "h:1:1 [0] NCCL INFO comm 0x5 rank 0 nranks 2 cudaDev 0 busId 1000 commId 0xabc - Init COMPLETE\n" +
		"h:2:2 [1] NCCL INFO comm 0x7 rank 1 nranks 2 cudaDev 1 busId 2000 commId 0xabc - Init COMPLETE\n"
	const calls = "h:1:1 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x2 count 4 datatype 7 op 0 root 0 comm 0x5 [nranks=2] stream 0x6\n" +
		"h:2:2 [1] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x2 count 4 datatype 7 op 0 root 0 comm 0x7 [nranks=2] stream 0x6\n"
	const warn = "\nh:2:9 [1] transport/net_ib.cc:1287 NCCL WARN NET/IB : Got completion from peer with error 12\n"
	dir := t.TempDir()
	atEnd, midway := filepath.Join(dir, "end.log"), filepath.Join(dir, "mid.log")
	os.WriteFile(atEnd, []byte(head+calls+warn), 0o644)
	os.WriteFile(midway, []byte(head+calls+warn+calls), 0o644)

	var h hangJSON
	runJSON(t, &h, exitFound, "hang", "--format", "json", atEnd)
	s := h.Comms[0].Suspects
	if len(s) != 1 || s[0].Rank == nil || *s[0].Rank != 1 || !strings.Contains(s[0].Evidence[0], "ends in a WARN") {
		t.Errorf("suspects %+v, want rank 1 for the WARN its log ends in", s)
	}
	runJSON(t, &h, exitOK, "hang", "--format", "json", midway)
	if len(h.Comms[0].Suspects) != 0 {
		t.Errorf("a WARN followed by more calls made a suspect: %+v", h.Comms[0].Suspects)
	}
}

// TestCommPointerReuse: after Destroy, NCCL may hand the same comm pointer to a new
// communicator; its calls belong to the new one, not the old.
func TestCommPointerReuse(t *testing.T) {
	var b strings.Builder
	for _, id := range []string{"0xaaa", "0xbbb"} {
		for r := 0; r < 2; r++ {
			fmt.Fprintf(&b, "h:%d:%d [%d] NCCL INFO comm 0x5 rank %d nranks 2 cudaDev %d busId 1000 commId %s - Init COMPLETE\n", r+1, r+1, r, r, r, id)
		}
		for r := 0; r < 2; r++ {
			count := map[string]int{"0xaaa": 4, "0xbbb": 8}[id]
			fmt.Fprintf(&b, "h:%d:%d [%d] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x2 count %d datatype 7 op 0 root 0 comm 0x5 [nranks=2] stream 0x6\n", r+1, r+1, r, count)
		}
		if id == "0xaaa" {
			for r := 0; r < 2; r++ {
				fmt.Fprintf(&b, "h:%d:%d [%d] NCCL INFO comm 0x5 rank %d nranks 2 cudaDev %d busId 1000 - Destroy COMPLETE\n", r+1, r+1, r, r, r)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "reuse.log")
	os.WriteFile(path, []byte(b.String()), 0o644)
	var v struct {
		Comms []struct {
			Comm  string             `json:"comm"`
			Ranks []ranks.RankReport `json:"ranks"`
		} `json:"comms"`
	}
	runJSON(t, &v, exitOK, "ranks", "--format", "json", path)
	got := map[string]int64{}
	for _, c := range v.Comms {
		for _, r := range c.Ranks {
			got[c.Comm] += r.Bytes
		}
	}
	want := map[string]int64{"0x0000000000000aaa": 2 * 16, "0x0000000000000bbb": 2 * 32}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("bytes per communicator %v, want %v", got, want)
	}
	var c checkJSON
	runJSON(t, &c, exitOK, "check", "--format", "json", path)
}

// TestDestroyEndsBinding: calls on a destroyed communicator's pointer that no new Init line
// names are not the old communicator's.
func TestDestroyEndsBinding(t *testing.T) {
	var b strings.Builder
	line := func(r int, format string, a ...any) {
		fmt.Fprintf(&b, "h:%d:%d [%d] NCCL INFO "+format+"\n", append([]any{r + 1, r + 1, r}, a...)...)
	}
	call := "AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x2 count %d datatype 7 op 0 root 0 comm 0x5 [nranks=2] stream 0x6"
	for r := 0; r < 2; r++ {
		line(r, "comm 0x5 rank %d nranks 2 cudaDev %d busId 1000 commId 0xaaa - Init COMPLETE", r, r)
		line(r, call, 4)
		line(r, "comm 0x5 rank %d nranks 2 cudaDev %d busId 1000 - Destroy COMPLETE", r, r)
		line(r, call, 8)
	}
	path := filepath.Join(t.TempDir(), "destroy.log")
	os.WriteFile(path, []byte(b.String()), 0o644)
	var v struct {
		Comms []struct {
			Comm     string             `json:"comm"`
			Grouping string             `json:"grouping"`
			Ranks    []ranks.RankReport `json:"ranks"`
		} `json:"comms"`
	}
	runJSON(t, &v, exitOK, "ranks", "--format", "json", path)
	for _, c := range v.Comms {
		for _, r := range c.Ranks {
			want := map[string]int64{"commId": 16, "inferred": 32}[c.Grouping]
			if r.Bytes != want || r.Calls != 1 {
				t.Errorf("comm %s (%s): rank %v has %d calls, %d bytes; want 1 call of %d bytes", c.Comm, c.Grouping, r.Rank, r.Calls, r.Bytes, want)
			}
		}
	}
	if len(v.Comms) != 2 {
		t.Errorf("%d communicators, want the destroyed one and the one its pointer went on to", len(v.Comms))
	}
}

// TestRanksJSONDeterministic runs ranks --format json many times on one log: the bus bandwidth
// averages are float sums, which must be taken in the same order every run.
func TestRanksJSONDeterministic(t *testing.T) {
	all, _ := faultLog(t, gen.Config{}, "")
	first, _, code := runCLI(t, "", "ranks", "--format", "json", all)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	runs := 30
	if testing.Short() {
		runs = 10 // -short: ten more runs for a map order to show (go test ./... makes thirty)
	}
	for i := 0; i < runs; i++ {
		if out, _, _ := runCLI(t, "", "ranks", "--format", "json", all); out != first {
			t.Fatalf("run %d differs from the first", i+2)
		}
	}
}

// TestHangStepIsTheLines: one step attribution. In per-process files where only one process
// prints progress lines, a suspect's last call has the step its own line has (none): hang's
// text, its JSON and calls say the same, rather than the text borrowing another rank's step.
func TestHangStepIsTheLines(t *testing.T) {
	_, dir := faultLog(t, gen.Config{StopRank: gen.Rank(5), StopAfter: 40}, "")
	out, _, code := runCLI(t, "", "hang", "--format", "json", dir)
	var h hangJSON
	if code != exitFound || jsonUnmarshal(out, &h) != nil || len(h.Comms) == 0 || len(h.Comms[0].Suspects) == 0 {
		t.Fatalf("hang: exit %d, %s", code, out)
	}
	jsonStep := ""
	if st := h.Comms[0].Suspects[0].LastStep; st != nil {
		jsonStep = strconv.FormatInt(*st, 10)
	}
	text, _, _ := runCLI(t, "", "hang", dir)
	m := regexp.MustCompile(`last: call \d+ [^(]*\((\S+):(\d+)(?:, step (\d+))?\)`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no last call in hang's text:\n%s", text)
	}
	file, line, textStep := m[1], m[2], m[3]
	csv, _, _ := runCLI(t, "", "calls", "--format", "csv", dir)
	callStep, found := "", false
	for _, row := range strings.Split(csv, "\n") {
		if f := strings.Split(row, ","); len(f) > 16 && f[0] == line && f[16] == file {
			callStep, found = f[1], true
		}
	}
	if !found || callStep != textStep || jsonStep != textStep {
		t.Errorf("the suspect's last call %s:%s: step %q in hang's text, %q in its JSON, %q in calls (found %v)",
			file, line, textStep, jsonStep, callStep, found)
	}
}
