package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages/ranks"
)

// coverageOnly is the part of hang's JSON that says what the input covers.
type coverageOnly struct {
	Comms []struct {
		NRanks   int64                 `json:"nranks"`
		Suspects []ranks.SuspectReport `json:"suspects"`
		Coverage struct {
			RanksPresent int64 `json:"ranks_present"`
			SomeNodes    bool  `json:"some_nodes_only"`
			Nodes        int64 `json:"nodes"`
		} `json:"coverage"`
	} `json:"comms"`
}

// TestHealthyEndings: a healthy run that ends with Destroy on every rank, with Abort on
// every rank (PyTorch's destroy_process_group), or driven by one process per four GPUs gives
// neither hang nor check a finding, interleaved or one file per process.
func TestHealthyEndings(t *testing.T) {
	for name, cfg := range map[string]gen.Config{
		"teardown":         {Teardown: true},
		"clean-abort":      {CleanAbort: true},
		"gpus-per-process": {GPUsPerProcess: 4, Noise: true},
		"both":             {GPUsPerProcess: 2, CleanAbort: true},
	} {
		t.Run(name, func(t *testing.T) {
			inputs(t, cfg, func(t *testing.T, in string) {
				var h coverageOnly
				runJSON(t, &h, exitOK, "hang", "--format", "json", in)
				for _, c := range h.Comms {
					if len(c.Suspects) > 0 {
						t.Errorf("suspects on a healthy run: %+v", c.Suspects)
					}
				}
				var c checkJSON
				runJSON(t, &c, exitOK, "check", "--format", "json", in)
			})
		})
	}
}

// TestHangFaultsTopSuspect: with each injected fault, also where one process drives several
// GPUs or the run ends in Abort everywhere, hang's top suspect is the faulty rank.
func TestHangFaultsTopSuspect(t *testing.T) {
	for name, cfg := range map[string]gen.Config{
		"stop":                 {StopRank: gen.Rank(5), StopAfter: 40},
		"stop-clean-abort":     {StopRank: gen.Rank(5), StopAfter: 40, CleanAbort: true},
		"stop-4-gpus-per-proc": {StopRank: gen.Rank(5), StopAfter: 40, GPUsPerProcess: 4},
		"abort":                {AbortRank: gen.Rank(5), StopRank: gen.Rank(5), StopAfter: 40},
		"missing":              {MissingRank: gen.Rank(5)},
		"watchdog":             {WatchdogRank: gen.Rank(5), WatchdogSeq: 30},
		"watchdog-first-work":  {WatchdogRank: gen.Rank(5), WatchdogSeq: 1, CleanAbort: true},
	} {
		t.Run(name, func(t *testing.T) {
			inputs(t, cfg, func(t *testing.T, in string) {
				var h coverageOnly
				runJSON(t, &h, exitFound, "hang", "--format", "json", in)
				for _, c := range h.Comms {
					if c.NRanks != 8 {
						continue
					}
					if len(c.Suspects) == 0 || c.Suspects[0].Rank == nil || *c.Suspects[0].Rank != 5 {
						t.Errorf("world suspects %+v, want rank 5 first", c.Suspects)
					}
				}
			})
		})
	}
}

// TestHangNodeLog: one node's log of a two-node job covers half of the world communicator;
// the other node's ranks are not suspects, and both nodes' logs together are the whole job.
func TestHangNodeLog(t *testing.T) {
	dir := t.TempDir()
	paths, err := gen.WriteNodes(dir, gen.Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 12, Noise: true})
	if err != nil || len(paths) != 2 {
		t.Fatalf("WriteNodes: %v %v", paths, err)
	}
	var h coverageOnly
	runJSON(t, &h, exitOK, "hang", "--format", "json", paths[0])
	for _, c := range h.Comms {
		if !c.Coverage.SomeNodes || c.Coverage.Nodes != 2 || len(c.Suspects) > 0 {
			t.Errorf("comm of %d ranks: coverage %+v, suspects %+v; want 1 of 2 nodes, no suspect", c.NRanks, c.Coverage, c.Suspects)
		}
	}
	var whole coverageOnly
	runJSON(t, &whole, exitOK, "hang", "--format", "json", filepath.Dir(paths[0]))
	for _, c := range whole.Comms {
		if c.Coverage.SomeNodes || c.Coverage.RanksPresent != c.NRanks {
			t.Errorf("both nodes: coverage %+v", c.Coverage)
		}
	}
}

// TestHangSentences: the sentences say what is true, in English: one call is "1 call", and a
// communicator with a rank without lines is never said to have none missing.
func TestHangSentences(t *testing.T) {
	const call = "NCCL INFO AllReduce: opCount %d sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1024 datatype 7 op 0 root 0 comm 0x%x [nranks=2] stream 0x55d4c1f3a2b0\n"
	const init = "NCCL INFO ncclCommInitRank comm 0x%x rank %d nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5d7760b8864df153 - Init COMPLETE\n"
	dir := t.TempDir()
	behind := filepath.Join(dir, "behind.log")
	text := fmt.Sprintf("a:1:1 [0] "+init, 0xa0, 0) + fmt.Sprintf("b:2:2 [0] "+init, 0xb0, 1) +
		fmt.Sprintf("a:1:1 [0] "+call, 0, 0xa0) + fmt.Sprintf("b:2:2 [0] "+call, 0, 0xb0) + fmt.Sprintf("a:1:1 [0] "+call, 1, 0xa0)
	alone := filepath.Join(dir, "alone.log")
	if os.WriteFile(behind, []byte(text), 0o644) != nil || os.WriteFile(alone, []byte(fmt.Sprintf("a:1:1 [0] "+call, 0, 0xa0)), 0o644) != nil {
		t.Fatal("cannot write the logs")
	}
	out, _, code := runCLI(t, "", "hang", behind)
	if code != exitFound || !strings.Contains(out, "issued 1 call, 1 fewer than the furthest rank got (2)") || strings.Contains(out, "1 calls") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	out, _, code = runCLI(t, "", "hang", alone)
	if code != exitFound || strings.Contains(out, "none is missing") || !strings.Contains(out, "1 rank without lines") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}
