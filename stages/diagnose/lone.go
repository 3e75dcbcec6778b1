package diagnose

import "github.com/nccllog/nccllog/parser"

// A paste of one process's output (a single-process job, a rank's own log, a user's
// excerpt) often ends in an error the process printed without NCCL's envelope: a CUDA error
// from the application's own check, a Python exception without a launcher label. Where the
// NCCL lines name exactly one process, that error is that process's, and the finding names
// it rather than "a process".

// LoneProc is the process whose envelope (host:pid) the NCCL lines show, while they show
// only one.
type LoneProc struct {
	Host string `json:"host"`
	Pid  int64  `json:"pid"`
	// Many: the lines showed a second process, and Host and Pid say nothing.
	Many bool `json:"many,omitempty"`
}

// seeEnvelope notes the process of an NCCL line, where it shows one.
func (p *Part) seeEnvelope(l *parser.Line) {
	if !p.lone.Many && l.Env.HasEnvelope() {
		p.seeProc(l.Env.Host, l.Env.Pid)
	}
}

// seeProc notes a process the NCCL lines show. A head without its host (`:70918:70918 [0]`,
// a machine whose name NCCL read as empty, or `NAME :70918` with a space in it) is the
// process of that pid whose host another line names.
func (p *Part) seeProc(host string, pid int64) {
	switch {
	case p.lone.Many:
	case !p.loneSeen:
		p.lone, p.loneSeen = LoneProc{Host: host, Pid: pid}, true
	case p.lone.Pid != pid:
		p.lone = LoneProc{Many: true}
	case p.lone.Host == "":
		p.lone.Host = host
	case host != "" && p.lone.Host != host:
		p.lone = LoneProc{Many: true}
	}
}

// mergeLone takes o's processes after p's.
func (p *Part) mergeLone(o *Part) {
	switch {
	case o.lone.Many:
		p.lone, p.loneSeen = LoneProc{Many: true}, true
	case o.loneSeen:
		p.seeProc(o.lone.Host, o.lone.Pid)
	}
}

// Lone is the one process the NCCL lines showed, or nil where they showed none or several.
func (e *Evidence) Lone() *LoneProc {
	if e.Procs == nil || e.Procs.Many {
		return nil
	}
	return e.Procs
}

// loneProc is the process of the one envelope the NCCL lines showed (Evidence.Lone), nil where
// they showed none or several.
func (x *procIndex) loneProc() *proc {
	if x.lone == nil {
		return nil
	}
	return x.get(x.lone.Host, x.lone.Pid)
}
