package gen

import (
	"fmt"
	"strings"
)

// rasJSONOps are the collectives whose operation counts NCCL 2.28/2.29 print
// (ncclFuncToString over NCCL_NUM_FUNCTIONS).
var rasJSONOps = []string{"Broadcast", "Reduce", "AllGather", "ReduceScatter", "AllReduce"}

// rasJSONReport is the ras scenario's report in the JSON form of `ncclras -f
// json` (NCCL 2.28.7+, rasDumpCommsToJSON in src/ras/client_support.cc): the
// same job as rasReport, the raw data instead of the verdicts. The world
// communicator's two hung ranks have launched one AllReduce fewer than the
// others; every split communicator's ranks agree.
func (g *gen) rasJSONReport() string {
	var b strings.Builder
	t, cv := g.topo, g.v.cudaVersionInt()
	fmt.Fprintf(&b, "{\n  \"nccl_version\": \"%s\",\n  \"cuda_runtime_version\": %d,\n  \"cuda_driver_version\": %d,\n", g.v.text, cv, cv)
	comms := []*commInfo{t.world}
	for i := range t.procs {
		if c := t.procs[i].comms[commSub].info; !containsComm(comms, c) {
			comms = append(comms, c)
		}
	}
	fmt.Fprintf(&b, "  \"timestamp\": \"2026-03-01 12:01:00\",\n  \"communicators_count\": %d,\n  \"communicators\": [\n", len(comms))
	seq := int64(g.fail.seq)
	for i, c := range comms {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "    {\n      \"hash\": \"0x%x\",\n      \"secondary_hash\": \"0x%x:0x%x\",\n", c.id, c.id^0x5bd1e995, c.id>>7)
		fmt.Fprintf(&b, "      \"size\": %d,\n      \"ranks_count\": %d,\n      \"missing_ranks_count\": 0,\n      \"ranks\": [\n", len(c.members), len(c.members))
		for r, global := range c.members {
			n := seq
			if c != t.world {
				n = 0 // the split communicators carry no work in this job
			} else if global == g.fail.rank || global == g.fail.second {
				n = seq - 1
			}
			if r > 0 {
				b.WriteString(",\n")
			}
			g.rasJSONRank(&b, r, &t.procs[global], n)
		}
		b.WriteString("\n      ],\n      \"missing_ranks\": [\n\n      ]\n    }")
	}
	b.WriteString("\n  ],\n  \"ras\": {\n    \"collection_time_sec\": 0.012,\n    \"timeouts_count\": 0\n  }\n}\n")
	return b.String()
}

// rasJSONRank writes a rank's record (jsonWriteRankData): a running rank with
// no error, allReduce operations launched.
func (g *gen) rasJSONRank(b *strings.Builder, rank int, p *proc, allReduce int64) {
	const in = "          "
	fmt.Fprintf(b, "        {\n%s\"rank\": %d,\n%s\"host\": \"%s\",\n%s\"pid\": %d,\n", in, rank, in, hostIP(p.host), in, p.pid)
	fmt.Fprintf(b, "%s\"cuda_dev\": %d,\n%s\"nvml_dev\": %d,\n%s\"status\": {\n", in, p.dev, in, p.dev, in)
	fmt.Fprintf(b, "%s  \"init_state\": 0,\n%s  \"async_error\": 0,\n%s  \"finalize_called\": false,\n", in, in, in)
	fmt.Fprintf(b, "%s  \"destroy_flag\": false,\n%s  \"abort_flag\": false\n%s},\n%s\"collective_counts\": {\n", in, in, in, in)
	for i, op := range rasJSONOps {
		n := int64(0)
		if op == "AllReduce" {
			n = allReduce
		}
		fmt.Fprintf(b, "%s  \"%s\": %d", in, op, n)
		if i < len(rasJSONOps)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(b, "%s}\n        }", in)
}

func containsComm(cs []*commInfo, c *commInfo) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}
