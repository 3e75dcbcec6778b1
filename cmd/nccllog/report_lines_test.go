package main

import (
	"strings"
	"testing"
)

// rccl227Log is two RCCL 2.27 collective lines (with the `acc` field of framework-lines.md)
// and one of an earlier release, fed on standard input.
const rccl227Log = `host:1234:1240 [0] NCCL INFO AllReduce: opCount 3 sendbuff 0x7f5e0c000000 recvbuff 0x7f5e0c000000 acc (nil) count 1 datatype 7 op 0 root 0 comm 0x55d3c8a0 [nranks=2] stream 0x55d3c9b0 task 0 globalrank 0
host:1234:1240 [0] NCCL INFO AllReduce: opCount 4 sendbuff 0x7f5e0c000000 recvbuff 0x7f5e0c000000 acc (nil) count 256 datatype 7 op 0 root 0 comm 0x55d3c8a0 [nranks=2] stream 0x55d3c9b0 task 0 globalrank 0
host:1234:1240 [0] NCCL INFO AllReduce: opCount 5 sendbuff 0x7f5e0c000000 recvbuff 0x7f5e0c000000 count 1 datatype 7 op 0 root 0 comm 0x55d3c8a0 [nranks=2] stream 0x55d3c9b0 task 0 globalrank 0
`

// TestReportCountsUnknownKeys: the calls of lines with a field nccllog does not know are
// counted, and report says how many such lines there were.
func TestReportCountsUnknownKeys(t *testing.T) {
	out, stderr, code := runCLI(t, rccl227Log, "report", "--format", "json", "-")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var v struct {
		Lines linesJSON `json:"lines"`
		Stats struct {
			Ops []struct {
				Op    string `json:"op"`
				Calls int64  `json:"calls"`
			} `json:"ops"`
		} `json:"stats"`
	}
	if err := jsonUnmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	if v.Lines.Collective != 3 || v.Lines.Malformed != 0 || v.Lines.UnknownKey != 2 {
		t.Errorf("lines %+v: want 3 collective, 0 malformed, 2 unknown_key", v.Lines)
	}
	if len(v.Stats.Ops) != 1 || v.Stats.Ops[0].Calls != 3 {
		t.Errorf("stats %+v: want AllReduce with 3 calls", v.Stats.Ops)
	}
	text, _, _ := runCLI(t, rccl227Log, "report", "-")
	if !strings.Contains(text, "(unknown key)") {
		t.Errorf("report's class table has no (unknown key) row:\n%s", text)
	}
}
