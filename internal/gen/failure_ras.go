package gen

import (
	"fmt"
	"strconv"
	"strings"
)

// writeRAS writes the ras scenario: two ranks hang before the world work the
// others have launched, and a minute later the user runs ncclras and pastes
// its report after the log. The report is the text form of NCCL 2.24's
// src/ras/client_support.cc (rasClientRunInit, rasClientRunComms): the
// banner, the job summary, the communicators table with the world
// communicator's MISMATCH, and the Warnings entry naming the two ranks whose
// collective operation counts are behind. RASFormat "json" pastes the same
// report in JSON form instead (rasJSONReport).
func (g *gen) writeRAS() {
	g.setClock(g.fail.atMs + 60000)
	report := g.rasReport()
	if g.cfg.RASFormat == "json" {
		report = g.rasJSONReport()
	}
	for _, s := range strings.Split(strings.TrimSuffix(report, "\n"), "\n") {
		g.raw(s)
	}
}

// cudaVersionInt is the CUDA version as cudaRuntimeGetVersion gives it: 12080.
func (v version) cudaVersionInt() int {
	major, minor, _ := strings.Cut(v.cuda(), ".")
	ma, _ := strconv.Atoi(major)
	mi, _ := strconv.Atoi(minor)
	return ma*1000 + mi*10
}

func (g *gen) rasReport() string {
	var b strings.Builder
	v, t := g.v, g.topo
	cv := v.cudaVersionInt()
	fmt.Fprintf(&b, "NCCL version %s compiled with CUDA %s\n", v.text, v.cuda())
	fmt.Fprintf(&b, "CUDA runtime version %d, driver version %d\n\n", cv, cv)
	b.WriteString("Job summary\n===========\n\n")
	perNode := g.cfg.RanksPerHost
	b.WriteString("  Nodes  Processes         GPUs  Processes     GPUs\n(total)   per node  per process    (total)  (total)\n")
	fmt.Fprintf(&b, "%7d  %9d  %11d  %9d  %7d\n\n", t.nHosts, perNode, 1, len(t.procs), len(t.procs))
	b.WriteString("Communicators... (0.01s)\n=============\n\n")
	b.WriteString("Group     Comms     Nodes     Ranks     Ranks     Ranks    Status  Errors\n    #  in group  per comm  per node  per comm  in group\n")
	world := t.world
	nodes, local, _ := t.layout(world, 0)
	fmt.Fprintf(&b, "%5d  %8d  %8d  %8s  %8d  %8d  %8s  %6s\n", 0, 1, nodes, strconv.Itoa(local), len(world.members), len(world.members), "RUNNING", "MISMATCH")
	sub := t.procs[0].comms[commSub].info
	subs := map[*commInfo]bool{}
	for i := range t.procs {
		subs[t.procs[i].comms[commSub].info] = true
	}
	nodes, local, _ = t.layout(sub, 0)
	fmt.Fprintf(&b, "%5d  %8d  %8d  %8s  %8d  %8d  %8s  %6s\n", 1, len(subs), nodes, strconv.Itoa(local), len(sub.members), len(t.procs), "RUNNING", "OK")
	b.WriteString("\nErrors\n======\n\n")
	b.WriteString("Warnings\n========\n\n")
	fmt.Fprintf(&b, "#0-0 (%016x) MISMATCH\n", world.id)
	b.WriteString("  Communicator ranks have different collective operation counts\n")
	seq := int64(g.fail.seq)
	fmt.Fprintf(&b, "  %d ranks have launched up to operation %d\n", len(t.procs)-2, seq)
	fmt.Fprintf(&b, "  %d ranks have launched up to operation %d\n", 2, seq-1)
	for _, r := range []int{min(g.fail.rank, g.fail.second), max(g.fail.rank, g.fail.second)} {
		p := &t.procs[r]
		fmt.Fprintf(&b, "  Rank %d -- GPU %d managed by process %d on node %s\n", r, p.dev, p.pid, hostIP(p.host))
	}
	b.WriteString("\n")
	return b.String()
}
