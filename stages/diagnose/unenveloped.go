package diagnose

import (
	"bytes"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// A user who pastes only the lines that matter often cuts their `host:pid:tid [dev]` heads
// off (or all but the device), and a collector can lose them:
//
//	get_req_from_imm_data:1411 NCCL WARN NET/OFI Unexpected status (0) for message 246
//	NCCL INFO transport/net.cc:1302 -> 3
//	[0] misc/socket.cc:71 NCCL WARN socketProgress: Connection closed by remote peer 10.10.1.3<36138>
//
// The parser reports such lines as malformed (every analysis that needs their process skips
// them), but a WARN and its chain say what failed whoever printed them: they are read as the
// lines of one process the log does not name.
//
// A machine whose host name NCCL reads as empty (seen on cloud VMs and in containers) prints
// heads without it, `:168:1228 [2] NCCL INFO ...` or `::16674:17023 [0] NCCL WARN ...`: their
// WARNs and chains are read as the lines of the process the pid names, on a host not named.

var (
	unenvelopedWarn = []byte(" NCCL WARN ")
	unenvelopedInfo = []byte("NCCL INFO ")
)

// addUnenveloped reads a malformed line that holds an NCCL WARN or a `file:line -> N` frame
// of a return-code chain, as an enveloped one is read but of no process.
func (p *Part) addUnenveloped(l *stages.Line) {
	if p.addWatchdogException(l) { // stuck.go: glued after a damaged envelope
		return
	}
	kind := parser.KindInfo
	msg := parser.Unprefixed(l.Text)
	var env parser.Envelope
	if h, at, n := hostlessHeadIn(msg); n > 0 {
		env, msg = h, msg[at+n:]
	} else {
		msg = msg[devHead(msg):] // a head cut to its device alone: `[0] NCCL INFO ...`
	}
	if i := bytes.Index(msg, unenvelopedWarn); i >= 0 {
		// Before the level, its source (`init.cc:290`) alone: a line with more there has an
		// envelope of a form the parser does not read (a redacted `<host>:pid:tid [dev]`),
		// not one cut off, and is left as malformed.
		if kind = parser.KindWarn; bytes.ContainsAny(msg[:i], " \t") {
			return
		}
	} else if !bytes.HasPrefix(msg, unenvelopedInfo) {
		return
	}
	pl := parser.Line{Kind: kind, Rank: l.P.Rank, Time: l.P.Time}
	if env.Pid > 0 {
		env.Level = parser.LevelInfo
		if kind == parser.KindWarn {
			env.Level = parser.LevelWarn
		}
		pl.Env = env
	}
	if kind == parser.KindWarn {
		p.keep(warnItem(l.N, l.Text, &pl))
		return
	}
	if !p.addFrame(l.N, l.Text, &pl) && env.Pid > 0 {
		p.addSetting(l.N, l.Text, &pl) // setting.go: what its errors may follow from
	}
}

// devHead is the length of the `[dev] ` an unenveloped line's head kept (`[0] `), 0 where
// msg opens with none.
func devHead(msg []byte) int {
	if len(msg) < 4 || msg[0] != '[' {
		return 0
	}
	_, n := decimalAt(msg[1:])
	if n == 0 || n > 4 || 1+n+1 >= len(msg) || msg[1+n] != ']' || msg[2+n] != ' ' {
		return 0
	}
	return n + 3
}

// hostlessHeadIn finds the head of a line whose host name is empty at msg's start or after a
// blank (behind a label or time the parser does not know: `worker-9 >> :166:1226 [0] ...`),
// and returns it, where it starts, and its length; 0 where msg holds none.
func hostlessHeadIn(msg []byte) (parser.Envelope, int, int) {
	for at := 0; at < len(msg); {
		if h, n := hostlessHead(msg[at:]); n > 0 && (at == 0 || msg[at-1] == ' ') {
			return h, at, n
		}
		i := bytes.Index(msg[at+1:], []byte(" :"))
		if i < 0 {
			break
		}
		at += i + 2
	}
	return parser.Envelope{}, 0, 0
}

// hostlessHead reads the head of a line whose host name is empty, `:pid:tid [dev] ` (one or
// more colons before the pid), and returns it with its length; 0 where msg opens with none.
func hostlessHead(msg []byte) (parser.Envelope, int) {
	i := 0
	for i < len(msg) && i < 4 && msg[i] == ':' {
		i++
	}
	if i == 0 {
		return parser.Envelope{}, 0
	}
	pid, n := decimalAt(msg[i:])
	if n == 0 || n > 10 || i+n >= len(msg) || msg[i+n] != ':' {
		return parser.Envelope{}, 0
	}
	i += n + 1
	tid, n := decimalAt(msg[i:])
	if n == 0 || n > 10 || i+n >= len(msg) || msg[i+n] != ' ' {
		return parser.Envelope{}, 0
	}
	i += n + 1
	d := devHead(msg[i:])
	if d == 0 || pid <= 0 {
		return parser.Envelope{}, 0
	}
	dev, _ := decimalAt(msg[i+1:])
	return parser.Envelope{Pid: pid, Tid: tid, Dev: dev}, i + d
}
