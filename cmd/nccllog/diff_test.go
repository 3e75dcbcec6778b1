package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
)

// diffRow is one difference as diff's JSON has it.
type diffRow struct {
	Section string   `json:"section"`
	What    string   `json:"what"`
	A       string   `json:"a"`
	B       string   `json:"b"`
	Ratio   *float64 `json:"ratio"`
}

type diffJSON struct {
	Differences []diffRow `json:"differences"`
	Same        []string  `json:"same"`
}

// writeTemp writes text to a file of its own and returns its path.
func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func setupLog(t *testing.T, c gen.SetupConfig) string {
	t.Helper()
	var b bytes.Buffer
	if err := gen.WriteSetup(&b, c); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// runDiff diffs two texts through the CLI's JSON.
func runDiff(t *testing.T, a, b string) diffJSON {
	t.Helper()
	out, stderr, code := runCLI(t, "", "diff", "--format", "json", writeTemp(t, "a.log", a), writeTemp(t, "b.log", b))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var d diffJSON
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	return d
}

// scaleSteps multiplies every progress line's step time by f.
func scaleSteps(log string, f float64) string {
	re := regexp.MustCompile(`train_step_timing in s: ([0-9.]+)`)
	return re.ReplaceAllStringFunc(log, func(m string) string {
		v, _ := strconv.ParseFloat(re.FindStringSubmatch(m)[1], 64)
		return fmt.Sprintf("train_step_timing in s: %.3f", v*f)
	})
}

// TestDiffOneThing: pairs that differ in exactly one thing (the same generator seed on both
// sides, one thing edited or one set-up fault) give that thing, and only it.
func TestDiffOneThing(t *testing.T) {
	base := genLog(t, gen.Config{Seed: 1, Ranks: 16, Steps: 6})
	setup := setupLog(t, gen.SetupConfig{Family: "2.26"})
	one := 1
	cases := []struct {
		name   string
		a, b   string
		expect []diffRow // every difference, in order (Ratio not compared)
	}{
		{"version", base, strings.ReplaceAll(base, "NCCL version 2.21.5+cuda12.4", "NCCL version 2.22.3+cuda12.4"),
			[]diffRow{{"identity", "NCCL version", "2.21.5+cuda12.4", "2.22.3+cuda12.4", nil}}},
		{"tuning", setup, strings.ReplaceAll(setup, "Algo RING proto LL128", "Algo RING proto SIMPLE"),
			[]diffRow{{"tuning", "tuning AllReduce 65536-262144 B", "RING/LL128", "RING/SIMPLE", nil}}},
		{"slower steps", base, scaleSteps(base, 1.5),
			[]diffRow{{"steps", "step time median", "", "", nil}, {"steps", "step time p95", "", "", nil}}},
		{"env", setup, setupLog(t, gen.SetupConfig{Family: "2.26", EnvRank: &one}),
			[]diffRow{{"environment", "NCCL_IB_HCA", "absent", "mlx5_0,mlx5_1", nil}}},
		// One host on Socket: its NICs, the transport and network facts, GPUDirect off on its
		// rings, and the communicators' transports, all in one section.
		{"socket on one node", setup, setupLog(t, gen.SetupConfig{Family: "2.26", SocketHost: &one}),
			[]diffRow{{"transports", "NET/Socket interfaces", "absent", "eth0", nil}, {"transports", "inter-node transport", "", "", nil},
				{"transports", "network", "IB", "IB, Socket", nil}, {"transports", "communicator rings", "PXN 0 GDR 1", "PXN 0 GDR 0, PXN 0 GDR 1", nil},
				{"transports", "communicator transports", "", "", nil}}},
		// The generator's WARN is a NIC's completion error with its backtrace: diagnose reads
		// it as the run's fault, so the findings section says so before naming the WARN.
		{"warn", setup, setupLog(t, gen.SetupConfig{Family: "2.26", WarnRank: &one}),
			[]diffRow{{"findings", "diagnose status", "healthy", "fault", nil}, {"findings", "first fault", "", "", nil},
				{"findings", "", "", "", nil}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := runDiff(t, c.a, c.b)
			if len(d.Differences) != len(c.expect) {
				t.Fatalf("want %d differences, got %+v", len(c.expect), d.Differences)
			}
			for i, w := range c.expect {
				g := d.Differences[i]
				if g.Section != w.Section || (w.What != "" && g.What != w.What) || (w.A != "" && (g.A != w.A || g.B != w.B)) {
					t.Errorf("difference %d: want %+v, got %+v", i, w, g)
				}
			}
		})
	}
}

// TestDiffSelf: a run against itself, and against its own partial result, has no
// differences, exits 0 even with --exit-code, and prints the same bytes on repeat.
func TestDiffSelf(t *testing.T) {
	c := gen.Config{Seed: 3, Ranks: 16, Steps: 8, Noise: true, Failure: "ib-error"}
	if testing.Short() { // the same sections on a job of 4 ranks on 2 hosts, 2 steps
		c.Ranks, c.RanksPerHost, c.Steps = 4, 2, 2
	}
	log := writeTemp(t, "job.log", genLog(t, c))
	part := filepath.Join(t.TempDir(), "job.part")
	if _, stderr, code := runCLI(t, "", "summarize", "-o", part, log); code != exitOK {
		t.Fatalf("summarize: exit %d: %s", code, stderr)
	}
	for _, b := range []string{log, part} {
		for _, format := range []string{"table", "json"} {
			first, stderr, code := runCLI(t, "", "diff", "--exit-code", "--format", format, log, b)
			again, _, _ := runCLI(t, "", "diff", "--exit-code", "--format", format, log, b)
			if code != exitOK || first != again {
				t.Errorf("%s vs %s, %s: exit %d (%s), repeat same: %v", log, b, format, code, stderr, first == again)
			}
			if format == "table" && !strings.HasPrefix(first, "no differences\nidentity: same\n") {
				t.Errorf("%s:\n%s", b, first)
			}
			if format == "json" && !strings.HasPrefix(first, "{\n  \"differences\": [],\n") {
				t.Errorf("%s:\n%s", b, first)
			}
		}
	}
}

// TestDiffSides: --a/--b take several inputs a side (a job's per-process files against the
// same job's one log: the same), --exit-code exits 1 on a difference, and wrong sides are
// usage errors.
func TestDiffSides(t *testing.T) {
	c := gen.Config{Seed: 2, Ranks: 8, RanksPerHost: 4, Steps: 4}
	files, err := gen.WriteFiles(t.TempDir(), c)
	if err != nil {
		t.Fatal(err)
	}
	one := writeTemp(t, "job.log", genLog(t, c))
	args := []string{"diff", "--exit-code", "--b", one}
	for _, f := range files {
		args = append(args, "--a", f)
	}
	if out, stderr, code := runCLI(t, "", args...); code != exitOK || !strings.HasPrefix(out, "no differences\n") {
		t.Errorf("per-process files vs one log: exit %d (%s):\n%s", code, stderr, out)
	}
	slower := writeTemp(t, "slow.log", scaleSteps(genLog(t, c), 2))
	out, _, code := runCLI(t, "", "diff", "--exit-code", one, slower)
	if code != exitData || !strings.Contains(out, "\nsteps    step time median  2.17 s -> 4.34 s  (×2)\n") || !strings.Contains(out, "(×2)") {
		t.Errorf("slower: exit %d:\n%s", code, out)
	}
	if _, _, code := runCLI(t, "", "diff", one, slower); code != exitOK {
		t.Errorf("without --exit-code: exit %d", code)
	}
	for _, bad := range [][]string{{one}, {one, one, one}, {"--a", one}, {"--a", one, "--b", one, one}, {"-", "-"}} {
		_, stderr, code := runCLI(t, "", append([]string{"diff"}, bad...)...)
		if code != exitUsage || !strings.HasPrefix(stderr, "nccllog: diff: ") {
			t.Errorf("%q: exit %d: %s", bad, code, stderr)
		}
	}
}

// TestDiffGenerated: pairs the generator makes with one flag changed and the same seed. The
// flag's difference comes first; what else differs is what the flag changes in the
// generator, not noise in diff: a third node changes the random draws of message sizes and
// step times (so collectives, tuning, init and steps differ too, compared per rank and per
// step), and a failure stops the job half way (fewer calls and steps). Environment and
// transports stay the same.
func TestDiffGenerated(t *testing.T) {
	base := genLog(t, gen.Config{Seed: 1, Ranks: 16, Steps: 8})
	for _, c := range []struct {
		name  string
		cfg   gen.Config
		first diffRow
	}{
		{"one more node", gen.Config{Seed: 1, Ranks: 24, Steps: 8}, diffRow{"identity", "processes", "16", "24", nil}},
		{"failure", gen.Config{Seed: 1, Ranks: 16, Steps: 8, Failure: "exit-slurm"}, diffRow{"findings", "diagnose status", "healthy", "fault", nil}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := runDiff(t, base, genLog(t, c.cfg))
			if len(d.Differences) == 0 || d.Differences[0].Section != c.first.Section || d.Differences[0].What != c.first.What ||
				d.Differences[0].A != c.first.A || d.Differences[0].B != c.first.B {
				t.Fatalf("want first %+v, got %+v", c.first, d.Differences)
			}
			for _, x := range d.Differences {
				if x.Section == "environment" || x.Section == "transports" || (c.name == "failure" && x.Section == "identity") {
					t.Errorf("unrelated: %+v", x)
				}
				if c.name == "one more node" && x.Section == "collectives" && !strings.HasSuffix(x.What, " per rank") && !strings.HasSuffix(x.What, " sizes") && !strings.HasPrefix(x.What, "(op, count") {
					t.Errorf("not per rank: %+v", x)
				}
			}
		})
	}
}
