package diagnose_test

import (
	"encoding/json"
	"testing"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
	"github.com/nccllog/nccllog/stages/diagnose"
)

// buildLines are fuzzLines and the launchers' lines: what Build orders and folds.
var buildLines = append(append([]string{}, fuzzLines...),
	"srun: error: h1: task 1: Exited with exit code 3",
	"srun: error: h0: tasks 0-1: Exited with exit code 1",
	"slurmstepd: error: *** STEP 42.0 ON h0 CANCELLED AT 2025-01-01T10:00:00 ***",
	"--------------------------------------------------------------------------",
	"mpirun detected that one or more processes exited with non-zero status, thus causing",
	"the job to be terminated. The first process to do so was:",
	"  Process name: [[12167,1],1]",
	"  Exit code:    3",
	"Root Cause (first observed failure):",
	"[0]:",
	"  time      : 2025-01-01_10:00:00",
	"  host      : h1",
	"  rank      : 1 (local_rank: 1)",
	"  exitcode  : 1 (pid: 2)",
	"h1:2:2 [1] misc/socket.cc:397 NCCL WARN Net : connecting to address  with family 33621 is neither AF_INET(2) nor AF_INET6(10)",
	"h0:1:1 [0] misc/socket.cc:397 NCCL WARN Net : connecting to address  with family 33621 is neither AF_INET(2) nor AF_INET6(10)",
	"h1:2:2 [1] NCCL INFO bootstrap.cc:256 -> 3",
	"h0:1:1 [0] NCCL INFO init.cc:516 -> 3",
	"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.",
	"[h0:1] *** Process received signal ***",
	// NET/IB's port events (portdown.go) and libfabric's failed completions (fabric.go).
	"h1:2:2 [1] transport/net_ib.cc:101 NCCL WARN NET/IB : mlx5_0:1 Got async event : port error",
	"h1:2:2 [1] transport/net_ib.cc:101 NCCL WARN NET/IB : mlx5_0:1 Got async event : port active",
	"h0:1:1 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error",
	"libfabric:1:1708520807::efa:cq:efa_rdm_txe_handle_error():737<warn> err: 5, message: Invalid address",
	"libfabric:2:1708520807::efa:cq:efa_rdm_rxe_handle_error():700<warn> err: 12, message: Receiver not ready",
)

// FuzzBuild: whatever evidence a log holds, in any order, diagnose's Report is well formed: a
// status it documents; a fault whose first finding follows nothing; every finding that
// follows another follows an earlier one, which itself follows nothing; each with a summary
// and evidence; no finding where the job is healthy; and JSON that encodes.
func FuzzBuild(f *testing.F) {
	// Indexes of buildLines: fuzzLines' 32, then the launchers' from 32.
	f.Add([]byte{0, 2, 46, 48, 47, 49, 35, 36, 37, 38, 39}, uint8(0)) // one failure on both, Open MPI's rank alone
	f.Add([]byte{40, 41, 42, 43, 44, 45, 6, 7}, uint8(0))             // torchrun's root cause, an IB error
	f.Add([]byte{32, 6, 7, 5, 33, 34, 50, 51}, uint8(0))              // srun's exits, a peer closing, OOM, a signal
	f.Add([]byte{0, 2, 52, 9, 54, 53, 55, 56, 4}, uint8(0))           // port events, libfabric's completions
	p, err := parser.NewParser()
	if err != nil {
		f.Fatal(err)
	}
	parsed := make([]parser.Line, len(buildLines))
	for i, s := range buildLines {
		p.Parse([]byte(s), &parsed[i])
	}
	plan := stages.MustPlan(stages.Config{}, all.Registry(), "ranks", "diagnose")
	f.Fuzz(func(t *testing.T, picks []byte, offset uint8) {
		if len(picks) > 256 {
			picks = picks[:256]
		}
		set := stages.NewSet(plan)
		for i, b := range picks {
			k := (int(b) + int(offset)) % len(buildLines)
			l := parsed[k]
			set.Add(&stages.Line{N: int64(i + 1), Text: []byte(buildLines[k]), P: &l})
		}
		set.Anchor(stages.Origin{File: "f"})
		r := diagnose.Build(set)
		checkWellFormed(t, r)
	})
}

// checkWellFormed fails t where r breaks what FuzzBuild holds every Report to.
func checkWellFormed(t *testing.T, r diagnose.Report) {
	t.Helper()
	switch r.Status {
	case diagnose.StatusHealthy, diagnose.StatusUnknown:
		if r.Status == diagnose.StatusHealthy && len(r.Findings) > 0 {
			t.Fatalf("healthy with %d findings: %s", len(r.Findings), mustJSON(r))
		}
	case diagnose.StatusFault:
		if len(r.Findings) == 0 || r.Findings[0].Follows != nil {
			t.Fatalf("a fault whose first finding is missing or follows another: %s", mustJSON(r))
		}
	default:
		t.Fatalf("status %q", r.Status)
	}
	for i, f := range r.Findings {
		if f.Summary == "" || len(f.Evidence) == 0 {
			t.Fatalf("finding %d has no summary or no evidence: %s", i, mustJSON(r))
		}
		if f.Follows == nil {
			continue
		}
		if j := *f.Follows; j < 0 || j >= i || r.Findings[j].Follows != nil {
			t.Fatalf("finding %d follows %d, not an earlier finding that follows nothing: %s", i, j, mustJSON(r))
		}
	}
	if _, err := json.Marshal(r); err != nil {
		t.Fatal(err)
	}
}
