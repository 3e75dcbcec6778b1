package parser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gateLines are lines each gate must let through, cut and glued where the gates' literals
// sit: progress lines of the three frameworks (one coloured with escape sequences), NCCL 2.2
// envelopes, and the same with their words split by an escape sequence or a blank.
var gateLines = []string{
	"Training epoch 0, iteration 45/99 | lr: 0.0001 | train_step_timing in s: 2.44",
	" iteration       10/    1000 | consumed samples:          640 | elapsed time per iteration (ms): 1234.5 |",
	"step: 4  loss:  7.62585  memory: 33.1GiB(41.85%)  tps: 3,106  tflops: 314.71  mfu: 13.99%",
	"\x1b[31mstep:\x1b[0m 4  \x1b[32mloss:\x1b[0m  7.62585",
	"[rank0]:\x1b[1m iteration\x1b[0m 3/10 |",
	"st\x1b[0mep: 4  loss: 1.0", "Trai ning epoch 0, iteration 1/2 |",
	"node1:1234:1240 [0] INFO NET/IB : Using mlx5_0:1/IB ; OOB ib0:10.0.0.1<0>",
	"node1:1234:1240 [0] include/socket.h:360 WARN Call to connect failed : Connection timed out",
	"3: node1:1234:1240 [-1] INFO Bootstrap : Using ib0:10.0.0.1<0>",
	"node1:1234:1240  [0] INFO two spaces", "node1:1234:1240\t[0] INFO a tab",
}

// gateCorpus is every line the gates are held to: the table cases, the NCCL 2.2 lines, the
// line files under testdata, gateLines and every head of each gateLine.
func gateCorpus(t *testing.T) []string {
	lines := append(tableSeedLines(), oldLines...)
	files, _ := filepath.Glob("testdata/lines/*.log")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(string(b), "\n")...)
	}
	for _, l := range gateLines {
		for i := 1; i <= len(l); i++ {
			lines = append(lines, l[:i])
		}
	}
	return lines
}

// TestGrammarGatesExact: where a gate turns a line away, the grammar it guards fails on the
// line (so the gate changes no reading), and each gate lets through every line its grammar
// reads in the corpus; the corpus holds lines of every grammar the gates guard.
func TestGrammarGatesExact(t *testing.T) {
	g, _ := NewGrammar()
	read := map[string]int{}
	for _, text := range gateCorpus(t) {
		if _, err := g.nccl().ParseString("", text); err == nil {
			read["nccl"]++
			if !mayHoldEnvelope([]byte(text)) {
				t.Errorf("mayHoldEnvelope turns away %q, which the envelope grammar reads", text)
			}
		}
		if _, err := g.progress().ParseString("", blankSGR(text)); err == nil {
			read["progress"]++
			if !mayBeProgress(text) {
				t.Errorf("mayBeProgress turns away %q, which the progress grammar reads", text)
			}
		}
		if _, err := g.old().ParseString("", text); err == nil {
			read["old"]++
			if !mayHoldOldEnvelope(text) {
				t.Errorf("mayHoldOldEnvelope turns away %q, which the NCCL 2.2 grammar reads", text)
			}
		}
	}
	for _, name := range []string{"nccl", "progress", "old"} {
		if read[name] < 3 {
			t.Errorf("the corpus holds %d lines the %s grammar reads: the test holds its gate to too few", read[name], name)
		}
	}
}
