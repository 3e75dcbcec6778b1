package gen

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func failCfg(scenario string) Config {
	return Config{Seed: 3, Ranks: 16, RanksPerHost: 8, Steps: 6, Failure: scenario}
}

// runFailure writes c and returns its lines, its Truth and its processes.
func runFailure(t *testing.T, c Config) ([]string, Truth, []proc) {
	t.Helper()
	var b bytes.Buffer
	s, err := Write(&b, c)
	if err != nil {
		t.Fatalf("Write(%+v): %v", c, err)
	}
	if s.Truth == nil {
		t.Fatalf("Write(%+v): no Truth", c)
	}
	n, v, _ := c.normalize()
	g := newGen(io.Discard, n, v)
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n"), *s.Truth, g.topo.procs
}

// head is "host:pid:" of p, which every NCCL line of its process starts with.
func head(p *proc) string { return hostName(p.host) + ":" + strconv.Itoa(p.pid) + ":" }

// index is the first line at or after from that contains all of subs, or -1.
func index(lines []string, from int, subs ...string) int {
	for i := from; i < len(lines); i++ {
		ok := true
		for _, s := range subs {
			ok = ok && strings.Contains(lines[i], s)
		}
		if ok {
			return i
		}
	}
	return -1
}

func count(lines []string, subs ...string) int {
	n := 0
	for i := index(lines, 0, subs...); i >= 0; i = index(lines, i+1, subs...) {
		n++
	}
	return n
}

// TestFailurePrefixUnchanged: up to the stall a failing job prints exactly
// what the same job without the failure prints, through the progress line of
// the step before the failure; and the output is deterministic.
func TestFailurePrefixUnchanged(t *testing.T) {
	healthy := strings.Split(writeString(t, Config{Seed: 3, Ranks: 16, RanksPerHost: 8, Steps: 6}), "\n")
	before := index(healthy, 0, "global_step: 2 ")
	if before < 0 {
		t.Fatal("no progress line for step 2 in the healthy log")
	}
	for _, s := range Failures {
		if s == "init-fail" {
			continue
		}
		c := failCfg(s)
		if s == "ras" {
			c.NCCLVersion = "2.24.3"
			continue // another version: compared below
		}
		out := writeString(t, c)
		if out != writeString(t, c) {
			t.Errorf("%s: output differs between two runs", s)
		}
		lines := strings.Split(out, "\n")
		if len(lines) <= before || !slices.Equal(lines[:before+1], healthy[:before+1]) {
			t.Errorf("%s: the lines before the failure differ from the healthy job's", s)
		}
	}
	c := failCfg("ras")
	c.NCCLVersion = "2.24.3"
	h := c
	h.Failure = ""
	healthy = strings.Split(writeString(t, h), "\n")
	lines := strings.Split(writeString(t, c), "\n")
	before = index(healthy, 0, "global_step: 2 ")
	if !slices.Equal(lines[:before+1], healthy[:before+1]) {
		t.Error("ras: the lines before the failure differ from the healthy job's")
	}
}

// TestExitScenarios: the exiting process's traceback comes first, then (for
// Slurm and Open MPI) the launcher's line naming it, then every other process's
// NCCL follow-ons naming its host, its aborts and PyTorch's remote error; the
// launcher's end names it again. It prints nothing after its traceback.
func TestExitScenarios(t *testing.T) {
	for _, s := range []string{"exit-slurm", "exit-torchrun", "exit-mpirun"} {
		t.Run(s, func(t *testing.T) {
			lines, tr, procs := runFailure(t, failCfg(s))
			if tr.Kind != FaultProcessExit || tr.Rank != 9 || tr.Host != "gpu-node-01" || tr.Launcher != strings.TrimPrefix(s, "exit-") {
				t.Fatalf("truth %+v", tr)
			}
			gone := &procs[9]
			if tr.PID != gone.pid || len(tr.Consequences) != 15 || slices.Contains(tr.Consequences, 9) {
				t.Fatalf("truth %+v", tr)
			}
			exc := index(lines, 0, "KeyError: 'input_ids'")
			first := index(lines, 0, "Connection closed")
			if exc < 0 || first < exc {
				t.Fatalf("traceback at line %d, first follow-on at %d", exc, first)
			}
			if i := index(lines, exc, head(gone)); i >= 0 {
				t.Errorf("the exited process prints after its traceback: %q", lines[i])
			}
			closed := "socketProgress: Connection closed by remote peer " + gone.sockName()
			for r := range procs {
				p := &procs[r]
				if p == gone {
					continue
				}
				want := closed
				if p.host == gone.host {
					want = "[Service thread] Connection closed by localRank 1"
				}
				if i := index(lines, 0, head(p), want); i < exc {
					t.Errorf("rank %d: no %q after the traceback", r, want)
				}
				if n := count(lines, head(p), "Abort COMPLETE"); n != 2 {
					t.Errorf("rank %d: %d Abort COMPLETE lines, want 2", r, n)
				}
				if i := index(lines, 0, "[PG 0 Rank "+strconv.Itoa(r)+"] Process group watchdog thread terminated"); i < first {
					t.Errorf("rank %d: no PyTorch remote error after the first follow-on", r)
				}
			}
			var launcher []string
			switch s {
			case "exit-slurm":
				launcher = []string{"srun: error: gpu-node-01: task 9: Exited with exit code 1",
					"slurmstepd: error: *** STEP 4242.0 ON gpu-node-00 CANCELLED AT ", "srun: error: gpu-node-01: tasks 8,10-15: Aborted (core dumped)"}
			case "exit-torchrun":
				launcher = []string{"failed (exitcode: 1) local_rank: 1 (pid: " + strconv.Itoa(gone.pid) + ")",
					"torch.distributed.elastic.multiprocessing.errors.ChildFailedError",
					"Root Cause (first observed failure):", "  host      : gpu-node-01", "  rank      : 9 (local_rank: 1)",
					"  exitcode  : 1 (pid: " + strconv.Itoa(gone.pid) + ")"}
			case "exit-mpirun":
				launcher = []string{"Primary job  terminated normally, but 1 process returned",
					"mpirun detected that one or more processes exited with non-zero status, thus causing",
					"  Process name: [[4242,1],9]", "  Exit code:    1"}
			}
			at := exc
			for _, l := range launcher {
				i := index(lines, at, l)
				if i < 0 {
					t.Fatalf("no %q after line %d", l, at)
				}
				at = i
			}
			if s != "exit-torchrun" && index(lines, 0, launcher[0]) > first {
				t.Errorf("the launcher's first line comes after the first follow-on")
			}
		})
	}
}

// TestExitTorchrunPrefixes: with torchrun's prefixes, the Python and NCCL
// lines carry the rank's prefix, the agent's lines none.
func TestExitTorchrunPrefixes(t *testing.T) {
	c := failCfg("exit-torchrun")
	c.Prefix = "torchrun"
	lines, _, _ := runFailure(t, c)
	if index(lines, 0, "[rank9]:KeyError: 'input_ids'") < 0 || index(lines, 0, "[rank0]:ncclRemoteError: ") < 0 {
		t.Error("Python or PyTorch lines without the rank's prefix")
	}
	if i := index(lines, 0, "Root Cause"); i < 0 || lines[i] != "Root Cause (first observed failure):" {
		t.Error("the agent's lines carry a prefix")
	}
}

// TestOOM: the OOM rank's traceback ends in torch.OutOfMemoryError, it alone
// aborts, and every other rank's watchdog times out on the work it never
// enqueued, ten minutes later.
func TestOOM(t *testing.T) {
	c := failCfg("oom")
	c.FailureRank = Rank(5)
	lines, tr, procs := runFailure(t, c)
	if tr.Kind != FaultOOM || tr.Rank != 5 || tr.Host != "gpu-node-00" || tr.PID != procs[5].pid || tr.Seq < 2 {
		t.Fatalf("truth %+v", tr)
	}
	oom := index(lines, 0, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 5 ")
	if oom < 0 || !strings.HasPrefix(lines[oom-4], "  File ") {
		t.Fatal("no OOM traceback")
	}
	seq := fmt.Sprintf("WorkNCCL(SeqNum=%d, ", tr.Seq)
	for r := range procs {
		aborts, timeouts := count(lines, head(&procs[r]), "Abort COMPLETE"), count(lines, "[Rank "+strconv.Itoa(r)+"] Watchdog caught", seq)
		switch {
		case r == 5 && (aborts != 2 || timeouts != 0):
			t.Errorf("OOM rank: %d aborts, %d timeouts; want 2 and 0", aborts, timeouts)
		case r != 5 && (aborts != 0 || timeouts != 1):
			t.Errorf("rank %d: %d aborts, %d timeouts; want 0 and 1", r, aborts, timeouts)
		}
	}
	if i := index(lines, 0, "Watchdog caught"); i < oom {
		t.Error("a timeout before the OOM")
	}
}

// TestIBError: the completion error on the failing rank's progress thread is
// the first WARN after the stall, names the peer, and is followed by its
// backtrace; every other process then sees the connection close and aborts.
func TestIBError(t *testing.T) {
	lines, tr, procs := runFailure(t, failCfg("ib-error"))
	bad := &procs[9]
	if tr.Kind != FaultNetworkError || tr.Rank != 9 || tr.NIC != "mlx5_0" || tr.Peer != "10.0.0.10<"+strconv.Itoa(procs[1].port())+">" {
		t.Fatalf("truth %+v", tr)
	}
	w := index(lines, 0, "transport/net_ib.cc:1909 NCCL WARN NET/IB : Got completion from peer "+tr.Peer+" with status=12 opcode=0 len=0 vendor err 129 (Recv)")
	if w < 0 || !strings.HasPrefix(lines[w], head(bad)+strconv.Itoa(bad.progTid())+" ") || lines[w-1] != "" {
		t.Fatalf("no completion error of rank 9's progress thread after a blank line")
	}
	if i := index(lines, 0, "NCCL WARN"); i < w && !strings.Contains(lines[i], "async event") {
		t.Errorf("a WARN before the completion error: %q", lines[i])
	}
	if !strings.HasSuffix(lines[w+3], "proxy.cc:878 -> 6 [Progress Thread]") {
		t.Errorf("backtrace ends with %q", lines[w+3])
	}
	for r := range procs {
		if n := count(lines[w:], head(&procs[r]), "Abort COMPLETE"); n != 2 {
			t.Errorf("rank %d: %d Abort COMPLETE lines after the error, want 2", r, n)
		}
	}
	if n := count(lines[w:], "NCCL WARN socketProgress: Connection closed by remote peer gpu-node-01<"); n != 8 {
		t.Errorf("%d remote-peer WARNs, want 8 (one per process of gpu-node-00)", n)
	}
}

// TestIBErrorVersions: the completion error in each version's words.
func TestIBErrorVersions(t *testing.T) {
	for v, want := range map[string]string{
		"2.21.5": "] transport/net_ib.cc:1909 NCCL WARN NET/IB : Got completion from peer 10.0.0.10<%d> with status=12 opcode=0 len=0 vendor err 129 (Recv)",
		"2.24.3": "] transport/net_ib.cc:2244 NCCL WARN NET/IB: Got completion from peer 10.0.0.10<%d> with status=12 opcode=0 len=0 vendor err 129 (Recv) hca mlx5_0",
		"2.28.9": "] transport/net_ib.cc:2543 NCCL WARN NET/IB: Got completion from peer 10.0.0.10<%d> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) reqSize=0 vendor_err=129 req_type=Recv hca mlx5_0",
		"2.29.7": "] transport/net_ib/p2p.cc:651 NCCL WARN NET/IB: Got completion from peer 10.0.0.10<%d> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) vendor_err=129  hca mlx5_0",
	} {
		c := failCfg("ib-error")
		c.NCCLVersion = v
		lines, _, procs := runFailure(t, c)
		w := fmt.Sprintf(want, procs[1].port())
		i := index(lines, 0, w)
		if i < 0 || !strings.HasSuffix(lines[i], w) {
			t.Errorf("%s: no line ending %q", v, w)
		}
	}
}

// TestInitFailure: every rank starts the world init, fails with the same
// WARN and backtrace, and none completes it or calls a collective.
func TestInitFailure(t *testing.T) {
	for _, v := range []string{"2.21.5", "2.26.2"} {
		c := failCfg("init-fail")
		c.NCCLVersion = v
		lines, tr, procs := runFailure(t, c)
		if tr.Kind != FaultInitFailure || !tr.Shared || tr.Rank != -1 || tr.Consequences != nil {
			t.Fatalf("truth %+v", tr)
		}
		for r := range procs {
			h := head(&procs[r])
			start := index(lines, 0, h, "Init START")
			warn := index(lines, 0, h, "misc/ibvwrap.cc:206 NCCL WARN Call to ibv_modify_qp failed with error Connection timed out errno 110")
			end := index(lines, 0, h, "init.cc:1548 -> 2")
			if start < 0 || warn < start || end < warn {
				t.Errorf("%s rank %d: Init START at %d, WARN at %d, init.cc:1548 at %d", v, r, start, warn, end)
			}
		}
		if count(lines, "Init COMPLETE") != 0 || count(lines, "opCount") != 0 {
			t.Errorf("%s: Init COMPLETE or collective lines in a failed init", v)
		}
		if n := count(lines, "ncclSystemError: System call"); n != 16 {
			t.Errorf("%s: %d PyTorch errors, want 16", v, n)
		}
	}
}

// TestSharedTimeout: every rank times out on the same work; with
// GlueWatchdog, half of the timeout lines start in the middle of another
// process's NCCL line, whose rest follows on the next line.
func TestSharedTimeout(t *testing.T) {
	for _, glue := range []bool{false, true} {
		c := failCfg("shared-timeout")
		c.Prefix = "torchrun"
		c.GlueWatchdog = glue
		lines, tr, procs := runFailure(t, c)
		if tr.Kind != FaultWatchdogTimeout || !tr.Shared || tr.Rank != -1 {
			t.Fatalf("truth %+v", tr)
		}
		seq := fmt.Sprintf("WorkNCCL(SeqNum=%d, ", tr.Seq)
		glued := 0
		for r := range procs {
			i := index(lines, 0, "[rank"+strconv.Itoa(r)+"]:[E", "] [Rank "+strconv.Itoa(r)+"] Watchdog caught", seq)
			if i < 0 {
				t.Fatalf("glue %v: rank %d has no timeout line", glue, r)
			}
			if !strings.HasPrefix(lines[i], "[rank"+strconv.Itoa(r)+"]:[E") {
				glued++
				if !strings.Contains(lines[i], " NCCL INFO comm 0x") || strings.Contains(lines[i+1], "NCCL INFO") {
					t.Errorf("glued line %q is not in the middle of an NCCL line, or its rest %q is", lines[i], lines[i+1])
				}
			}
		}
		if want := map[bool]int{false: 0, true: 8}[glue]; glued != want {
			t.Errorf("glue %v: %d glued timeout lines, want %d", glue, glued, want)
		}
		if n := count(lines, "Abort COMPLETE"); n != 32 {
			t.Errorf("glue %v: %d Abort COMPLETE lines, want 32", glue, n)
		}
		rests := 0
		for _, l := range lines {
			if strings.HasSuffix(l, " - Abort COMPLETE") && !strings.Contains(l, " NCCL INFO ") {
				rests++
			}
		}
		if rests != glued {
			// A glued NCCL line's "Abort COMPLETE" is on the line after it.
			t.Errorf("glue %v: %d Abort COMPLETE lines without their head, want %d", glue, rests, glued)
		}
	}
}

// TestRAS: the report at the end names the two outlier ranks, their
// processes and nodes, and the operation counts.
func TestRAS(t *testing.T) {
	c := failCfg("ras")
	c.NCCLVersion = "2.24.3"
	lines, tr, procs := runFailure(t, c)
	if tr.Kind != FaultRASReport || !slices.Equal(tr.Ranks, []int{2, 9}) {
		t.Fatalf("truth %+v", tr)
	}
	want := []string{"NCCL version 2.24.3 compiled with CUDA 12.4", "Job summary", "Communicators... (0.01s)",
		"    0         1         2         8        16        16   RUNNING  MISMATCH",
		"Warnings", "  Communicator ranks have different collective operation counts",
		fmt.Sprintf("  14 ranks have launched up to operation %d", tr.Seq),
		fmt.Sprintf("  2 ranks have launched up to operation %d", tr.Seq-1),
		fmt.Sprintf("  Rank 2 -- GPU 2 managed by process %d on node 10.0.0.10", procs[2].pid),
		fmt.Sprintf("  Rank 9 -- GPU 1 managed by process %d on node 10.0.0.11", procs[9].pid)}
	at := index(lines, 0, "opCount")
	for _, w := range want {
		i := index(lines, at, w)
		if i < 0 || strings.TrimSpace(lines[i]) != strings.TrimSpace(w) {
			t.Fatalf("no line %q after line %d", w, at)
		}
		at = i
	}
	if index(lines, at, "opCount") >= 0 {
		t.Error("collective lines after the report")
	}
}

// TestFailureWriteFiles: per-process files hold each process's own failure
// lines and no launcher lines.
func TestFailureWriteFiles(t *testing.T) {
	c := failCfg("exit-slurm")
	dir := t.TempDir()
	paths, err := WriteFiles(dir, c)
	if err != nil {
		t.Fatal(err)
	}
	_, _, procs := runFailure(t, c)
	b, err := os.ReadFile(filepath.Join(dir, FileName("gpu-node-01", procs[9].pid)))
	if err != nil || !strings.Contains(string(b), "KeyError: 'input_ids'") {
		t.Errorf("rank 9's file lacks its traceback (%v)", err)
	}
	for _, p := range paths {
		b, _ := os.ReadFile(p)
		if strings.Contains(string(b), "srun: ") {
			t.Errorf("%s has launcher lines", p)
		}
	}
	c = failCfg("shared-timeout")
	c.GlueWatchdog = true
	if _, err := WriteFiles(t.TempDir(), c); err != nil {
		t.Errorf("WriteFiles with GlueWatchdog: %v", err)
	}
}

// TestFailureSize: with Size instead of Steps the failure still comes, and
// Config.Truth agrees with Write.
func TestFailureSize(t *testing.T) {
	c := Config{Seed: 5, Ranks: 16, Size: 200 << 10, Failure: "oom"}
	var b bytes.Buffer
	s, err := Write(&b, c)
	if err != nil || s.Truth == nil || !strings.Contains(b.String(), "torch.OutOfMemoryError") {
		t.Fatalf("Write: %v, truth %v", err, s.Truth)
	}
	tr, err := c.Truth()
	if err != nil || tr.Seq != s.Truth.Seq || tr.PID != s.Truth.PID {
		t.Errorf("Config.Truth %+v (%v), Write's %+v", tr, err, *s.Truth)
	}
	if tr, _ := (Config{Seed: 5, Ranks: 16, Steps: 2}).Truth(); tr.Kind != FaultNone {
		t.Errorf("healthy config has truth %+v", tr)
	}
}

func TestInvalidFailure(t *testing.T) {
	for _, c := range []Config{
		{Ranks: 16, Steps: 4, Failure: "bogus"},
		{Ranks: 16, Steps: 4, FailureRank: Rank(3)},
		{Ranks: 16, Steps: 4, GlueWatchdog: true},
		{Ranks: 16, Steps: 4, Failure: "oom", FailureRank: Rank(16)},
		{Ranks: 16, Steps: 4, Failure: "oom", GlueWatchdog: true},
		{Ranks: 16, Steps: 4, Failure: "oom", StopRank: Rank(1)},
		{Ranks: 16, Steps: 4, Failure: "oom", Teardown: true},
		{Ranks: 16, Steps: 4, Failure: "oom", GPUsPerProcess: 2},
		{Ranks: 1, Steps: 4, Failure: "oom"},
		{Ranks: 8, Steps: 4, Failure: "ib-error"},
		{Ranks: 16, Steps: 4, Failure: "ras"},
		{Ranks: 4, Steps: 4, Failure: "ras", NCCLVersion: "2.24.3"},
	} {
		if c.Validate() == nil {
			t.Errorf("Validate(%+v) accepted", c)
		}
	}
}
