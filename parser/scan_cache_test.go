package parser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestScannerCachesAgreeWithGrammar feeds one scanner lines that each reuse, or almost reuse,
// what it cached from the line before (a thread's head, its collective tails, its op names): every
// answer must still be the grammar's.
func TestScannerCachesAgreeWithGrammar(t *testing.T) {
	const coll = " AllReduce: opCount 1a sendbuff 0x7f00 recvbuff 0x7f01 count 8 datatype 7 op 0 root 0 comm 0x55aa [nranks=2] stream 0x55bb"
	const head2 = " AllGather: opCount 1b sendbuff 0x7f08 recvbuff 0x7f09 count 16 datatype 1"
	const tail = " op 0 root 0 comm 0x55aa [nranks=2] stream 0x55bb"
	seqs := map[string][]string{
		"same head":            {"h:1:2 [0] NCCL INFO" + coll, "h:1:2 [0] NCCL INFO" + coll},
		"device changes":       {"h:1:2 [0] NCCL INFO" + coll, "h:1:2 [1] NCCL INFO" + coll, "h:1:2 [0] NCCL INFO" + coll},
		"head runs on":         {"h:1:2 [0] NCCL INFO" + coll, "h:1:2 [0] NCCL INFOx" + coll, "h:1:2 [0] NCCL INFO_ x"},
		"head alone":           {"h:1:2 [0] NCCL INFO" + coll, "h:1:2 [0] NCCL INFO", "h:1:2 [0] NCCL INFO "},
		"head then warn":       {"h:1:2 [0] NCCL INFO" + coll, "h:1:2 [0] NCCL WARN" + coll},
		"longer tid":           {"h:1:2 [0] NCCL INFO" + coll, "h:1:23 [0] NCCL INFO" + coll},
		"two spaces":           {"h:1:2 [0] NCCL INFO" + coll, "h:1:2 [0] NCCL INFO " + coll, "h:1:2 [0] NCCL INFO\t" + coll},
		"other host, same ids": {"a:1:2 [0] NCCL INFO" + coll, "b:1:2 [0] NCCL INFO" + coll, "a:1:2 [0] NCCL INFO" + coll},
		"comm pointer grows":   {"h:1:2 [0] NCCL INFO" + coll, "h:1:2 [0] NCCL INFO" + coll[:len(coll)-28] + "0x55aa1 [nranks=2] stream 0x55bb"},
		"stream runs on":       {"h:1:2 [0] NCCL INFO" + coll, "h:1:2 [0] NCCL INFO" + coll + "z", "h:1:2 [0] NCCL INFO" + coll + "0"},
		"tail repeats":         {"h:1:2 [0] NCCL INFO" + coll, "h:1:2 [0] NCCL INFO" + head2 + tail},
		"tail changes op":      {"h:1:2 [0] NCCL INFO" + coll, "h:1:2 [0] NCCL INFO" + head2 + strings.Replace(tail, " op 0", " op 1", 1)},
		"tail changes root":    {"h:1:2 [0] NCCL INFO" + coll, "h:1:2 [0] NCCL INFO" + head2 + strings.Replace(tail, " root 0", " root 10", 1)},
		"tail runs on":         {"h:1:2 [0] NCCL INFO" + coll, "h:1:2 [0] NCCL INFO" + head2 + tail + "x", "h:1:2 [0] NCCL INFO" + head2 + tail + " "},
		"tail cut short":       {"h:1:2 [0] NCCL INFO" + coll, "h:1:2 [0] NCCL INFO" + head2, "h:1:2 [0] NCCL INFO" + head2 + tail[:len(tail)-1]},
		"tail from a spliced":  {"h:1:2 [0] NCCL INFO" + coll, "h:1:2 [0] NCCL INFO" + head2 + tail + "h:1:2 [0] NCCL INFO x"},
		"rccl tail":            {"h:1:2 [0] NCCL INFO" + coll + " task 3 globalrank 9", "h:1:2 [0] NCCL INFO" + head2 + tail + " task 3 globalrank 9", "h:1:2 [0] NCCL INFO" + head2 + tail + " task 3 globalrank 8"},
		"long tail":            {"h:1:2 [0] NCCL INFO" + coll + strings.Repeat(" ", 200), "h:1:2 [0] NCCL INFO" + head2 + tail + strings.Repeat(" ", 200)},
		"nil stream":           {"h:1:2 [0] NCCL INFO" + head2 + " op 0 root 0 comm 0x55aa [nranks=2] stream (nil)", "h:1:2 [0] NCCL INFO" + head2 + " op 0 root 0 comm 0x55aa [nranks=2] stream (nil)"},
		"six comms in turn":    sixComms(),
		"op runs on":           {"h:1:2 [0] NCCL INFO" + coll, "h:1:2 [0] NCCL INFO AllReduceX: opCount 1" + tail, "h:1:2 [0] NCCL INFO AllReduce-X: opCount 1" + tail},
		"op without opCount":   {"h:1:2 [0] NCCL INFO" + coll, "h:1:2 [0] NCCL INFO AllReduce: opcount 1" + tail, "h:1:2 [0] NCCL INFO AllReduce:  opCount 1" + tail},
		"op cut short":         {"h:1:2 [0] NCCL INFO" + coll, "h:1:2 [0] NCCL INFO AllReduce: opCount ", "h:1:2 [0] NCCL INFO AllReduce: opCount", "h:1:2 [0] NCCL INFO AllRed"},
		"op is a host":         {"h:1:2 [0] NCCL INFO" + coll, "h:1:2 [0] NCCL INFO h: opCount 1" + tail},
		"nine ops in turn":     nineOps(),
		"buffer forms":         bufferForms(),
		"prefixed":             {"h:1:2 [0] NCCL INFO" + coll, "3: h:1:2 [0] NCCL INFO" + coll, "junk h:1:2 [0] NCCL INFO" + coll},
	}
	for name, lines := range seqs {
		p, err := NewParser()
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range lines {
			var fast Line
			if !p.Scan([]byte(line), &fast) {
				continue
			}
			want := p.Grammar().Parse([]byte(line))
			if diff := cmp.Diff(want, fast); diff != "" {
				t.Errorf("%s, line %d: scanner and grammar disagree (-grammar +scanner):\n%s\n%q", name, i+1, diff, line)
			}
		}
	}
}

// sixComms is one thread's calls on six communicators in turn, more than it keeps tails of.
func sixComms() []string {
	var lines []string
	for round := 0; round < 3; round++ {
		for c := 0; c < 6; c++ {
			lines = append(lines, fmt.Sprintf("h:1:2 [0] NCCL INFO Broadcast: opCount %x sendbuff 0x7f00 recvbuff 0x7f00 count %d datatype 0 op 0 root %d comm 0x55a%d [nranks=%d] stream 0x55b%d", round, 8+c, c%2, c, 2+c, c))
		}
	}
	return lines
}

// nineOps is one thread's calls of nine ops in turn, more than the scanner keeps.
func nineOps() []string {
	var lines []string
	for round := 0; round < 2; round++ {
		for _, op := range []string{"AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Reduce", "Send", "Recv", "AllToAll", "Gather"} {
			lines = append(lines, fmt.Sprintf("h:1:2 [0] NCCL INFO %s: opCount %x sendbuff 0x7f00 recvbuff 0x7f00 count 8 datatype 0 op 0 root 0 comm 0x55a [nranks=2] stream 0x55b", op, round))
		}
	}
	return lines
}

// bufferForms is one thread's collective lines with the buffers and count in their common form
// (read in one go by buffersAndCount) and in forms near it, which the field reader reads.
func bufferForms() []string {
	var lines []string
	for _, f := range []string{
		"sendbuff 0x7f3c5c000000 recvbuff 0x7f3c5c000200 count 1024 datatype 7",
		"sendbuff 0x7f3c5c0000000 recvbuff 0x7f3c5c000200 count 1024 datatype 7",
		"sendbuff 0x7f3c5c00000 recvbuff 0x7f3c5c000200 count 1024 datatype 7",
		"sendbuff 0x7F3C5C000000 recvbuff 0x7f3c5c000200 count 1024 datatype 7",
		"sendbuff 0x7f3c5c000000 recvbuff 0x7f3c5c00020g count 1024 datatype 7",
		"sendbuff 0x7f3c5c000000 recvbuff (nil) count 1024 datatype 7",
		"sendbuff 0x7f3c5c000000 recvbuff 0x7f3c5c000200 count -1024 datatype 7",
		"sendbuff 0x7f3c5c000000 recvbuff 0x7f3c5c000200 count 1234567890123456789 datatype 7",
		"sendbuff 0x7f3c5c000000 recvbuff 0x7f3c5c000200 count 123456789012345678 datatype 7",
		"sendbuff 0x7f3c5c000000 recvbuff 0x7f3c5c000200 count 1024x datatype 7",
		"sendbuff 0x7f3c5c000000 recvbuff 0x7f3c5c000200 count 1024 datatype -7",
		"sendbuff 0x7f3c5c000000 recvbuff 0x7f3c5c000200 count 1024 datatype ",
		"sendbuff 0x7f3c5c000000 recvbuff 0x7f3c5c000200 count 1024 datatype 7x",
		"sendbuff 0x7f3c5c000000 recvbuff 0x7f3c5c000200 count  1024 datatype 7",
		"sendbuff 0x7f3c5c000000  recvbuff 0x7f3c5c000200 count 1024 datatype 7",
		"sendbuff 0x7f3c5c000000 recvbuff 0x7f3c5c000200 count 1024 datatype 7",
	} {
		for _, tail := range []string{" op 0 root 0 comm 0x55aa [nranks=2] stream 0x55bb", "", " op"} {
			lines = append(lines, "h:1:2 [0] NCCL INFO AllReduce: opCount 1a "+f+tail)
		}
	}
	return lines
}
