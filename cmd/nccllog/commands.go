package main

import "github.com/nccllog/nccllog/stages"

// command is one subcommand: what it computes and how it prints it.
type command struct {
	name    string
	summary string
	needs   stages.Needs
	formats []string
	// print writes the result of a run that has finished.
	print func(w *output, r *runResult) error
}

var commands = []*command{
	{name: "report", summary: "all analyses in one pass, with how every line was read",
		needs: stages.NeedAgg, formats: []string{"table", "json"}, print: printReportOrHTML},
	{name: "stats", summary: "per-op calls and min/avg/max/total message bytes",
		needs: stages.NeedAgg, formats: []string{"table", "json", "csv", "awk"}, print: printStats},
	{name: "hist", summary: "per-op message-size histogram",
		needs: stages.NeedAgg, formats: []string{"table", "json", "csv", "awk"}, print: printHist},
	{name: "agg", summary: "calls per distinct (op, count, datatype)",
		needs: stages.NeedAgg, formats: []string{"table", "json", "csv", "awk"}, print: printAgg},
	{name: "steps", summary: "step time and TFLOP/s per GPU from the progress lines",
		formats: []string{"table", "json", "csv", "awk"}, print: printSteps},
	{name: "calls", summary: "every collective call, in log order",
		needs: stages.NeedCalls, formats: []string{"table", "json", "csv", "ndjson", "parquet"}},
	{name: "split", summary: "the lines of the selected steps, byte for byte",
		needs: stages.NeedLines},
	{name: "ranks", summary: "per rank of each communicator: calls, bytes and bus volume by op, steps",
		needs: stages.NeedRanks, formats: []string{"table", "json", "csv"}, print: printRanks},
	{name: "comms", summary: "per communicator: its ranks, how they were grouped, calls and volume",
		needs: stages.NeedRanks, formats: []string{"table", "json", "csv"}, print: printComms},
	{name: "hang", summary: "where each rank stopped, and which rank most likely hung the job",
		needs: stages.NeedRanks, formats: []string{"table", "json", "csv"}, print: printHang},
	{name: "check", summary: "the first call where the ranks of a communicator disagree",
		needs: stages.NeedRanks, formats: []string{"table", "json", "csv"}, print: printCheck},
}

// ordered reports whether the command writes lines or calls as they are read, so that inputs
// must be read one after another.
func (c *command) ordered() bool { return c.needs&(stages.NeedLines|stages.NeedCalls) != 0 }

func findCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}
