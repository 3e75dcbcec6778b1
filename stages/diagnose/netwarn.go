package diagnose

import (
	"bytes"
	"strings"
)

// socketWarn reports whether msg is a WARN of NCCL's socket layer: it starts with the name of
// the socket function that failed (`socketFinalizeAccept: wrong type 2 != 1`,
// `socketPollConnect poll() returned 1, no POLLOUT events`, `ncclSocketInit: connecting to
// address ...`). Some of these are notices (a stray connection's wrong magic is dropped and
// the socket accepts again), so the phrase names only the kind of a fault something else
// proves: the error chain after the WARN, or the NCCL exception that repeats it.
func socketWarn(msg string) bool {
	w, ok := strings.CutPrefix(msg, "ncclSocket")
	if !ok {
		w, ok = strings.CutPrefix(msg, "socket")
	}
	return ok && len(w) > 0 && w[0] >= 'A' && w[0] <= 'Z'
}

// netKind is the kind of an error a socket-layer WARN starts, or a network transport's own
// (`NET/OFI Unexpected status ...`, `NET/IB : ...`): a network error, where the chain's
// ncclResult alone (an internal or a system error) would call it otherwise.
func netKind(k Kind, msg string) Kind {
	if (k == KindCrash || k == KindSystemError || k == KindInternalError) && (socketWarn(msg) || strings.HasPrefix(msg, "NET/")) {
		return KindNetworkError
	}
	return k
}

// verbsSetup reports whether msg names a failed InfiniBand verbs call that NCCL makes only to
// set up or drive a connection (`Call to ibv_create_qp failed`, a completion queue, a
// protection domain): NCCL gives the connection up where one fails, so the WARN proves a
// fault without the error chain an excerpt may end before. Calls NCCL also makes while it
// looks over the devices (ibv_open_device, ibv_query_port: it skips the device and goes on)
// and memory registration (ibv_reg_mr: most often the locked-memory limit) still need it.
func verbsSetup(msg string) bool {
	_, call, ok := strings.Cut(msg, "Call to ibv_")
	if !ok {
		return false
	}
	call, _, _ = strings.Cut(call, " ")
	switch call {
	case "create_qp", "create_cq", "modify_qp", "alloc_pd", "create_srq", "create_comp_channel",
		"req_notify_cq", "poll_cq", "post_send", "post_recv":
		return true
	}
	return false
}

// socketBind reports whether msg, a WARN of source file (`socket.h:347`), is NCCL's socket
// layer failing to bind or listen on a socket it listens on (the bootstrap's, a proxy's,
// NET/Socket's: `Call to bind failed : Address already in use`): NCCL gives the socket up and
// returns ncclSystemError, so the WARN proves a fault without the error chain an excerpt may
// end before. RAS's client socket (`client_support.cc`), which every process of a host but one
// fails to bind on 2.24+, is a notice NCCL runs on without.
func socketBind(file, msg []byte) bool {
	return (bytes.HasPrefix(file, []byte("socket.h:")) || bytes.HasPrefix(file, []byte("socket.cc:"))) &&
		(bytes.Contains(msg, []byte("Call to bind failed")) || bytes.Contains(msg, []byte("Call to listen failed")))
}

// pluginNotice reports whether it is a network plugin's notice rather than its error: a
// `NET/OFI` WARN with no error chain after it (code <= 0) and no word of an error, such as
// aws-ofi-nccl's `NET/OFI Only EFA provider is supported`, printed at init where the
// provider it found is not EFA and NCCL goes on with another network; or the plugin's own
// report that its initialization failed (`NET/OFI aws-ofi-nccl initialization failed`, on an
// instance without EFA), after which NCCL loads its own network (`NET/IB : No device found`,
// `Using network Socket`) and goes on. It names the kind of a fault something else proves,
// and proves none alone: where NCCL cannot go on, its own error chain follows.
func pluginNotice(it *Item, code int) bool {
	return it.Ev == evNetError && code <= 0 && (ofiNotice(it.Text) || pluginInitFailed(it.Text))
}

// ofiNotice reports whether msg is an aws-ofi-nccl WARN with no word of an error (`NET/OFI
// Only EFA provider is supported`, `NET/OFI GDR disabled on GDR-supported instance type`).
func ofiNotice(msg string) bool {
	return strings.HasPrefix(msg, "NET/OFI") && !errorWords(msg)
}

// pluginInitFailed reports whether msg is a network plugin's WARN that its initialization
// failed.
func pluginInitFailed(msg string) bool {
	return (strings.HasPrefix(msg, "NET/OFI") || strings.HasPrefix(msg, "NET/Plugin")) && strings.Contains(msg, "initializ")
}

// errorWords reports whether msg says something failed.
func errorWords(msg string) bool {
	for _, w := range []string{"rror", "fail", "Fail", "nable to", "nexpected", "ould not", "ouldn't", "imeout", "imed out", "denied", "refused"} {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

// ibvUnloaded reports whether it is NCCL's verbs wrapper saying libibverbs was never loaded
// (`misc/ibvwrap.cc:173 NCCL WARN lib wrapper not initialized.`): a host without InfiniBand's
// library, where 2.28+'s probe of GPUDirect RDMA calls into it anyway and returns an error
// (`transport/net_ib/gdr.cc:56 -> 3`) that NCCL drops before it goes on over sockets
// (`Using network Socket`, then Init START). The chain after it is the probe's, no fault;
// a job that needs InfiniBand fails on a WARN of its own (no IB device, a plugin that did
// not load).
func ibvUnloaded(it *Item) bool {
	return strings.HasPrefix(it.Text, "lib wrapper not initialized")
}

// noInterface reports whether msg is NCCL's bootstrap finding no interface to use (`Bootstrap
// : no socket interface found`, and NET/Socket's `no interface found` of its own search): an
// init that cannot start on that host, most often NCCL_SOCKET_IFNAME naming none of its
// interfaces, rather than a link that failed.
func noInterface(msg string) bool {
	return strings.Contains(msg, "no socket interface found") || strings.HasPrefix(msg, "NET/Socket : no interface found")
}
