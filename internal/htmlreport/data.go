// Package htmlreport writes nccllog's report as one self-contained HTML file: the verdicts of
// hang and check, the job's set-up and WARNs, a summary, and charts and tables of ops, sizes,
// steps and ranks. It takes a Data value of counts and the analysis families' Reports, and only
// lays them out: every sentence of a verdict is the Report's, as the CLI prints it. RenderVs
// writes diff's two-run page from two such Data and diff's result (vs.go).
package htmlreport

import (
	"fmt"

	"github.com/nccllog/nccllog/stages/diagnose"
	"github.com/nccllog/nccllog/stages/info"
	"github.com/nccllog/nccllog/stages/ranks"
)

// Data is everything the report shows. Empty slices leave their section out.
type Data struct {
	Title   string
	Inputs  []Input
	Lines   []ClassCount // lines by class, in the order to show them
	Version string       // NCCL/RCCL version line, "" when unknown
	Ranks   int          // processes (one per GPU) seen on any communicator
	Comms   int
	Steps   []Step
	Ops     []OpStat
	Hist    Hist
	Dropped []Dropped
	Rank    []RankVolume
	// Hang and Check are what hang and check report, shown first in their words; nil leaves
	// them out. VerdictNotes are the lines the verdicts end with, as those commands print
	// them: check's where no communicator disagrees, or why there is nothing to judge.
	Hang         *ranks.HangReport
	Check        *ranks.CheckReport
	VerdictNotes []string
	// Setup is info's report: versions, hosts, transports, outliers and WARNs; nil leaves the
	// section out.
	Setup *info.InfoReport
	// Diagnosis is diagnose's report: the first fault and what follows from it open the page;
	// nil leaves it out.
	Diagnosis *diagnose.Report
	// Lags is the stragglers report and its lag map: when each rank's calls arrive against
	// its host's other ranks, step by step; nil leaves the section out.
	Lags *Lags
}

// Input is one input file and its line count.
type Input struct {
	Name  string
	Lines int64
}

// ClassCount is how many lines fell into one class ("collective", "unread", ...).
type ClassCount struct {
	Class string
	Lines int64
}

// Step is one training step: its time and throughput from the progress lines (Has* false
// where no progress line gave them) and what one rank moved in it, summed over communicators.
type Step struct {
	Step     int64
	HasTime  bool
	TimeS    float64
	HasFLOPs bool
	TFLOPs   float64 // per GPU
	Calls    int64
	Bytes    int64
	BusBytes float64
}

// OpStat is the message sizes of one op's counted calls.
type OpStat struct {
	Op              string
	Calls           int64
	Min, Max, Total int64
	Avg             float64
}

// Hist is the calls of each op per message-size bucket; Counts[i][j] is op Ops[i] in bucket j.
type Hist struct {
	Buckets []string
	Ops     []string
	Counts  [][]int64
}

func (h Hist) check() error {
	if len(h.Counts) != len(h.Ops) {
		return fmt.Errorf("htmlreport: histogram has %d ops and %d rows of counts", len(h.Ops), len(h.Counts))
	}
	for i, c := range h.Counts {
		if len(c) != len(h.Buckets) {
			return fmt.Errorf("htmlreport: histogram row %s has %d counts for %d buckets", h.Ops[i], len(c), len(h.Buckets))
		}
	}
	return nil
}

// Dropped is calls left out of the numbers (count 0, unknown datatype).
type Dropped struct {
	Op     string
	Reason string
	Calls  int64
}

// RankVolume is what one process (one GPU) moved over all its communicators; Rank is its rank
// in Comm, the largest of them, which has NRanks ranks.
type RankVolume struct {
	Comm     string
	NRanks   int64
	Rank     int64 // -1: unknown
	Host     string
	Pid      int64
	Calls    int64
	Bytes    int64
	BusBytes float64
	End      string // how its communicators ended: "", "Destroy" or "Abort"
}
