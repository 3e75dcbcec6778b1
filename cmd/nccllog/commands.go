package main

import (
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/agg"
	"github.com/nccllog/nccllog/stages/all"
	"github.com/nccllog/nccllog/stages/ranks"
)

// command is one subcommand: which stages it runs, and how it prints their result.
type command struct {
	name    string
	summary string
	// stages are the analyses the command needs, by registry name (lines is always run).
	stages  []string
	formats []string
	// streams: what the command prints is written as the run reads (split's lines, calls).
	streams func(w *output, o *options) streamer
	// print writes the result of a run that has finished.
	print func(w *output, v *view) error
	// found reports whether the result is a finding that sets exit status 3.
	found func(v *view) bool
	// partial: the command writes a partial result, which its stages must be able to hold.
	partial bool
	// configured are stages with the command's options, in place of the registry's stages
	// of the same names.
	configured []stages.Stage
	// sides: the command reads two sets of inputs, each on its own (diff).
	sides bool
	// followUp names, given the view of a first read of the inputs, stages that a second
	// read must add, or none where the first says all (see pass.again). Only for commands
	// that print after the run (print, not streams): a second read writes nothing as it
	// reads. The first read stays cheap where the second is seldom needed.
	followUp func(v *view) []string
}

// registry is where the command's plan looks its stages up.
func (c *command) registry() *stages.Registry {
	r := all.Registry()
	for _, s := range c.configured {
		r.Register(s)
	}
	return r
}

// perOp is the agg stage of commands that print per-op rows only: it keeps per-op sums, not a
// count per distinct (op, count, datatype).
var perOp = []stages.Stage{agg.AggStage{PerOp: true}}

// verdictRanks is the ranks stage of commands that print verdicts (hang, check):
// they read each rank's call sequence, not its bytes or bus volume, which it leaves unsummed.
var verdictRanks = []stages.Stage{ranks.RanksStage{NoVolume: true}}

// diagnoseRanks is diagnose's ranks stage: verdictRanks' that asks first whether any rank
// called, and holds a log of communicator set-up without a call unfolded (see
// RanksStage.AsksCalledFirst).
var diagnoseRanks = []stages.Stage{ranks.RanksStage{NoVolume: true, AsksCalledFirst: true}}

var commands = []*command{
	{name: "report", summary: "all analyses in one pass, with how every line was read",
		stages: []string{"agg", "steps"}, formats: []string{"table", "json"}, print: printReportOrHTML},
	{name: "stats", summary: "per-op calls and min/avg/max/total message bytes",
		stages: []string{"agg"}, formats: []string{"table", "json", "csv", "awk"}, print: printStats, configured: perOp},
	{name: "hist", summary: "per-op message-size histogram",
		stages: []string{"agg"}, formats: []string{"table", "json", "csv", "awk"}, print: printHist, configured: perOp},
	{name: "agg", summary: "calls per distinct (op, count, datatype)",
		stages: []string{"agg"}, formats: []string{"table", "json", "csv", "awk"}, print: printAgg},
	{name: "steps", summary: "step time and TFLOP/s per GPU from the progress lines",
		stages: []string{"steps"}, formats: []string{"table", "json", "csv", "awk"}, print: printSteps, followUp: inferFollowUp},
	{name: "calls", summary: "every collective call, in log order",
		stages: []string{"calls", "stepspan"}, formats: []string{"table", "json", "csv", "ndjson", "parquet", "trace"}, streams: callsOut},
	{name: "split", summary: "the lines of the selected steps, byte for byte",
		stages: []string{"split", "stepspan"}, streams: splitOut},
	{name: "ranks", summary: "per rank of each communicator: calls, bytes and bus volume by op, steps",
		stages: []string{"ranks", "steps"}, formats: []string{"table", "json", "csv"}, print: printRanks},
	{name: "comms", summary: "per communicator: its ranks, how they were grouped, calls and volume",
		stages: []string{"ranks"}, formats: []string{"table", "json", "csv"}, print: printComms},
	{name: "hang", summary: "where each rank stopped, and which rank most likely hung the job",
		stages: []string{"ranks"}, formats: []string{"table", "json", "csv"}, print: printHang, found: hangFound, configured: verdictRanks},
	{name: "check", summary: "the first call where the ranks of a communicator disagree",
		stages: []string{"ranks"}, formats: []string{"table", "json", "csv"}, print: printCheck, found: checkFound, configured: verdictRanks},
	{name: "diagnose", summary: "what went wrong first, where, and which errors only follow from it",
		stages: []string{"ranks", "diagnose"}, formats: []string{"table", "json"}, print: printDiagnose, found: diagnoseFound, configured: diagnoseRanks},
	{name: "stragglers", summary: "which rank's calls arrive late against its host's other ranks, from the lines' times",
		stages: []string{"stragglers"}, formats: []string{"table", "json"}, print: printStragglers},
	{name: "info", summary: "set-up: versions, network, transports, env, tuning, WARNs, and the ranks that differ",
		stages: []string{"info"}, formats: []string{"table", "json"}, print: printInfo},
	{name: "diff", summary: "two runs side by side: only what changed, most consequential first",
		stages: diffStages, formats: []string{"table", "json"}, sides: true},
	{name: "summarize", summary: "write a partial result, to be read as an input where the logs are not",
		stages: summarized, print: writeSummary, partial: true},
}

// summarized are the stages a partial result holds: every analysis but those that need the
// lines themselves (split, calls).
var summarized = []string{"agg", "steps", "ranks", "info", "diagnose", "callsteps"}

func findCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}
