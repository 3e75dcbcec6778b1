package parser

import (
	"bytes"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func fail(mod func(*Failure)) *Failure {
	f := noFailure
	mod(&f)
	return &f
}

// TestFailureLines reads a line of each family, with prefixes and glued, to exact values.
func TestFailureLines(t *testing.T) {
	cases := []struct {
		line    string
		rank    int64
		spliced bool
		want    *Failure
	}{
		{"srun: error: gpu-node-01: task 9: Exited with exit code 1", -1, false, fail(func(f *Failure) {
			f.Event, f.Host, f.Task, f.TaskLast, f.ExitCode, f.HasExit, f.Text = FailureTaskExit, "gpu-node-01", 9, 9, 1, true, "Exited with exit code 1"
		})},
		{"srun: error: gpu-node-02: tasks 16,18-23: Aborted (core dumped)", -1, false, fail(func(f *Failure) {
			f.Event, f.Host, f.Task, f.TaskLast, f.Signal, f.Text = FailureTaskExit, "gpu-node-02", 16, 23, "Aborted", "Aborted (core dumped)"
		})},
		{"slurmstepd: error: *** JOB 42 ON n-0 CANCELLED AT 2026-03-01T12:00:33 DUE TO TIME LIMIT ***", -1, false, fail(func(f *Failure) {
			f.Event, f.Host, f.Text = FailureStepCancelled, "n-0", "TIME LIMIT"
		})},
		{"loss 2.31 ok[rank2]:srun: error: n1: task 3: Killed", -1, true, fail(func(f *Failure) {
			f.Event, f.Host, f.Task, f.TaskLast, f.Signal, f.Text = FailureTaskExit, "n1", 3, 3, "Killed", "Killed"
		})},
		{"n1: srun: Job step aborted: Waiting", -1, false, fail(func(f *Failure) { f.Event, f.Text = FailureStepAborted, "Waiting" })},
		{"  rank      : 9 (local_rank: 1)", -1, false, fail(func(f *Failure) {
			f.Event, f.Field, f.Task, f.TaskLast, f.LocalRank = FailureRootField, "rank", 9, 9, 1
		})},
		{"  exitcode  : -6 (pid: 9238)", -1, false, fail(func(f *Failure) {
			f.Event, f.Field, f.ExitCode, f.HasExit, f.Pid = FailureRootField, "exitcode", -6, true, 9238
		})},
		{"  Process name: [[4242,1],9]", -1, false, fail(func(f *Failure) { f.Event, f.Task, f.TaskLast = FailureMPIProcess, 9, 9 })},
		{"[rank3]:Traceback (most recent call last):", 3, false, fail(func(f *Failure) { f.Event = FailureTraceback })},
		// SkyPilot's prefix: its rank is the node's, no global rank.
		{"(worker1, rank=1, pid=2634, ip=10.0.0.2) torch.OutOfMemoryError: CUDA out of memory.", -1, false, fail(func(f *Failure) {
			f.Event, f.Exception, f.Text = FailureException, "torch.OutOfMemoryError", "CUDA out of memory."
		})},
		{"(head, rank=0, pid=2817) Traceback (most recent call last):", -1, false, fail(func(f *Failure) { f.Event = FailureTraceback })},
		{"[1,3]<stdout>:torch.OutOfMemoryError: CUDA out of memory.", 3, false, fail(func(f *Failure) {
			f.Event, f.Exception, f.Text = FailureException, "torch.OutOfMemoryError", "CUDA out of memory."
		})},
		{"terminate called after throwing an instance of 'c10::DistBackendError'", -1, false, fail(func(f *Failure) {
			f.Event, f.Exception = FailureTerminate, "c10::DistBackendError"
		})},
		{"ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.", -1, false, fail(func(f *Failure) {
			f.Event, f.Result, f.Text = FailureNCCLResult, ResultRemote, "A call failed possibly due to a network error or a remote process exiting prematurely."
		})},
		{"[rank5]: ncclInvalidUsage: This usually reflects invalid usage of NCCL library.", 5, false, fail(func(f *Failure) {
			f.Event, f.Result, f.Text = FailureNCCLResult, ResultInvalidUsage, "This usually reflects invalid usage of NCCL library."
		})},
		{"[rank5]: Last error:", 5, false, fail(func(f *Failure) { f.Event = FailureLastError })},
		{"Last error: NET/IB : Got completion from peer 10.1.2.3<4242> with error 12", -1, false, fail(func(f *Failure) {
			f.Event, f.LastError = FailureLastError, "NET/IB : Got completion from peer 10.1.2.3<4242> with error 12"
		})},
		{"[rank2]:torch.distributed.DistBackendError: NCCL error in: c10d/ProcessGroupNCCL.cpp:1970, unhandled system error, NCCL version 2.20.5", 2, false, fail(func(f *Failure) {
			f.Event, f.Exception, f.Result = FailureException, "torch.distributed.DistBackendError", ResultSystem
			f.Text = "NCCL error in: c10d/ProcessGroupNCCL.cpp:1970, unhandled system error, NCCL version 2.20.5"
		})},
		{"  what():  [PG 0 Rank 3] NCCL error: remote process exited or there was a network error, NCCL version 2.18.1", -1, false, fail(func(f *Failure) {
			f.Event, f.Result, f.Task, f.TaskLast = FailureTerminate, ResultRemote, 3, 3
			f.Text = "[PG 0 Rank 3] NCCL error: remote process exited or there was a network error, NCCL version 2.18.1"
		})},
		// A terminate that runs on into its what() and NCCL's lines, as a log that lost its
		// newlines, after the watchdog's last words; `[Rank 1] NCCL error` is no envelope.
		{"[E ProcessGroupNCCL.cpp:460] taking the process down. terminate called after throwing an instance of 'c10::DistBackendError' what():  [Rank 1] NCCL error: unhandled cuda error ncclUnhandledCudaError: Call to CUDA function failed. Last error: Cuda failure 'out of memory'", -1, false, fail(func(f *Failure) {
			f.Event, f.Exception, f.Result, f.Task, f.TaskLast = FailureTerminate, "c10::DistBackendError", ResultUnhandledCuda, 1, 1
			f.Text = "[Rank 1] NCCL error: unhandled cuda error ncclUnhandledCudaError: Call to CUDA function failed. Last error: Cuda failure 'out of memory'"
			f.LastError = "Cuda failure 'out of memory'"
		})},
		{"*** SIGABRT received at time=1700000000 on cpu 3 ***", -1, false, fail(func(f *Failure) { f.Event, f.Signal = FailureSignal, "SIGABRT" })},
		{"  Rank 9 has launched up to operation 183 -- GPU 1 (NVML 3) managed by process 9238 on node 10.0.0.11", -1, false, fail(func(f *Failure) {
			f.Event, f.RAS, f.Task, f.TaskLast, f.GPU, f.Pid, f.Host, f.Text = FailureRAS, RASRank, 9, 9, 1, 9238, "10.0.0.11", "has launched up to operation 183"
		})},
		{"    0         1         2         8        16        16   RUNNING  MISMATCH", -1, false, fail(func(f *Failure) {
			f.Event, f.RAS, f.Comm, f.Text = FailureRAS, RASCommStatus, "0", "RUNNING MISMATCH"
		})},
		// A row whose only error is INCOMPLETE (a rank's data missing): the grammar read it, the
		// scanner's gate let it pass by.
		{"    0         1         4         4         8         7   RUNNING  INCOMPLETE", -1, false, fail(func(f *Failure) {
			f.Event, f.RAS, f.Comm, f.Text = FailureRAS, RASCommStatus, "0", "RUNNING INCOMPLETE"
		})},
		{`          "host": "10.0.0.11",`, -1, false, fail(func(f *Failure) {
			f.Event, f.RAS, f.Field, f.Text = FailureRAS, RASField, "host", "10.0.0.11"
		})},
		{`            "AllReduce": 6649`, -1, false, fail(func(f *Failure) {
			f.Event, f.RAS, f.Field, f.Text = FailureRAS, RASField, "AllReduce", "6649"
		})},
		{`          "pid": -1,`, -1, false, fail(func(f *Failure) { f.Event, f.RAS, f.Field, f.Text = FailureRAS, RASField, "pid", "-1" })},
		{`      "missing_ranks": [`, -1, false, fail(func(f *Failure) {
			f.Event, f.RAS, f.Field, f.Text = FailureRAS, RASField, "missing_ranks", "["
		})},
	}
	p, _ := NewParser()
	for _, c := range cases {
		got := p.Grammar().Parse([]byte(c.line))
		want := Line{Kind: KindFailure, Rank: c.rank, Fail: c.want, Spliced: c.spliced}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%q (-want +got):\n%s", c.line, d)
		}
		checkAgreement(t, p, []byte(c.line))
	}
}

// TestFailureLinesBehindTimes: a collector's, syslog's or a logger's time before the failure
// line (and prefixes on either side of it) is passed over, and the line keeps its time and
// the first prefix's rank.
func TestFailureLinesBehindTimes(t *testing.T) {
	cases := []struct {
		line  string
		rank  int64
		event FailureEvent
	}{
		{"2024-05-01T10:00:00.123456789Z RuntimeError: CUDA error: out of memory", -1, FailureException},
		{"2024-05-01T10:00:00Z 3: torch.OutOfMemoryError: CUDA out of memory.", 3, FailureException},
		{"[rank5]: 2024-05-01 10:00:00,123 Traceback (most recent call last):", 5, FailureTraceback},
		{"May  1 10:00:00 srun: error: n1: task 3: Exited with exit code 1", -1, FailureTaskExit},
		{"2024/05/01 10:00:00 Segmentation fault (core dumped)", -1, FailureSignal},
		{"E0501 10:00:00.123456 terminate called after throwing an instance of 'c10::Error'", -1, FailureTerminate},
	}
	p, _ := NewParser()
	for _, c := range cases {
		got := p.Grammar().Parse([]byte(c.line))
		if got.Kind != KindFailure || got.Rank != c.rank || got.Fail.Event != c.event || got.Time.IsZero() {
			t.Errorf("%q: kind %v rank %d event %v time %+v, want failure, rank %d, %v, timed",
				c.line, got.Kind, got.Rank, eventOf(got), got.Time, c.rank, c.event)
		}
		checkAgreement(t, p, []byte(c.line))
	}
}

func eventOf(l Line) FailureEvent {
	if l.Fail == nil {
		return FailureNone
	}
	return l.Fail.Event
}

// TestFailureNearMisses: text in the shape of failure lines that is not one stays other.
func TestFailureNearMisses(t *testing.T) {
	g, _ := NewGrammar()
	for _, line := range []string{
		"host : gpu-node-01", "  rank : 9", "  time: now", "note : this Error: is mid-sentence",
		"error: something went wrong", "The RuntimeError: was caught and ignored", "Errors were found",
		"ncclFooError: A call failed", "ncclSuccess: no error", "Last errors: none", "  rank      : nine", "ValueError:12 x", "Rank 3 is slow",
		"  File \"/x.py\", line 3, in f",
		// RAS JSON keys diagnose does not read, and values not of their key's form.
		`  "timestamp": "2025-12-19 13:06:53",`, `  "rank": "3",`, `  "AllReduce": -1`, `  "AllReduce": 007`,
		`  "allreduce": 3,`, `  "rank": 3, "pid": 4`, `  "abort_flag": yes`, `  "hash": "0x1"x",`,
	} {
		if l := g.Parse([]byte(line)); l.Kind != KindOther {
			t.Errorf("%q reads as %v, want other", line, l.Kind)
		}
	}
}

// FuzzFailureAgree holds the scanner to the grammar on failure lines and their mutations.
func FuzzFailureAgree(f *testing.F) {
	data, err := os.ReadFile("testdata/lines/failures.log")
	if err != nil {
		f.Fatal(err)
	}
	for _, l := range bytes.Split(data, []byte{'\n'}) {
		f.Add(l)
	}
	p, _ := NewParser()
	g, _ := NewGrammar()
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.IndexByte(line, '\n') < 0 {
			checkAgreement(t, p, line)
			checkFailureGate(t, p, g, line)
		}
	})
}

// checkFailureGate fails where a line read as other text is one the failure grammars read
// when mayBeFailure does not stand before them: the gate would have lost it.
func checkFailureGate(t *testing.T, p *Parser, g *Grammar, line []byte) {
	var l Line
	p.Parse(line, &l)
	if l.Kind != KindOther {
		return
	}
	start, _ := scanPrefixes(line)
	// A head glued on after other text is looked for where the word search finds it, by design
	// (its words with one space each); the grammar is held to that here as it is in Parse.
	glued := wordsIn(line[start:])&maskFailGlue != 0
	for _, text := range []string{string(line), string(line[stampedStart(line, start):])} {
		if _, ok := g.parseFailure(text, glued); ok {
			t.Errorf("mayBeFailure turns away a failure line: %q (read as %q)", line, text)
		}
	}
}

// TestScannerReadsRASJSON: the scanner reads a RAS JSON report's field lines itself (a report
// of a thousand ranks is some 25000 of them, too many for the grammar's pace) and leaves the
// lines it does not read to the grammar.
func TestScannerReadsRASJSON(t *testing.T) {
	for _, c := range []struct {
		line string
		read bool
	}{
		{`          "rank": 9,`, true}, {`            "AllReduce": 6649`, true}, {`      "missing_ranks": [`, true},
		{`2024-05-01T10:00:00Z           "host": "10.0.0.11",`, true},
		{`  "timestamp": "2025-12-19 13:06:53",`, false}, {`  "rank": 3, srun: error: n1: task 3: Killed`, false},
	} {
		b := []byte(c.line)
		start, _ := scanPrefixes(b)
		fs, _ := failureStart(b, start)
		var l Line
		if got := scanFailure(b, fs, &l); got != c.read {
			t.Errorf("%q: scanner reads it: %v, want %v", c.line, got, c.read)
		}
	}
}
