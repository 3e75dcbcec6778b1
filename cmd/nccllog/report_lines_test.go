package main

import (
	"strings"
	"testing"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
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
		Lines stages.LinesReport `json:"lines"`
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

// TestLineClassTableHasEveryClass: report's class table names every class (the JSON's
// lines object is checked in stages).
func TestLineClassTableHasEveryClass(t *testing.T) {
	for k := range parser.NumKinds {
		found := false
		for _, o := range lineClassOrder {
			found = found || o == parser.Kind(k)
		}
		if !found {
			t.Errorf("class %s is not in the report's class table", parser.Kind(k))
		}
	}
}

// watchdogLog is a rank's watchdog lines (framework-lines.md's families, built with the
// torchrun label and glog head) around its noise.
const watchdogLog = `[rank4]:[E1016 03:31:38.928019586 ProcessGroupNCCL.cpp:607] [Rank 4] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9141, OpType=_ALLGATHER_BASE, NumelIn=19008, NumelOut=152064, Timeout(ms)=600000) ran for 600071 milliseconds before timing out.
[rank4]:[E1016 03:31:38.928019586 ProcessGroupNCCL.cpp:607] [PG ID 2 PG GUID 9 Rank 4] Exception (either an error or timeout) detected by watchdog at work: 610, last enqueued NCCL work: 616, last completed NCCL work: 609.
[rank4]:[E1016 03:31:38.928019586 ProcessGroupNCCL.cpp:621] [Rank 4] Some NCCL operations have failed or timed out.
[rank4]:[E1016 03:31:38.928019586 ProcessGroupNCCL.cpp:607] [PG ID 0 PG GUID 0(default_pg) Rank 4] First PG on this rank to signal dumping.
`

// TestReportCountsWatchdogLines: report classes watchdog lines as watchdog, their noise as
// other.
func TestReportCountsWatchdogLines(t *testing.T) {
	out, stderr, code := runCLI(t, watchdogLog, "report", "--format", "json", "-")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var v struct {
		Lines stages.LinesReport `json:"lines"`
	}
	if err := jsonUnmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	if v.Lines.Watchdog != 3 || v.Lines.Other != 1 || v.Lines.Total != 4 {
		t.Errorf("lines %+v: want 3 watchdog, 1 other of 4", v.Lines)
	}
	text, _, _ := runCLI(t, watchdogLog, "report", "-")
	if !strings.Contains(text, "watchdog") {
		t.Errorf("report's class table has no watchdog row:\n%s", text)
	}
}
