package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/nccllog/nccllog/stages/stream"
)

// ncclTestsLog is an nccl-tests all_reduce_perf run of one process driving two GPUs (-g 2,
// -c 1 then -c 0 passes), NCCL 2.18 with COLL lines: NCCL's records share stdout with the
// perf table, so the first record of each pass runs straight on from the row's last column
// (`-1`, `0`, `N/A`), as nccl-tests prints the row in pieces around the timed calls.
func ncclTestsLog() string {
	var b strings.Builder
	b.WriteString("# nThread 1 nGpus 2 minBytes 8 maxBytes 128 step: 2(factor) warmup iters: 1 iters: 2 agg iters: 1 validation: 1 graph: 0\n#\n")
	b.WriteString("#  Rank  0 Group  0 Pid  13135 on       gpu1 device  0 [0x1b] Tesla V100\n")
	b.WriteString("#  Rank  1 Group  0 Pid  13135 on       gpu1 device  1 [0x1c] Tesla V100\n")
	comms := [2]string{"0x7f0c741162f0", "0x7f0c7410f0e0"}
	for dev, comm := range comms {
		fmt.Fprintf(&b, "gpu1:13135:13135 [%d] NCCL INFO comm %s rank %d nranks 2 cudaDev %d nvmlDev %d busId %d000 commId 0x8ec4ca5d0d41cf67 - Init COMPLETE\n",
			dev, comm, dev, dev, dev, 1+dev)
	}
	b.WriteString("#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n")
	op := 0
	for size := 8; size <= 128; size *= 2 {
		row := fmt.Sprintf("%12d  %12d  %8s  %6s  %6d", size, size/4, "float", "sum", -1)
		for _, wrong := range []string{"0", "N/A"} {
			for range 3 {
				for dev, comm := range comms {
					fmt.Fprintf(&b, "%sgpu1:13135:13135 [%d] NCCL INFO AllReduce: opCount %x sendbuff 0x7f0c6%d000000 recvbuff 0x7f0c6%d000400 count %d datatype 7 op 0 root 0 comm %s [nranks=2] stream 0x7f0c7400%d000\n",
						row, dev, op, dev, dev, size/4, comm, dev)
					row = ""
				}
				op++
			}
			row = fmt.Sprintf("  %7s  %6.2f  %6.2f  %5s", "12.10", 0.0, 0.0, wrong)
		}
		b.WriteString(row + "\n")
	}
	b.WriteString("# Out of bounds values : 0 OK\n")
	return b.String()
}

func writeLog(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestNCCLTestsGluedRecords: the records glued onto the perf table belong to the process
// whose envelope they print (gpu1:13135), not to hosts `1gpu1`, `0gpu1` and `Agpu1`: the
// healthy run gives neither hang nor check a finding, and both compare the two ranks.
func TestNCCLTestsGluedRecords(t *testing.T) {
	in := writeLog(t, "all_reduce_perf.log", ncclTestsLog())
	for _, tc := range []struct{ cmd, want string }{
		{"hang", "nothing points to a hang in any communicator"},
		{"check", "no disagreement: 1 communicator, 2 ranks compared call by call"},
	} {
		out, errOut, code := runCLI(t, "", tc.cmd, in)
		if code != exitOK || !strings.Contains(out, tc.want) {
			t.Errorf("%s: status %d, want %d and %q:\n%s%s", tc.cmd, code, exitOK, tc.want, out, errOut)
		}
	}
	out, _, _ := runCLI(t, "", "calls", "--format", "csv", in)
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		if f := strings.Split(line, ","); f[2] != "gpu1" || f[3] != "13135" {
			t.Errorf("call not given to gpu1:13135: %s", line)
		}
	}
}

// pastedLog holds one call of each shape people paste, and a whole log's two ranks. The
// records without an envelope (lines 4-6) and the one with its comm redacted (line 3) count
// in the per-call outputs and nowhere in the per-rank ones.
const pastedLog = `gpu1:13135:13135 [0] NCCL INFO comm 0x7f0c741162f0 rank 0 nranks 2 cudaDev 0 busId 1b000 - Init COMPLETE
gpu1:13135:13136 [1] NCCL INFO comm 0x7f0c7410f0e0 rank 1 nranks 2 cudaDev 1 busId 1c000 - Init COMPLETE
gpu1:13135:13135 [0] NCCL INFO AllReduce: opCount 0 sendbuff <PTR> recvbuff <PTR> count 64 datatype 7 op 0 root 0 comm <PTR> [nranks=2] stream <PTR>
AllReduce: opCount 0 sendbuff 0x7f0c60000000 recvbuff 0x7f0c60000400 count 64 datatype 7 op 0 root 0 comm 0x7f0c7410f0e0 [nranks=2] stream 0x7f0c74001000
NCCL INFO AllReduce: opCount 0 sendbuff 0x7f0c60000000 recvbuff 0x7f0c60000400 count 64 datatype 7 op 0 root 0 comm 0x55d0000000a0 [nranks=2]
    12.10    0.00    0.00      0AllReduce: opCount 0 sendbuff 0x... recvbuff 0x... count 64 datatype 7 op 0 root 0 comm 0x... [nranks=2] stream 0x...
gpu1:13135:13135 [0] NCCL INFO [0] AllReduce: opCount 1 sendbuff 0x7f0c60000000 recvbuff 0x7f0c60000400 count 64 datatype 7 op 0 root 0 comm 0x7f0c741162f0 [nranks=2] stream 0x7f0c74000000
gpu1:13135:13136 [1] NCCL INFO [1] AllReduce: opCount 1 sendbuff 0x7f0c50000000 recvbuff 0x7f0c50000400 count 64 datatype 7 op 0 root 0 comm 0x7f0c7410f0e0 [nranks=2] stream 0x7f0c74001000
`

// TestPastedRecords: every pasted record is a call (calls, report), flagged where its process
// or pointer is unknown, and the per-rank analyses see only the two calls with an envelope
// and a comm.
func TestPastedRecords(t *testing.T) {
	in := writeLog(t, "pasted.log", pastedLog)
	var calls callsJSON
	decode(t, []string{"calls", "--format", "json", in}, &calls)
	if len(calls.Calls) != 6 {
		t.Fatalf("calls read %d calls, want 6: %+v", len(calls.Calls), calls.Calls)
	}
	for i, c := range calls.Calls {
		noProcess := c.Line >= 4 && c.Line <= 6
		if noProcess != (c.Pid == nil) || noProcess != (c.Host == "") {
			t.Errorf("call %d (line %d): host %q pid %v; want no process: %v", i, c.Line, c.Host, c.Pid, noProcess)
		}
		if redacted := c.Line == 3 || c.Line == 6; redacted != (c.Comm == "") {
			t.Errorf("call %d (line %d): comm %q; want unread: %v", i, c.Line, c.Comm, redacted)
		}
		if noStream := c.Line == 3 || c.Line == 5 || c.Line == 6; noStream != (c.Stream == "") {
			t.Errorf("call %d (line %d): stream %q; want unread: %v", i, c.Line, c.Stream, noStream)
		}
	}
	table, _, _ := runCLI(t, "", "calls", in)
	if !strings.Contains(table, "       4         ?                      AllReduce") || !strings.Contains(table, "2 ?\n") {
		t.Errorf("the table does not show the unknown process and comm as ?:\n%s", table)
	}
	csvOut, _, _ := runCLI(t, "", "calls", "--format", "csv", in)
	if !strings.Contains(csvOut, "\n4,,,,,AllReduce,") {
		t.Errorf("CSV: want empty host and pid on line 4:\n%s", csvOut)
	}
	rows, err := parquet.ReadFile[stream.CallRow](exportCalls(t, "parquet", in))
	if err != nil || len(rows) != 6 || rows[1].Pid != nil || rows[0].Pid == nil || *rows[0].Pid != 13135 || rows[0].Comm != "" {
		t.Errorf("parquet: %v, rows %+v", err, rows)
	}
	out, _, code := runCLI(t, "", "check", in)
	if code != exitOK || !strings.Contains(out, "2 ranks compared call by call") || !strings.Contains(out, "2 with lines; call 0 seen") {
		t.Errorf("check: status %d:\n%s", code, out)
	}
}
