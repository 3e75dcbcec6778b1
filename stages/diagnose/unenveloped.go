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
	msg = msg[devHead(msg):] // a head cut to its device alone: `[0] NCCL INFO ...`
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
	if kind == parser.KindWarn {
		p.keep(warnItem(l.N, l.Text, &pl))
		return
	}
	p.addFrame(l.N, l.Text, &pl)
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
