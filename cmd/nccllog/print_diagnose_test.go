package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
)

func writeGen(t *testing.T, c gen.Config) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := gen.Write(&b, c); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "job.log")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDiagnoseCommand: a fault exits 3 with the first fault on top and its consequences
// under it; the JSON says the same; a healthy job exits 0; a partial result diagnoses as
// its log does.
func TestDiagnoseCommand(t *testing.T) {
	bad := writeGen(t, gen.Config{Seed: 1, Ranks: 16, RanksPerHost: 8, Steps: 4, Failure: "ib-error"})
	out, errOut, code := runCLI(t, "", "diagnose", bad)
	if code != 3 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	lines := strings.Split(out, "\n")
	if lines[0] != "status: fault" || !strings.HasPrefix(lines[1], "first fault: rank 9 (gpu-node-01:9238) had a network error first: NET/IB") {
		t.Errorf("output starts\n%s\n%s", lines[0], lines[1])
	}
	if !strings.Contains(out, "  then: 8 processes logged \"Connection closed by remote peer gpu-node-01\" after it.") {
		t.Errorf("no consequence line:\n%s", out)
	}
	js, _, code := runCLI(t, "", "diagnose", "--format", "json", bad)
	var r struct {
		Status   string `json:"status"`
		Findings []struct {
			Kind    string `json:"kind"`
			Ranks   []int  `json:"ranks"`
			Follows *int   `json:"follows"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(js), &r); err != nil || code != 3 {
		t.Fatalf("json: %v, exit %d", err, code)
	}
	if r.Status != "fault" || r.Findings[0].Kind != "network-error" || r.Findings[0].Ranks[0] != 9 || r.Findings[1].Follows == nil {
		t.Errorf("json: %+v", r)
	}
	part := filepath.Join(t.TempDir(), "job.part")
	if _, e, c := runCLI(t, "", "summarize", "-o", part, bad); c != 0 {
		t.Fatalf("summarize: exit %d: %s", c, e)
	}
	if fromPart, _, c := runCLI(t, "", "diagnose", "--format", "json", part); c != 3 || fromPart != js {
		t.Errorf("the partial result diagnoses otherwise (exit %d):\n%s", c, fromPart)
	}
	good := writeGen(t, gen.Config{Seed: 1, Ranks: 16, RanksPerHost: 8, Steps: 4, CleanAbort: true})
	if out, _, code := runCLI(t, "", "diagnose", good); code != 0 || out != "status: healthy (no evidence of a fault)\n" {
		t.Errorf("healthy job: exit %d:\n%s", code, out)
	}
	if out, _, code := runCLI(t, "hello\n", "diagnose", "-"); code != 0 || out != "status: unknown (the input holds no NCCL lines)\n" {
		t.Errorf("no NCCL lines: exit %d:\n%s", code, out)
	}
	// NCCL lines it cannot read are warned about one by one: the status says so too, rather
	// than that there are none.
	unread := "NCCL WARN socket failed\nNCCL INFO Ring 00 : 0 1\n"
	if out, _, code := runCLI(t, unread, "diagnose", "-"); code != 0 || out != "status: unknown (the input's NCCL lines are in a form nccllog does not read: 2 malformed lines)\n" {
		t.Errorf("unread NCCL lines: exit %d:\n%s", code, out)
	}
	// An unknown status lists what made it so, with its evidence, as the JSON does.
	retrying := "h1:12:12 [0] NCCL INFO Call to connect returned Connection refused, retrying\n"
	want := "status: unknown (no evidence proves a fault, but processes kept retrying a connect with no completed init after it, as where a peer never listens or where the log was cut)\n" +
		"  h1:12 kept retrying a connect (Connection refused), with no completed init after it: the peer connected to (the bootstrap root, or another rank) was not listening or not reachable, unless the log was cut while the job waited.\n" +
		"    [network-error, GPU 0]\n" +
		"      <stdin>:1: Call to connect returned Connection refused, retrying\n"
	if out, _, code := runCLI(t, retrying, "diagnose", "-"); code != 0 || out != want {
		t.Errorf("unknown with a finding: exit %d:\n%s", code, out)
	}
}
