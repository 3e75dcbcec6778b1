package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// excCase is a job's output that holds NCCL exceptions, and its first fault.
type excCase struct {
	name  string
	lines []string
	kind  diagnose.Kind
	ranks []int64
	peer  string // a host the first finding names, "" for none
	words string // words its summary holds
}

// excCases are PyTorch's forms of an NCCL exception, with no NCCL envelope line in the log.
var excCases = []excCase{
	{"prefixed traceback, NET/OFI message", []string{
		"[rank2]: Traceback (most recent call last):",
		"[rank2]:   File \"/work/train.py\", line 40, in <module>",
		"[rank2]: torch.distributed.DistBackendError: NCCL error in: c10d/ProcessGroupNCCL.cpp:2000, remote process exited or there was a network error, NCCL version 2.27.3",
		"[rank2]: ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
		"[rank2]: Last error:",
		"[rank2]: NET/OFI Request 0x7f00 completed with error. RC: 113. Error: 2 (UNDELIVERABLE). Completed length: 0",
		"[rank1]: Traceback (most recent call last):",
		"[rank1]:   File \"/work/train.py\", line 40, in <module>",
	}, diagnose.KindNetworkError, []int64{2}, "", "NET/OFI Request"},
	{"bootstrap message, then the launcher's signals", []string{
		"torch.distributed.DistBackendError: NCCL error in: c10d/ProcessGroupNCCL.cpp:1100, internal error, NCCL version 2.18.1",
		"ncclInternalError: Internal check failed.",
		"Last error:",
		"Bootstrap : no socket interface found",
		"WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 4001 closing signal SIGTERM",
		"WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 4002 closing signal SIGTERM",
	}, diagnose.KindInitFailure, nil, "", "no socket interface found"}, // no interface to start on
	{"one-line what()", []string{
		"[E ProcessGroupNCCL.cpp:400] Some NCCL operations have failed or timed out. terminate called after throwing an instance of 'c10::DistBackendError'  what():  [PG 0 Rank 1] NCCL error: remote process exited or there was a network error, NCCL version 2.19.3 ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely. Last error: NET/IB : Got completion from peer 10.9.8.7<4242> with error 12, opcode 0, len 0, vendor err 129",
	}, diagnose.KindNetworkError, []int64{1}, "10.9.8.7", "peer at 10.9.8.7"},
	{"what() split over lines", []string{
		"terminate called after throwing an instance of 'c10::DistBackendError'",
		"  what():  [PG 0 Rank 1] NCCL error: remote process exited or there was a network error, NCCL version 2.19.3",
		"ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
		"Last error:",
		"NET/IB : Got completion from peer 10.9.8.7<4242> with error 12, opcode 0, len 0, vendor err 129",
	}, diagnose.KindNetworkError, []int64{1}, "10.9.8.7", "ncclRemoteError"},
	{"traceback alone", []string{
		"Traceback (most recent call last):",
		"  File \"/work/train.py\", line 40, in <module>",
		"torch.distributed.DistBackendError: NCCL error in: c10d/ProcessGroupNCCL.cpp:2000, remote process exited or there was a network error, NCCL version 2.27.3",
	}, diagnose.KindRemoteError, nil, "", "remote process exited"},
	{"invalid usage", []string{
		"[rank3]: torch.distributed.DistBackendError: NCCL error in: c10d/ProcessGroupNCCL.cpp:2000, invalid usage, NCCL version 2.27.3",
		"[rank3]: ncclInvalidUsage: This usually reflects invalid usage of NCCL library.",
	}, diagnose.KindInvalidUsage, []int64{3}, "", "ncclInvalidUsage"},
	{"internal error, socket layer message", []string{
		"[rank5]: torch.distributed.DistBackendError: NCCL error in: c10d/ProcessGroupNCCL.cpp:1900, internal error - please report this issue to the NCCL developers, NCCL version 2.21.5",
		"[rank5]: ncclInternalError: Internal check failed.",
		"[rank5]: Last error:",
		"[rank5]: ncclSocketInit: connecting to address  with family 0 is neither AF_INET(2) nor AF_INET6(10)",
	}, diagnose.KindNetworkError, []int64{5}, "", "ncclSocketInit"},
	{"internal error, message no phrase names", []string{
		"[rank6]: ncclInternalError: Internal check failed.",
		"[rank6]: Last error:",
		"[rank6]: The work queue of channel 3 holds an unexpected value",
	}, diagnose.KindInternalError, []int64{6}, "", "ncclInternalError"},
}

// TestExceptionOrigins: a log of NCCL exceptions alone is a fault, whose first finding is
// what NCCL's last error says, on the rank the lines name, with the peer the message names
// (as its peer, or as its subject where the peer closed the connection);
// read whole or in chunks that cut between `Last error:` and its message.
func TestExceptionOrigins(t *testing.T) {
	for _, c := range excCases {
		data := []byte(strings.Join(c.lines, "\n") + "\n")
		for _, chunk := range []int{0, 64, 150, 300} {
			r := diagnoseBytes(t, "exc.log", data, chunk)
			if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
				t.Errorf("%s (chunk %d): status %s (%s), want fault", c.name, chunk, r.Status, r.Reason)
				continue
			}
			f := r.Findings[0]
			if f.Kind != c.kind || !slices.Equal(f.Ranks, c.ranks) && !(len(c.ranks) == 0 && len(f.Ranks) == 0) {
				t.Errorf("%s (chunk %d): first finding %s ranks %v, want %s ranks %v: %s", c.name, chunk, f.Kind, f.Ranks, c.kind, c.ranks, f.Summary)
			}
			// The peer that went away is a connection-closed finding's subject, in its hosts;
			// the other end of another error is its peer, not where the error happened.
			if named := f.Peer == c.peer || f.Kind == diagnose.KindConnectionClosed && slices.Contains(f.Hosts, c.peer); c.peer != "" && !named {
				t.Errorf("%s (chunk %d): peer %q, hosts %v, want the peer %s", c.name, chunk, f.Peer, f.Hosts, c.peer)
			}
			if c.peer != "" && f.Kind != diagnose.KindConnectionClosed && slices.Contains(f.Hosts, c.peer) {
				t.Errorf("%s (chunk %d): hosts %v hold the peer %s, where the error was not", c.name, chunk, f.Hosts, c.peer)
			}
			if !strings.Contains(f.Summary, c.words) {
				t.Errorf("%s (chunk %d): summary %q lacks %q", c.name, chunk, f.Summary, c.words)
			}
		}
	}
}

// TestExceptionRepeatsWARN: where NCCL's own WARN names the origin, the exception that
// repeats it changes nothing: the WARN is the first fault.
func TestExceptionRepeatsWARN(t *testing.T) {
	lines := []string{
		"n1:101:201 [1] NCCL INFO comm 0xa rank 1 nranks 2 cudaDev 1 busId 2000 - Init COMPLETE",
		"n1:101:201 [1] transport/net_ib.cc:1909 NCCL WARN NET/IB : Got completion from peer 10.9.8.7<4242> with status=12 opcode=0 len=0 vendor err 129 (Recv)",
		"[rank1]: torch.distributed.DistBackendError: NCCL error in: c10d/ProcessGroupNCCL.cpp:2000, remote process exited or there was a network error, NCCL version 2.27.3",
		"[rank1]: ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
		"[rank1]: Last error:",
		"[rank1]: NET/IB : Got completion from peer 10.9.8.7<4242> with status=12 opcode=0 len=0 vendor err 129 (Recv)",
	}
	with := diagnoseBytes(t, "w.log", []byte(strings.Join(lines, "\n")+"\n"), 0)
	without := diagnoseBytes(t, "w.log", []byte(strings.Join(lines[:3], "\n")+"\n"), 0)
	if with.Status != diagnose.StatusFault || with.Findings[0].Kind != diagnose.KindNetworkError || with.Findings[0].Evidence[0].Line != 2 {
		t.Fatalf("first finding %+v, want the WARN's network error", with.Findings)
	}
	if len(with.Findings) != len(without.Findings) || with.Findings[0].Summary != without.Findings[0].Summary {
		t.Errorf("the exception's lines changed the report:\n%+v\nwant\n%+v", with.Findings, without.Findings)
	}
}
