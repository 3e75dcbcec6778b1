package diagnose_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestPeerAddrNamed: a peer a WARN names by address only is named by the process whose init
// lines printed that address as its own (`NET/IB : Using ... ; OOB`, `NET/Socket : Using`,
// `Bootstrap : Using`, IPv6 with its zone too): host:pid where one process printed it, the
// host where several of one host did, the bare address where two hosts did (a private
// address each has). The finding cites the line that maps it, and reads the same in chunks.
func TestPeerAddrNamed(t *testing.T) {
	data, ps := warnJob(t)
	p := ps[3]
	for _, tc := range []struct {
		name, init, addr, shown, host, proc string
	}{
		{"one process", "gpu-node-09:4242:4242 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB ib0:10.7.7.7<0>\n",
			"10.7.7.7", "gpu-node-09:4242 (10.7.7.7)", "gpu-node-09", "gpu-node-09:4242"},
		{"one host", "gpu-node-09:4242:4242 [0] NCCL INFO NET/Socket : Using [0]eth0:10.7.7.7<0>\n" +
			"gpu-node-09:4243:4243 [1] NCCL INFO Bootstrap : Using eth0:10.7.7.7<0>\n",
			"10.7.7.7", "gpu-node-09 (10.7.7.7)", "gpu-node-09", ""},
		{"ipv6", "gpu-node-09:4242:4242 [0] NCCL INFO Bootstrap: Using ib0:fe80::7%ib0<0>\n",
			"fe80::7%ib0", "gpu-node-09:4242 (fe80::7%ib0)", "gpu-node-09", "gpu-node-09:4242"},
		{"two hosts", "gpu-node-09:4242:4242 [0] NCCL INFO Bootstrap : Using eth0:10.7.7.7<0>\n" +
			"gpu-node-10:4242:4242 [0] NCCL INFO Bootstrap : Using eth0:10.7.7.7<0>\n",
			"10.7.7.7", "10.7.7.7", "10.7.7.7", ""},
	} {
		lines := chain(p, "misc/socket.cc:520", "Net : Call to recv from "+tc.addr+"<45001> failed : Broken pipe", 6,
			"misc/socket.cc:540", "transport/net_socket.cc:370")
		in := append([]byte(tc.init), append(slices.Clone(data), lines...)...)
		for _, chunk := range []int{0, 4096} {
			r := diagnoseBytes(t, "job.log", in, chunk)
			if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
				t.Fatalf("%s: status %s, want fault", tc.name, r.Status)
			}
			f := r.Findings[0]
			cited := slices.ContainsFunc(f.Evidence, func(e diagnose.Ref) bool { return e.Line <= 2 && strings.Contains(e.Text, "Using") })
			if !strings.Contains(f.Summary, "The peer at "+tc.shown+" went away first") || !slices.Contains(f.Hosts, tc.host) ||
				(tc.proc != "") != slices.Contains(f.Processes, tc.proc) || cited != (tc.host != tc.addr) {
				t.Errorf("%s, chunk %d: hosts %v, processes %v, cites the init line %v: %s", tc.name, chunk, f.Hosts, f.Processes, cited, f.Summary)
			}
		}
	}
}

// TestPeerAddrClosedFolds: `Net : Connection closed by remote peer <addr>`, where the address
// is the init address of the process whose own error came first, follows that finding and
// says whose the address is.
func TestPeerAddrClosedFolds(t *testing.T) {
	data, ps := warnJob(t)
	dead, a, b := ps[5], ps[0], ps[1]
	init := dead.name() + ":" + strconv.Itoa(dead.pid) + " [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.9.9.9<0>\n"
	in := append([]byte(init), data...)
	in = append(in, chain(dead, "transport/net_ib.cc:1200", "NET/IB : Got completion from peer 10.1.1.1<5000> with status=12 opcode=0 len=0 vendor err 129 (Recv)", 6, "proxy.cc:900")...)
	for _, q := range []jobProc{a, b} {
		in = append(in, warnAt(q, 9000+q.rank, "misc/socket.cc:50", "Net : Connection closed by remote peer 10.9.9.9<41000>")...)
	}
	r := diagnoseBytes(t, "job.log", in, 0)
	if len(r.Findings) < 2 || r.Findings[0].Kind != diagnose.KindNetworkError {
		t.Fatalf("findings %s", js(r))
	}
	for _, f := range r.Findings[1:] {
		if f.Kind == diagnose.KindConnectionClosed && (f.Follows == nil || *f.Follows != 0 ||
			!strings.Contains(f.Summary, "; the peer 10.9.9.9 is "+dead.name()+".")) {
			t.Errorf("connection-closed does not follow the first fault naming its process: %s", js(r))
		}
	}
}

// TestWarnOriginsMemory: NCCL's own WARNs of a failed CUDA allocation are faults on their
// process: `Cuda failure 'out of memory'` an oom, as the exception's OutOfMemoryError is;
// `Failed to CUDA calloc N bytes` a cuda-error, even without its return-code chain. A connect
// that was refused says the peer was not listening, and names it where its address is known.
func TestWarnOriginsMemory(t *testing.T) {
	data, ps := warnJob(t)
	p, q := ps[5], ps[2]
	qInit := q.name() + ":" + strconv.Itoa(q.pid) + " [0] NCCL INFO Bootstrap : Using eth0:10.9.8.7<0>\n"
	for _, c := range []struct {
		name, init, lines string
		kind              diagnose.Kind
		says              string
	}{
		{"cuda-oom", "", warnAt(p, 7005, "include/alloc.h:120", "Cuda failure 'out of memory'"), diagnose.KindOOM, "ran out of GPU memory first"},
		{"cuda-oom-code", "", warnAt(p, 7005, "include/alloc.h:120", "Cuda failure 2 'out of memory'"), diagnose.KindOOM, "ran out of GPU memory first"},
		{"calloc", "", warnAt(p, 7005, "include/alloc.h:125", "Failed to CUDA calloc 1048576 bytes"), diagnose.KindCudaError, "hit a CUDA error first"},
		{"refused", qInit, warnAt(p, 7005, "misc/socket.cc:480", "socketStartConnect: Connect to 10.9.8.7<40404> failed : Connection refused"),
			diagnose.KindNetworkError, "could not connect to its peer, which was not listening (it likely died or never started)"},
	} {
		r := diagnoseBytes(t, "job.log", append([]byte(c.init), append(slices.Clone(data), c.lines...)...), 0)
		if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
			t.Fatalf("%s: status %s, want fault", c.name, r.Status)
		}
		f := r.Findings[0]
		if f.Kind != c.kind || !slices.Contains(f.Processes, p.name()) || !strings.Contains(f.Summary, c.says) {
			t.Errorf("%s: first finding %s of %v: %s; want %s of %s saying %q", c.name, f.Kind, f.Processes, f.Summary, c.kind, p.name(), c.says)
		}
		if c.init != "" && (!strings.Contains(f.Summary, "the peer 10.9.8.7 is "+q.name()) || !slices.Contains(f.Hosts, q.host)) {
			t.Errorf("%s: the peer is not named: hosts %v: %s", c.name, f.Hosts, f.Summary)
		}
	}
}
