package diagnose

import (
	"bytes"

	"github.com/nccllog/nccllog/stages"
)

// libfabric (the provider library under NCCL's OFI plugin: AWS EFA, and others) logs on the
// process's standard error, with FI_LOG_LEVEL=warn or finer, as
//
//	libfabric:451707:1708520807::efa:cq:efa_rdm_txe_handle_error():737<warn> err: 5, message: Invalid address My EFA addr: ... Peer host id: i-0ce6d3d57139f053c (7)
//
// (pid, seconds since the epoch, provider, subsystem, function and line, level, message). A
// warning of the completion queue's subsystem (`cq`) is a transfer that completed in error:
// the provider's own word on a network error of that process, which NCCL's plugin may pass
// on late or not at all (the job then hangs). Other subsystems' warnings (a setting, a
// fork-safety notice) are set-up notices and are not read.

var (
	fabricHead = []byte("libfabric:")
	fabricWarn = []byte("<warn>")
)

// fabricLead reports whether t, other text that mayBeRare let through, may open with
// libfabric's head: a compare of its first and fourth bytes.
func fabricLead(t []byte) bool {
	return len(t) > len(fabricHead)+len(fabricWarn) && t[0] == 'l' && t[3] == 'f'
}

// addFabric keeps t, the text of line l past a launcher's label, where it is a libfabric
// warning of a completion queue: a network error of the process of its pid.
func (p *Part) addFabric(l *stages.Line, t []byte) {
	rest, ok := bytes.CutPrefix(t, fabricHead)
	if !ok {
		return
	}
	pid, n := decimalAt(rest)
	if n == 0 || n >= len(rest) || rest[n] != ':' {
		return
	}
	fields := rest[n+1:]
	w := bytes.Index(fields, fabricWarn)
	if w < 0 {
		return
	}
	// `<secs>::<prov>:<subsys>:<function>():<line>`: the provider is the third field, the
	// subsystem the fourth.
	parts := bytes.SplitN(fields[:w], []byte(":"), 5)
	if len(parts) < 5 || len(parts[1]) != 0 || !bytes.Equal(parts[3], []byte("cq")) {
		return
	}
	msg := bytes.TrimSpace(fields[w+len(fabricWarn):])
	if len(msg) == 0 {
		return
	}
	it := newItem(evNetError, l.N, l.P)
	it.Pid = pid
	it.Text = clip(append(append([]byte("libfabric "), parts[2]...), append([]byte(": "), msg...)...))
	p.keep(it)
}

// fabricLabel bounds the launcher's label before libfabric's head (`[1,1023]<stderr>:`).
const fabricLabel = 24
