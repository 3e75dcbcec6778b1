package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// rayDied is the raylet's line on a worker that died (Ray 2.x wording).
const rayDied = "(raylet) A worker died or was killed while executing a task by an unexpected system error. To troubleshoot the problem, check the logs for the dead worker. " +
	"RayTask ID: ffffffffffffffff4f7a Worker ID: 1d9c Node ID: 77ab Worker IP address: 10.4.0.17 Worker port: 10013 Worker PID: 5521 " +
	"Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file. There are some potential root causes. " +
	"(1) The process is killed by SIGKILL by OOM killer due to high memory usage. (2) ray stop --force is called.\n"

// rayPeerError is another worker's NCCL exception after it, under Ray's prefix.
const rayPeerError = "(RayWorkerWrapper pid=5530, ip=10.4.0.18) [rank3]:[E305 10:11:12.123456789 ProcessGroupNCCL.cpp:542] [Rank 3] Collective WorkNCCL(SeqNum=7, OpType=ALLREDUCE, " +
	"NumelIn=1024, NumelOut=1024, Timeout(ms)=600000) raised the following async exception: NCCL error: remote process exited or there was a network error, NCCL version 2.21.5\n"

// TestRayWorkerDied: the raylet's word on a worker that died is the first fault, on the
// worker's address and pid, with its exit type and detail; another worker's remote error
// follows it. The memory monitor's summary names the node whose workers it killed; a worker
// told to exit, a summary that counts none, and prose that quotes the words are no fault.
func TestRayWorkerDied(t *testing.T) {
	for _, chunk := range []int{0, 300} {
		r := diagnoseBytes(t, "ray.log", []byte(rayDied+rayPeerError), chunk)
		if r.Status != diagnose.StatusFault || len(r.Findings) < 2 {
			t.Fatalf("chunk %d: status %s, want the worker's death and a finding after it:\n%s", chunk, r.Status, js(r))
		}
		f := r.Findings[0]
		if f.Kind != diagnose.KindProcessExit || !slices.Equal(f.Processes, []string{"10.4.0.17:5521"}) ||
			!strings.Contains(f.Summary, "SYSTEM_ERROR") || !strings.Contains(f.Summary, "connection error code 2") {
			t.Errorf("chunk %d: first %s of %v (%q), want the process-exit of 10.4.0.17:5521 with its exit type and detail", chunk, f.Kind, f.Processes, f.Summary)
		}
		if g := r.Findings[1]; g.Follows == nil || g.Kind != diagnose.KindRemoteError || !slices.Equal(g.Ranks, []int64{3}) {
			t.Errorf("chunk %d: second %s of ranks %v, want rank 3's remote error following the first", chunk, g.Kind, g.Ranks)
		}
	}
	oom := "(raylet) [2023-04-09 07:23:59,445 E 395 395] (raylet) node_manager.cc:3049: 2 Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons " +
		"at node (ID: e5d953ef03e55e26f1, IP: 10.0.62.231) over the last time period. To see more information about the Workers killed on this node, use `ray logs raylet.out -ip 10.0.62.231`\n"
	r := diagnoseBytes(t, "ray.log", []byte(oom+rayPeerError), 0)
	if f := r.Findings[0]; r.Status != diagnose.StatusFault || !slices.Equal(f.Hosts, []string{"10.0.62.231"}) || !strings.Contains(f.Summary, "memory monitor") {
		t.Errorf("the memory monitor's kill: want the node 10.0.62.231 first, by Ray's memory monitor:\n%s", js(r))
	}
	quietIn(t, strings.Replace(rayDied, "SYSTEM_ERROR", "INTENDED_USER_EXIT", 1), strings.Replace(oom, ": 2 Workers", ": 0 Workers", 1),
		"# when Ray says \"A worker died or was killed while executing a task\", read raylet.out\n")
}

// TestRayPrefixNamesTheProcess: a line under a Ray worker's prefix that shows no process of
// its own (a fatal signal, a CUDA error) is the worker's: its pid, and address where printed.
func TestRayPrefixNamesTheProcess(t *testing.T) {
	for line, want := range map[string]string{
		"(RayWorkerVllm pid=7046) Fatal Python error: Aborted\n":              "pid 7046",
		"(RayWorkerVllm pid=7046, ip=10.0.0.5) Fatal Python error: Aborted\n": "10.0.0.5:7046",
		"(pid=927) Fatal Python error: Segmentation fault\n":                  "pid 927",
	} {
		r := diagnoseBytes(t, "ray.log", []byte(line), 0)
		if r.Status != diagnose.StatusFault || !slices.Equal(r.Findings[0].Processes, []string{want}) {
			t.Errorf("%.40q: want a fault of %s:\n%s", line, want, js(r))
		}
	}
}

// TestRayWatchdogLine: a watchdog line under a Ray worker's prefix is that worker's, and its
// evidence names the process group whose rank the line prints.
func TestRayWatchdogLine(t *testing.T) {
	line := "(ActorModelRayActor pid=744, ip=10.1.59.27) [rank9]:[E416 13:21:26.967555843 ProcessGroupNCCL.cpp:1484] [PG ID 1 PG GUID 2 Rank 1] " +
		"Exception (either an error or timeout) detected by watchdog at work: 876319, last enqueued NCCL work: 876319, last completed NCCL work: 876318.\n"
	r := diagnoseBytes(t, "ray.log", []byte(line), 0)
	if r.Status != diagnose.StatusFault || !slices.Equal(r.Findings[0].Processes, []string{"10.1.59.27:744"}) || !slices.Equal(r.Findings[0].Ranks, []int64{9}) {
		t.Fatalf("want rank 9's watchdog finding on 10.1.59.27:744:\n%s", js(r))
	}
	if ev := r.Findings[0].Evidence; len(ev) == 0 || !strings.Contains(ev[0].Text, "rank 1 of process group 1") {
		t.Errorf("evidence %v, want it to name rank 1 of process group 1", ev)
	}
}
