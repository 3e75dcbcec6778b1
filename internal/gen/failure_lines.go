package gen

import (
	"strconv"
	"strings"
	"time"
)

// Threads of a process that print failure lines: NCCL's proxy service thread
// (socket errors on connections, "[Service thread]") and proxy progress
// thread (network completions, "[Progress Thread]").
func (p *proc) svcTid() int  { return p.initTid + 1 }
func (p *proc) progTid() int { return p.initTid + 2 }

// port is the port of p's proxy/bootstrap socket that peers connect to.
func (p *proc) port() int { return 40000 + p.pid%20000 }

// sockName is what ncclSocketToString prints for p's socket, by host name
// (numericHostForm 0, as socketProgress asks): "gpu-node-01<52445>".
func (p *proc) sockName() string { return hostName(p.host) + "<" + strconv.Itoa(p.port()) + ">" }

// warnLine renders NCCL's WARN "host:pid:tid [dev] LOC NCCL WARN MSG", with
// the 2.26+ timestamp. NCCL writes a blank line before it (nil in lines).
func (g *gen) warnLine(p *proc, tid int, loc, msg string) []byte {
	var b []byte
	if g.v.atLeast(26) {
		b = append(b, '[')
		b = time.UnixMilli(g.clockMs).UTC().AppendFormat(b, "2006-01-02 15:04:05")
		b = append(b, "] "...)
	}
	b = append(b, hostName(p.host)...)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(p.pid), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(tid), 10)
	b = append(b, " ["...)
	b = strconv.AppendInt(b, int64(p.dev), 10)
	b = append(b, "] "+loc+" NCCL WARN "...)
	return append(b, msg...)
}

// addWarn adds NCCL's blank line and the WARN.
func (g *gen) addWarn(l *lines, p *proc, tid int, loc, msg string) {
	l.add(nil)
	l.add(g.warnLine(p, tid, loc, msg))
}

// addChain adds the "LOC -> RES" lines (NCCL_ALL backtrace) of p's thread tid.
func addChain(l *lines, p *proc, tid, res int, locs ...string) {
	for _, loc := range locs {
		l.add(append(p.appendHead(nil, tid), loc+" -> "+strconv.Itoa(res)...))
	}
}

// text adds lines that carry no NCCL head (Python's, PyTorch's, C++'s) as
// one write: writeFailPhase keeps them together, each with the launcher's
// prefix.
func (l *lines) text(ss ...string) {
	l.add([]byte(strings.Join(ss, "\n")))
}

// addSocketClosed adds what a peer's service thread prints when the process
// at the other end of its connection is gone: socketProgress's WARN, the
// backtrace and the service thread's WARN closing the connection (2.21.5
// misc/socket.cc:50, proxy.cc:1546). It returns the WARN's text.
func (g *gen) addSocketClosed(l *lines, p, gone *proc) string {
	msg := "socketProgress: Connection closed by remote peer " + gone.sockName()
	g.addWarn(l, p, p.svcTid(), "misc/socket.cc:50", msg)
	addChain(l, p, p.svcTid(), 6, "misc/socket.cc:58", "misc/socket.cc:789")
	g.addWarn(l, p, p.svcTid(), "proxy.cc:1546", "[Service thread] Error encountered progressing operation=Connect, res=6, closing connection")
	return msg
}

// addLocalClosed adds the INFO a process prints when a process on its own
// host that used its proxy goes away (proxy.cc:1559).
func addLocalClosed(l *lines, p, gone *proc) {
	l.add(append(p.appendHead(nil, p.svcTid()), "[Service thread] Connection closed by localRank "+strconv.Itoa(gone.dev)...))
}

// addRemoteErrorExit adds what PyTorch prints when NCCL reports a remote
// error to its watchdog: the watchdog's exception with NCCL's last error,
// then the C++ runtime's terminate line (the process dies with SIGABRT).
func (g *gen) addRemoteErrorExit(l *lines, p *proc, lastErr string) {
	r := strconv.Itoa(p.rank)
	l.text(string(g.glogHead(1316))+"[PG 0 Rank "+r+"] Process group watchdog thread terminated with exception: NCCL error: remote process exited or there was a network error, NCCL version "+g.v.text,
		"ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
		"Last error:", lastErr,
		"terminate called after throwing an instance of 'c10::DistBackendError'")
}

// addTimeoutExit adds PyTorch's watchdog timeout lines for the work p waits
// in and the lines with which it takes the process down.
func (g *gen) addTimeoutExit(l *lines, p *proc) {
	*l = append(*l, g.watchdogLines(p)...)
	r := strconv.Itoa(p.rank)
	l.add(append(g.glogHead(621), "[Rank "+r+"] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data."...))
	l.add(append(g.glogHead(627), "[Rank "+r+"] To avoid data inconsistency, we are taking the entire process down."...))
}

// addConsequence adds what a peer of a process that went away prints: the
// closed connection (or, on the same host, the closed local proxy client),
// its communicators' aborts, and PyTorch's remote-error exit.
func (g *gen) addConsequence(l *lines, p, gone *proc) {
	lastErr := "socketProgress: Connection closed by remote peer " + gone.sockName()
	if p.host == gone.host {
		addLocalClosed(l, p, gone)
	} else {
		lastErr = g.addSocketClosed(l, p, gone)
	}
	*l = append(*l, g.closeLines(p, "Abort")...)
	g.addRemoteErrorExit(l, p, lastErr)
}

// traceback is the start of the training script's Python traceback; the
// caller adds the last frames and the exception line.
func traceback() []string {
	return []string{"Traceback (most recent call last):",
		`  File "/workspace/train.py", line 412, in <module>`,
		"    main()",
		`  File "/workspace/train.py", line 398, in main`,
		"    loss = train_step(model, batch, optimizer)"}
}
