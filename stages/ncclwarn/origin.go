// Package ncclwarn tells what an NCCL WARN's message names: a fault (a network, bootstrap,
// CUDA or system call failure, invalid usage, a peer gone, an error passed on) or a notice
// that healthy jobs print too (an IB port event, NUMA balancing, a plugin not found, tuning
// advice). The ranks family weighs a WARN at the end of a process's log by it, and diagnose
// files WARNs as evidence by it, so both read a WARN the same way.
package ncclwarn

import "bytes"

// Origin is the kind of WARN a message is, by the phrases NCCL prints.
type Origin uint8

const (
	// Other is any WARN no rule names: advice and notices (NUMA balancing, a library not
	// found, tuning), and errors worded in no known way.
	Other Origin = iota
	// RemoteClosed: a peer closed its connection (`Connection closed by remote peer`).
	RemoteClosed
	// FollowOn: the proxy's service thread passes on an error met elsewhere.
	FollowOn
	// NetEvent: an IB async port event, which healthy jobs print too.
	NetEvent
	// NetError: an IB completion error or port failure, a NET plugin or socket failure.
	NetError
	// Bootstrap: the bootstrap network failed.
	Bootstrap
	// Cuda: a CUDA call failed.
	Cuda
	// Invalid: the application called NCCL wrongly (invalid root, type, usage).
	Invalid
	// System: a system call failed.
	System
	// Shm: a shared memory segment (/dev/shm) could not be created or extended: the host's
	// /dev/shm is too small or full (a container's default 64 MB).
	Shm
	// Internal: a check inside NCCL failed (its set-up met a state it cannot build on: the
	// rings of `Error : ring 0 does not loop back to start`, from ranks whose topology or
	// settings, NCCL_HOSTID among them, disagree).
	Internal
)

// Origins count the origins.
const Origins = int(Internal) + 1

// rule is a set of phrases that together make a WARN one origin; the first that matches wins.
type rule struct {
	origin Origin
	all    []string
}

func rules() []rule {
	return []rule{
		{RemoteClosed, []string{"Connection closed by remote peer"}},
		// A send or receive to a peer that failed because the peer went away.
		{RemoteClosed, []string{"Broken pipe"}},
		{RemoteClosed, []string{"Connection reset by peer"}},
		{FollowOn, []string{"[Service thread] Error encountered progressing"}},
		// NET/IB's async event thread (2.19+ names the device and port): a fatal event on the
		// device, a completion queue or a queue pair breaks the connections on it, and NCCL
		// marks the communicators that use it as failed (`communicator encountered a fatal
		// error (detected in ncclIbIrecv)` follows); an event on the shared receive queue,
		// which NCCL does not use, and the other events (a port going down or up, a path
		// migrating) are notices healthy jobs print too.
		{NetEvent, []string{"NET/IB", "async fatal event on SRQ"}},
		{NetError, []string{"NET/IB", "async fatal event"}},
		{NetError, []string{"communicator encountered a fatal error"}},
		// 2.19-2.22 print every event as `Got async event : <ibv_event_type_str>`: there the
		// event's name tells a queue pair's, completion queue's or device's error, which
		// breaks the connections on it (a peer's completions then fail), from the notices.
		{NetError, []string{"Got async", "work queue"}},
		{NetError, []string{"Got async", "CQ error"}},
		{NetError, []string{"Got async", "local catastrophic error"}},
		{NetEvent, []string{"Got async event"}},
		{NetEvent, []string{"NET/IB", "Got async error event"}},
		{NetEvent, []string{"NET/IB", "unknown event type"}},
		// net_ib.cc's check of a send against the receive its peer posted (`NET/IB : req 0/1
		// tag 0 peer 10.0.0.6<58683> collective mismatch error, local size 496640 remote size
		// 65536`, ncclInvalidUsage): the ranks called different sizes; the transport fails.
		{Invalid, []string{"NET/IB", "collective mismatch"}},
		{NetError, []string{"NET/IB", "completion"}},
		{NetError, []string{"NET/IB", "port"}},
		// aws-ofi-nccl 1.7's check of NCCL's version for its NVLS setting where libnccl
		// does not export ncclGetVersion (PyTorch's own NCCL): it skips the check and goes on,
		// as later versions say at TRACE level (`skipping NVLS NCCL version check`).
		{Other, []string{"NET/OFI", "Could not find ncclGetVersion symbol"}},
		{NetError, []string{"NET/OFI"}},
		// 2.30's GPU-initiated networking (GIN over DOCA GPUNetIO) setting up its queue
		// pairs: `(gdakiConnectQp) NCCL WARN DOCA failure 21` (ncclSystemError).
		{NetError, []string{"DOCA failure"}},
		{NetError, []string{"NET/Socket"}},
		{NetError, []string{"NET/Plugin", "fail"}},
		{NetError, []string{"socketStartConnect", "fail"}},
		// misc/socket.cc's connect that failed other than by a refusal or a timeout it
		// retries (`socketPollConnect: Connect to 10.0.0.2<40861> returned 113(No route to
		// host) errno 11(...)`, ncclSystemError), and the retries it ran out of
		// (`socketPollConnect: exceeded timeouts (20)`, ncclRemoteError).
		{NetError, []string{"socketPollConnect", "returned"}},
		{NetError, []string{"socketPollConnect", "exceeded timeouts"}},
		{NetError, []string{"Connect to", "failed"}},
		// The bootstrap root met a rank a second time: two processes claimed one rank (the
		// launcher's rank settings), not a network failure.
		{Invalid, []string{"has already checked in"}},
		// graph/rings.cc on a ring that does not close or lacks a rank (ncclInternalError).
		{Internal, []string{"Error : ring "}},
		// enqueue.cc where the tuner left a call no algorithm and protocol (NCCL_ALGO or
		// NCCL_PROTO set to ones the communicator cannot run: ncclInternalError).
		{Internal, []string{"no algorithm/protocol available"}},
		// graph/xml.h's read of an attribute the topology needs (`Attribute arch of node cpu
		// not found`: a topology file that lacks it), ncclInternalError.
		{Internal, []string{"Attribute ", " of node ", " not found"}},
		{Shm, []string{"shared memory segment"}},
		{Shm, []string{"/dev/shm"}},
		{Bootstrap, []string{"bootstrap"}},
		{Bootstrap, []string{"Bootstrap"}},
		{Cuda, []string{"Cuda failure"}},
		// NVLS's bind of multicast memory (`Failed to bind NVLink SHARP (NVLS) Multicast memory of
		// size 2097152 : CUDA error 401 '...'`, ncclUnhandledCudaError): NCCL prints it only
		// where it fails the job (the Fabric Manager or the NVSwitches).
		{Cuda, []string{"Failed to bind NVLink SHARP"}},
		{Cuda, []string{"CUDA failure"}},
		// alloc.h's `Failed to CUDA calloc N bytes` (malloc, host alloc): the allocation
		// behind it failed, most often as the GPU ran out of memory.
		{Cuda, []string{"Failed to CUDA "}},
		// 2.4-2.6's check of the ranks' calls (NCCL_CHECK_POINTERS era): the device saw a
		// peer issue another collective, `at and around rank N` (the reporting rank).
		{Invalid, []string{"Mismatched collective detected"}},
		// The same check where it could only suspect it (the LL protocols): the peer moved
		// twenty operations past the one this rank waits on. NCCL sets no error; the job
		// hangs there.
		{Invalid, []string{"may be caused by a collective mismatch around rank"}},
		// ncclCommDestroy or ncclCommAbort on a communicator already destroyed (a double
		// free the user's code made, ncclInvalidArgument).
		{Invalid, []string{"has already been destroyed"}},
		// strongstream.cc refuses to capture NCCL in a CUDA graph where the runtime or the
		// driver cannot (ncclInvalidUsage): the call fails.
		{Invalid, []string{"cannot be captured in a graph"}},
		// init.cc refuses a call on a communicator whose earlier operation failed or has not
		// completed (ncclCommEnsureReady): the call, not the network, is at fault here.
		{Invalid, []string{"Attempt to use communicator before the previous operation returned ncclSuccess"}},
		{Invalid, []string{"invalid root"}},
		{Invalid, []string{"invalid type"}},
		// A library call that failed with an errno (`Call to ibv_modify_qp failed with error
		// Invalid argument`): the errno's words are the system's, not NCCL refusing a call.
		{System, []string{"Call to ", "failed with error"}},
		{Invalid, []string{"Invalid"}},
		{Invalid, []string{"invalid usage"}},
		{Invalid, []string{"Duplicate GPU detected"}},
		{System, []string{"failed with error"}},
		{System, []string{"Call to"}},
	}
}

// Classify returns the origin of a WARN whose message (the text after `NCCL WARN `) is msg.
func Classify(msg []byte) Origin {
	for _, r := range rules() {
		ok := true
		for _, p := range r.all {
			ok = ok && bytes.Contains(msg, []byte(p))
		}
		if ok {
			return r.origin
		}
	}
	// A CUDA or HIP runtime call NCCL or RCCL names as failed (`cudaIpcGetMemHandle failed :
	// invalid argument`, `hipIpcOpenMemHandle failed`) where no phrase above names the WARN.
	if runtimeCallFailed(msg) {
		return Cuda
	}
	return Other
}

// Advice reports whether msg warns of what a setting can lead to (RCCL's `NUMA auto
// balancing enabled which can lead to variability in the RCCL performance!`, `Missing
// "iommu=pt" from kernel command line which can lead to system instablity or hang!`): advice
// printed at init, which no error chain that its thread prints later follows from.
func Advice(msg []byte) bool {
	return bytes.Contains(msg, []byte("can lead to")) || bytes.Contains(msg, []byte("may lead to"))
}

// Fault reports whether a WARN of origin o is an error, rather than a notice or advice that
// a healthy job prints too (Other, NetEvent).
func (o Origin) Fault() bool { return o != Other && o != NetEvent }

// runtimeCallFailed reports whether msg names a CUDA or HIP runtime call (a word `cuda` or
// `hip` then a capital: cudaIpcGetMemHandle, hipMalloc) followed by `failed`: the call
// returned an error, which NCCL prints this way where it does not print `Cuda failure`.
func runtimeCallFailed(msg []byte) bool {
	for i := 0; ; {
		j := bytes.Index(msg[i:], []byte(" failed"))
		if j < 0 {
			return false
		}
		j += i
		w := msg[bytes.LastIndexByte(msg[:j], ' ')+1 : j]
		for _, p := range [...]string{"cuda", "hip"} {
			if len(w) > len(p) && string(w[:len(p)]) == p && w[len(p)] >= 'A' && w[len(p)] <= 'Z' {
				return true
			}
		}
		i = j + len(" failed")
	}
}
