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
