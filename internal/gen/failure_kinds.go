package gen

import "strconv"

// writeOOM writes the oom scenario: the failing rank's traceback ends in
// CUDA out of memory, its communicators abort (on that rank only), and the
// others wait in the work it never enqueued until PyTorch's watchdog times
// out.
func (g *gen) writeOOM() {
	oom := &g.topo.procs[g.fail.rank]
	g.writeFailPhase(100, func(p *proc) lines {
		if p != oom {
			return nil
		}
		var l lines
		l.text(traceback()...)
		l.text(`  File "/usr/local/lib/python3.10/dist-packages/torch/nn/modules/linear.py", line 116, in forward`,
			"    return F.linear(input, self.weight, self.bias)",
			"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU "+strconv.Itoa(p.dev)+
				" has a total capacity of 79.15 GiB of which 1.06 GiB is free. Process "+strconv.Itoa(p.pid)+
				" has 78.08 GiB memory in use. Of the allocated memory 75.12 GiB is allocated by PyTorch, and 1.44 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)")
		return append(l, g.closeLines(p, "Abort")...)
	})
	g.setClock(g.fail.atMs + watchdogTimeoutMs)
	g.writeFailPhase(teardownMs, func(p *proc) lines {
		if p == oom {
			return nil
		}
		var l lines
		g.addTimeoutExit(&l, p)
		return l
	})
}

// ibPeer is the process at the other end of the failing rank's IB
// connection: the same local rank on the next host.
func (g *gen) ibPeer() *proc {
	return &g.topo.procs[(g.fail.rank+g.cfg.RanksPerHost)%g.cfg.Ranks]
}

// ibPeerAddr is the peer's socket address as NET/IB prints it.
func (g *gen) ibPeerAddr() string {
	if g.fail.scenario != "ib-error" {
		return ""
	}
	p := g.ibPeer()
	return hostIP(p.host) + "<" + strconv.Itoa(p.port()) + ">"
}

// ibCompletionError returns the location and text of NET/IB's WARN for a
// work completion with status 12 (IBV_WC_RETRY_EXC_ERR: the link or the peer
// is gone) on an InfiniBand port (no GIDs, which RoCE adds), in each
// version's words (transport/net_ib.cc of 2.21.5 to 2.28.9,
// transport/net_ib/p2p.cc of 2.29.7).
func (g *gen) ibCompletionError() (loc, msg string) {
	peer := g.ibPeerAddr()
	v := g.v
	switch {
	case v.atLeast(29):
		return "transport/net_ib/p2p.cc:651", "NET/IB: Got completion from peer " + peer +
			" with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) vendor_err=129  hca mlx5_0"
	case v.minor == 28 && v.patch >= 7:
		return "transport/net_ib.cc:2543", "NET/IB: Got completion from peer " + peer +
			" with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) reqSize=0 vendor_err=129 req_type=Recv hca mlx5_0"
	case !v.atLeast(22):
		return "transport/net_ib.cc:1909", "NET/IB : Got completion from peer " + peer + " with status=12 opcode=0 len=0 vendor err 129 (Recv)"
	}
	lines := map[int]string{22: "1984", 23: "2121", 24: "2244", 25: "2244", 26: "2358", 27: "2449", 28: "2470"}
	return "transport/net_ib.cc:" + lines[v.minor], "NET/IB: Got completion from peer " + peer +
		" with status=12 opcode=0 len=0 vendor err 129 (Recv) hca mlx5_0"
}

// writeIBError writes the ib-error scenario: the failing rank's proxy
// progress thread gets a completion error from its NIC while every rank
// waits in the same work; it aborts, and every other process sees its
// connections close and aborts too.
func (g *gen) writeIBError() {
	bad := &g.topo.procs[g.fail.rank]
	g.setClock(g.fail.atMs + 20000)
	g.writeFailPhase(300, func(p *proc) lines {
		if p != bad {
			return nil
		}
		var l lines
		loc, msg := g.ibCompletionError()
		g.addWarn(&l, p, p.progTid(), loc, msg)
		thread := " [Progress Thread]"
		if !g.v.atLeast(19) {
			thread = " [Proxy Thread]"
		}
		addChain(&l, p, p.progTid(), 6, "transport/net.cc:1302", "proxy.cc:698")
		l.add(append(p.appendHead(nil, p.progTid()), "proxy.cc:878 -> 6"+thread...))
		l = append(l, g.closeLines(p, "Abort")...)
		g.addRemoteErrorExit(&l, p, msg)
		return l
	})
	g.setClock(g.clockMs + 1500)
	g.writeFailPhase(2500, func(p *proc) lines {
		if p == bad {
			return nil
		}
		var l lines
		g.addConsequence(&l, p, bad)
		return l
	})
}

// writeInitFailure writes the init-fail scenario: every rank starts the
// world communicator's init, its proxy fails to bring up the IB queue pair
// (ibv_modify_qp times out, as with a wrong RoCE GID or a routing problem),
// the init fails with ncclSystemError and PyTorch raises it. No rank prints
// Init COMPLETE.
func (g *gen) writeInitFailure() {
	if !g.v.atLeast(22) {
		p := &g.topo.procs[0]
		g.end(p, append(g.begin(p), g.versionText()...))
	}
	const lastErr = "Call to ibv_modify_qp failed with error Connection timed out errno 110"
	g.writePhase(worldInitMs, func(p *proc) lines {
		l := g.worldInit(p)[:2]
		if !g.v.atLeast(22) {
			l = l[:1]
		}
		ip := hostIP(p.host)
		l.add(append(p.appendHead(nil, p.initTid), "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:"+ip+"<0>"...))
		l.add(append(p.appendHead(nil, p.initTid), "Using network IB"...))
		l.add(g.initLine(p, &p.comms[commWorld], p.initTid, false))
		return l
	})
	g.writeFailPhase(30000, func(p *proc) lines {
		var l lines
		g.addWarn(&l, p, p.svcTid(), "misc/ibvwrap.cc:206", lastErr)
		addChain(&l, p, p.svcTid(), 2, "transport/net_ib.cc:937", "transport/net_ib.cc:1144", "transport/net.cc:687")
		g.addWarn(&l, p, p.svcTid(), "proxy.cc:1546", "[Service thread] Error encountered progressing operation=Connect, res=2, closing connection")
		addChain(&l, p, p.initTid, 2, "init.cc:1263", "init.cc:1548")
		l.add(append(p.appendHead(nil, p.initTid), "group.cc:64 -> 2 [Async thread]"...))
		l.text("Traceback (most recent call last):",
			`  File "/workspace/train.py", line 388, in main`,
			"    dist.barrier()",
			"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version "+g.v.text,
			"ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. ",
			"Last error:", lastErr)
		return l
	})
}
