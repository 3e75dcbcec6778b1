package diagnose_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
	"github.com/nccllog/nccllog/stages/diagnose"
	"github.com/nccllog/nccllog/stages/internal/stagetest"
)

// fuzzLines are lines whose evidence the Partial keeps, from which the fuzzer builds inputs.
var fuzzLines = []string{
	"h0:1:1 [0] NCCL INFO comm 0xa rank 0 nranks 2 cudaDev 0 busId 1000 - Init START",
	"h0:1:1 [0] NCCL INFO comm 0xa rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE",
	"h1:2:2 [1] NCCL INFO comm 0xa rank 1 nranks 2 cudaDev 1 busId 2000 - Init START",
	"h1:2:2 [1] NCCL INFO comm 0xa rank 1 nranks 2 cudaDev 1 busId 2000 - Abort COMPLETE",
	"h0:1:1 [0] NCCL INFO comm 0xa rank 0 nranks 2 cudaDev 0 busId 1000 - Destroy COMPLETE",
	"h0:1:1 [0] misc/socket.cc:50 NCCL WARN socketProgress: Connection closed by remote peer h1<4242>",
	"h1:2:2 [1] transport/net_ib.cc:1909 NCCL WARN NET/IB : Got completion from peer 10.0.0.1<1> with status=12 opcode=0 len=0 vendor err 129 (Recv)",
	"h1:2:2 [1] proxy.cc:1546 NCCL WARN [Service thread] Error encountered progressing operation=Connect, res=6, closing connection",
	"[E0301 12:10:09.770797495 ProcessGroupNCCL.cpp:607] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=39, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600199 milliseconds before timing out.",
	"h0:1:1 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x2 count 1 datatype 7 op 0 root 0 comm 0xa [nranks=2] stream 0x3",
	// An NCCL exception's lines: `Last error:` waits for its message on the next line, which
	// may open the next chunk.
	"[rank1]: ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
	"[rank1]: Last error:",
	"[rank1]: NET/IB : Got completion from peer 10.0.0.1<1> with error 12, opcode 0, len 0, vendor err 129",
	"Last error:", "Bootstrap : no socket interface found",
	"  what():  [PG 0 Rank 2] NCCL error: remote process exited or there was a network error, NCCL version 2.19.3 Last error: NET/IB : Got completion from peer 10.0.0.3<2> with error 12",
	// RAS JSON fields, kept in order apart from the items.
	`      "hash": "0xae94423cfbb2ef4a",`, `          "rank": 1,`, `            "AllReduce": 6649`,
	// Processes' own addresses, kept apart from the items: one host's two processes, and
	// another host that prints the same address.
	"h0:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB ib0:10.0.0.1<0>",
	"h0:3:3 [1] NCCL INFO Bootstrap : Using ib0:10.0.0.1<0>",
	"h1:2:2 [1] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.3<0> [1]eth1:fe80::3%eth1<0>",
	"h2:4:4 [0] NCCL INFO Bootstrap: Using eth0:10.0.0.3<0>",
	// A setting that selects interfaces (an item no finding takes), and a watchdog line that
	// names its process group.
	"h0:1:1 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth9",
	"[PG 3 Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=40, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600199 milliseconds before timing out.",
	// A watchdog line wrapped after its head, the tuple unprefixed on the next line (joined,
	// across a cut too), and a `[rankN]:` exception header over unprefixed exception lines
	// (given its rank, across cuts too).
	"[rank3]:[E909 09:55:29.307629539 ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog caught collective operation timeout: ",
	"WorkNCCL(SeqNum=41, OpType=REDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600034 milliseconds before timing out.",
	"[rank4]:[E207 19:37:09.983600771 ProcessGroupNCCL.cpp:1895] [PG ID 0 PG GUID 0(default_pg) Rank 4] Process group watchdog thread terminated with exception: NCCL error: remote process exited or there was a network error, NCCL version 2.21.5",
	"ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
	// A program's own CUDA error lines (the log's one process where the NCCL lines show one),
	// and NET/IB's async fatal event.
	"CUDA error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)",
	"[rank2]: CUDA error: out of memory",
	"h0:1:5 [0] transport/net_ib.cc:154 NCCL WARN NET/IB : mlx5_3:1 async fatal event on QP (0x732d78661238): invalid request local work queue error",
}

// FuzzMergeChunks: the diagnose Partial of lines read in chunks and merged is the Partial
// of the lines read at once, and its partial-result form reads back to the same.
func FuzzMergeChunks(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 5, 6, 7, 8}, uint8(3))
	f.Add([]byte{5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 0, 2, 4}, uint8(1))
	f.Add([]byte{10, 11, 12, 13, 14, 11, 12, 15, 12, 11}, uint8(1)) // Last error: then its message, cut between
	f.Add([]byte{13, 14, 13, 12, 13, 14, 15}, uint8(0))
	f.Add([]byte{25, 26, 25, 26, 26, 27, 28, 13, 14, 28, 13, 14, 27, 28, 28, 10, 11}, uint8(0)) // wrapped lines, headers, cut after each line
	f.Add([]byte{27, 28, 13, 14, 27, 28, 28, 13, 14, 25, 26}, uint8(1))
	f.Add([]byte{0, 0, 27, 28, 13, 25}, uint8(2))     // a header's orphans in the next chunk, their message with a rank of its own
	f.Add([]byte{29, 0, 30, 31, 1, 29, 17}, uint8(1)) // CUDA error lines, one process's lines then another's
	p, err := parser.NewParser()
	if err != nil {
		f.Fatal(err)
	}
	parsed := make([]parser.Line, len(fuzzLines))
	for i, s := range fuzzLines {
		p.Parse([]byte(s), &parsed[i])
	}
	plan := stages.MustPlan(stages.Config{}, all.Registry(), "diagnose")
	f.Fuzz(func(t *testing.T, picks []byte, chunk uint8) {
		if len(picks) > 512 {
			picks = picks[:512]
		}
		size := 1 + int(chunk)%16
		once, merged := stages.NewSet(plan), stages.NewSet(plan)
		for start := 0; start < len(picks); start += size {
			set := stages.NewSet(plan)
			for i := start; i < min(start+size, len(picks)); i++ {
				k := int(picks[i]) % len(fuzzLines)
				l := parsed[k]
				text := []byte(fuzzLines[k])
				set.Add(&stages.Line{N: int64(i - start + 1), Text: text, P: &l})
				once.Add(&stages.Line{N: int64(i + 1), Text: text, P: &l})
			}
			set.Anchor(stages.Origin{File: "f", Base: int64(start)})
			merged.Merge(set)
		}
		once.Anchor(stages.Origin{File: "f"})
		a, b := diagnose.PartOf(once).Evidence(), diagnose.PartOf(merged).Evidence()
		if !reflect.DeepEqual(norm(a), norm(b)) {
			t.Fatalf("chunks of %d differ:\n%s\nwant\n%s", size, mustJSON(b), mustJSON(a))
		}
		back := stages.NewSet(plan)
		if err := stagetest.RestoreJSON(diagnose.PartOf(back), mustJSON(a)); err != nil {
			t.Fatalf("restoring: %v", err)
		}
		if got := diagnose.PartOf(back).Evidence(); string(mustJSON(got)) != string(mustJSON(a)) {
			t.Fatalf("restored evidence differs")
		}
	})
}

// norm makes empty and nil lists alike.
func norm(e diagnose.Evidence) string { return string(mustJSON(e)) }

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// TestRestoreRefusesDamage: a partial result whose evidence cannot be true of any logs is
// refused: more items than its keys count, an unknown evidence kind, a count below zero, a
// communicator listed twice or a rank outside it.
func TestRestoreRefusesDamage(t *testing.T) {
	plan := stages.MustPlan(stages.Config{}, all.Registry(), "diagnose")
	item := `{"ev":"net-error","host":"h","pid":1,"rank":0,"rank_last":0,"gpu":0,"code":-1,"seq":-1,"time":[0,0,0,false],"file":"f","line":3,"text":"x"}`
	key := `{"host":"h","pid":1,"rank":0,"ev":"net-error","n":1}`
	comm := `{"host":"h","pid":1,"comm":10,"rank":0,"nranks":2,"gpu":0}`
	good := `{"items":[` + item + `],"counts":[` + key + `],"comms":[` + comm + `],"seen":1,"comms_left":0}`
	if err := stagetest.RestoreJSON(diagnose.PartOf(stages.NewSet(plan)), []byte(good)); err != nil {
		t.Fatalf("a sound partial is refused: %v", err)
	}
	for name, bad := range map[string]string{
		"uncounted item": `{"items":[` + item + `,` + item + `],"counts":[` + key + `],"comms":[],"seen":2,"comms_left":0}`,
		"unknown kind":   `{"items":[],"counts":[{"host":"h","pid":1,"rank":0,"ev":"bogus","n":1}],"comms":[],"seen":1,"comms_left":0}`,
		"negative seen":  `{"items":[],"counts":[],"comms":[],"seen":-1,"comms_left":0}`,
		"comm twice":     `{"items":[],"counts":[],"comms":[` + comm + `,` + comm + `],"seen":0,"comms_left":0}`,
		"rank outside":   `{"items":[],"counts":[],"comms":[{"host":"h","pid":1,"comm":10,"rank":5,"nranks":2,"gpu":0}],"seen":0,"comms_left":0}`,
		"bad time":       `{"items":[` + strings.Replace(item, "[0,0,0,false]", "[0,200,0,false]", 1) + `],"counts":[` + key + `],"comms":[],"seen":1,"comms_left":0}`,
		"ras left, room": `{"items":[],"counts":[],"comms":[],"seen":0,"comms_left":0,"ras":[{"file":"f","line":1,"key":"rank","val":"1"}],"ras_left":3}`,
		"ras line":       `{"items":[],"counts":[],"comms":[],"seen":0,"comms_left":0,"ras":[{"file":"f","line":-1,"key":"rank","val":"1"}]}`,
		"ras no key":     `{"items":[],"counts":[],"comms":[],"seen":0,"comms_left":0,"ras":[{"file":"f","line":1,"key":"","val":"1"}]}`,
		"addr twice": `{"items":[],"counts":[],"comms":[],"seen":0,"comms_left":0,"addrs":[{"addr":"10.0.0.1","host":"h","pid":1,"file":"f","line":1,"text":"x"},` +
			`{"addr":"10.0.0.1","host":"h","pid":2,"file":"f","line":2,"text":"x"}]}`,
		"addr line":  `{"items":[],"counts":[],"comms":[],"seen":0,"comms_left":0,"addrs":[{"addr":"10.0.0.1","host":"h","pid":1,"file":"f","line":-1,"text":"x"}]}`,
		"addrs left": `{"items":[],"counts":[],"comms":[],"seen":0,"comms_left":0,"addrs_left":-1}`,
	} {
		if err := stagetest.RestoreJSON(diagnose.PartOf(stages.NewSet(plan)), []byte(bad)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
