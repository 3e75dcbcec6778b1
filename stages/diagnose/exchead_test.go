package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// excHeadLines are a process's NCCL lines (its rank 5 and a chain that ends in ncclRemoteError),
// then PyTorch >= 2.4's watchdog exception: a `[rank5]:` header and its message unprefixed.
var excHeadLines = []string{
	"node-b:4288:4521 [1] NCCL INFO proxy.cc:878 -> 6 [Progress Thread]",
	"node-b:4288:4421 [1] NCCL INFO comm 0x5649149de2c0 rank 5 nranks 8 cudaDev 1 busId a7000 - Abort COMPLETE",
	"[rank5]:[E207 19:37:09.983555114 ProcessGroupNCCL.cpp:695] [Rank 5] To avoid data inconsistency, we are taking the entire process down.",
	"[rank5]:[E207 19:37:09.983600771 ProcessGroupNCCL.cpp:1895] [PG ID 0 PG GUID 0(default_pg) Rank 5] Process group watchdog thread terminated with exception: NCCL error: remote process exited or there was a network error, NCCL version 2.21.5",
	"ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
	"Last error:",
	"socketProgressOpt: Call to recv from 10.0.0.53<49901> failed : Broken pipe",
	"Exception raised from checkForNCCLErrorsInternal at /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:2363 (most recent call first):",
}

// TestExceptionUnderHeader: the unprefixed lines of an exception under its `[rankN]:` header
// are that rank's, though the log holds NCCL lines of its own, read whole or in chunks that
// cut anywhere among them: the finding names rank 5 and the process the log maps it to.
func TestExceptionUnderHeader(t *testing.T) {
	data := []byte(strings.Join(excHeadLines, "\n") + "\n")
	for _, chunk := range []int{0, 64, 150, 300, 450, 600} {
		r := diagnoseBytes(t, "exc.log", data, chunk)
		if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
			t.Errorf("chunk %d: status %s (%s), want fault", chunk, r.Status, r.Reason)
			continue
		}
		f := r.Findings[0]
		if !slices.Equal(f.Ranks, []int64{5}) || !strings.Contains(f.Summary, "rank 5 (node-b:4288)") {
			t.Errorf("chunk %d: first finding %s ranks %v: %q, want rank 5 (node-b:4288)", chunk, f.Kind, f.Ranks, f.Summary)
		}
	}
}

// TestExceptionUnderOtherLine: unprefixed exception lines under a prefixed line that is not
// an exception's header, or a line away from it, stay without a rank.
func TestExceptionUnderOtherLine(t *testing.T) {
	for name, lines := range map[string][]string{
		"not a header": append([]string{excHeadLines[0], excHeadLines[1], excHeadLines[2]}, excHeadLines[4:]...),
		"a line between": append(slices.Clone(excHeadLines[:4]),
			append([]string{"step 3 loss 1.25"}, excHeadLines[4:]...)...),
	} {
		r := diagnoseBytes(t, "exc.log", []byte(strings.Join(lines, "\n")+"\n"), 0)
		if len(r.Findings) == 0 || len(r.Findings[0].Ranks) != 0 {
			t.Errorf("%s: first finding %+v, want one that names no rank", name, r.Findings)
		}
	}
}
