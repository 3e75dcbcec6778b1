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
// heads without it, `:168:1228 [2] NCCL INFO ...` or `::16674:17023 [0] NCCL WARN ...`; a
// launcher may print `-` for it, and a user may redact it (`<cluster_name>:922:1158 [3]`):
// their WARNs and chains are read as the lines of the process the pid names, on the host as
// printed where it names one, else on a host not named.

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
	if len(msg) > 2 {
		if n := pasteLabel(msg); n > 0 {
			msg = parser.Unprefixed(msg[n:]) // behind a host's label or a quote, as reread.go reads
		}
	}
	var env parser.Envelope
	gpu := int64(-1)
	if h, at, n := oddHeadIn(msg); n > 0 {
		env, msg = h, msg[at+n:]
	} else if h, n := maskedHead(msg); n > 0 {
		env, gpu, msg = h, h.Dev, msg[n:]
	} else if d := devHead(msg); d > 0 {
		gpu, _ = decimalAt(msg[1:]) // a head cut to its device alone: `[0] NCCL INFO ...`
		msg = msg[d:]
	}
	text := l.Text
	if i := bytes.Index(msg, unenvelopedWarn); i >= 0 {
		// Before the level, its source (`init.cc:290`, 2.30's `register.cc:42 (ncclRegister)`)
		// alone: a line with more there has an envelope of a form the parser does not read (a
		// redacted `<host>:pid:tid [dev]`), not one cut off, and is left as malformed.
		if kind = parser.KindWarn; !warnSource(msg[:i]) {
			return
		}
	} else if bytes.HasPrefix(msg, unenvelopedWarn[1:]) {
		// The level alone opens it (`NCCL WARN NET/OFI ...`: a plugin's WARN pasted without
		// its head, or printed so): read as the message behind a head is.
		kind, text = parser.KindWarn, append([]byte{' '}, msg...)
	} else if !bytes.HasPrefix(msg, unenvelopedInfo) {
		return
	}
	pl := parser.Line{Kind: kind, Rank: l.P.Rank, Time: l.P.Time}
	if env.Pid > 0 || env.Host != "" {
		env.Level = parser.LevelInfo
		if kind == parser.KindWarn {
			env.Level = parser.LevelWarn
		}
		pl.Env = env
	}
	if kind == parser.KindWarn {
		it := warnItem(l.N, text, &pl)
		if it.GPU < 0 {
			it.GPU = gpu // the device its head kept: the process is the one on that GPU
		}
		p.keep(it)
		return
	}
	if !p.addFrame(l.N, l.Text, &pl) && env.Pid > 0 {
		p.addSetting(l.N, l.Text, &pl) // setting.go: what its errors may follow from
	}
}

// maskedHead reads the head `[host]:[pid]:[tid] [dev] ` that msg opens with where a user
// masked all three in brackets (`[Node-A]:[PID]:[Thread] [0] NCCL WARN ...`): the host is the
// first bracket's word where it reads as a host's name, the pid not known. It returns the
// head and its length; 0 where msg opens with none.
func maskedHead(msg []byte) (parser.Envelope, int) {
	i := 0
	var host []byte
	for k := range 3 {
		if i >= len(msg) || msg[i] != '[' {
			return parser.Envelope{}, 0
		}
		j := bytes.IndexByte(msg[i:min(len(msg), i+maxOddHost+2)], ']')
		if j < 2 || bytes.ContainsAny(msg[i+1:i+j], " \t[") {
			return parser.Envelope{}, 0
		}
		if k == 0 {
			host = msg[i+1 : i+j]
		}
		if i += j + 1; k < 2 {
			if i >= len(msg) || msg[i] != ':' {
				return parser.Envelope{}, 0
			}
			i++
		}
	}
	if i >= len(msg) || msg[i] != ' ' {
		return parser.Envelope{}, 0
	}
	d := devHead(msg[i+1:])
	if d == 0 {
		return parser.Envelope{}, 0
	}
	dev, _ := decimalAt(msg[i+2:])
	env := parser.Envelope{Pid: -1, Tid: -1, Dev: dev}
	if hostLike(host) {
		env.Host = string(host)
	}
	return env, i + 1 + d
}

// warnSource reports whether src, what precedes ` NCCL WARN ` in a line without a head, is a
// WARN's source alone: one word (`init.cc:290`), or, from NCCL 2.30, that word and its
// function in parentheses (`register.cc:42 (ncclRegister)`).
func warnSource(src []byte) bool {
	word, fn, two := bytes.Cut(src, []byte(" "))
	if len(word) == 0 || bytes.IndexByte(word, '\t') >= 0 {
		return false
	}
	return !two || len(fn) > 2 && fn[0] == '(' && fn[len(fn)-1] == ')' && !bytes.ContainsAny(fn, " \t")
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

// oddHeadIn finds, at msg's start or after a blank (behind a label or time the parser does
// not know: `worker-9 >> :166:1226 [0] ...`), the head of a line whose host the parser does
// not read, and returns it, where it starts, and its length; 0 where msg holds none. Only
// the text before the first `NCCL ` is searched: a head precedes its level, and a message's
// own words are not one.
func oddHeadIn(msg []byte) (parser.Envelope, int, int) {
	if end := bytes.Index(msg, []byte("NCCL ")); end >= 0 {
		msg = msg[:end]
	}
	for at := 0; at < len(msg); {
		if h, n := oddHead(msg[at:]); n > 0 {
			return h, at, n
		}
		i := bytes.IndexByte(msg[at:], ' ')
		if i < 0 {
			break
		}
		at += i + 1
	}
	return parser.Envelope{}, 0, 0
}

// maxOddHost bounds the host of a head oddHead reads.
const maxOddHost = 64

// oddHead reads the head `host:pid:tid [dev] ` that msg opens with, whatever its host: empty
// (`:168:1228`, `::16674:17023`: a machine whose host name NCCL read as empty), a placeholder
// (`-:6015:6225`) or a name a user redacted (`<cluster_name>:922:1158`). The host is kept
// where it holds a letter or a digit, else left empty. It returns the head and its length; 0
// where msg opens with none.
func oddHead(msg []byte) (parser.Envelope, int) {
	i := bytes.IndexByte(msg[:min(len(msg), maxOddHost+1)], ':')
	if i < 0 || bytes.ContainsAny(msg[:i], " \t") {
		return parser.Envelope{}, 0
	}
	host := msg[:i]
	for k := 0; k < 3 && i < len(msg) && msg[i] == ':'; k++ {
		i++
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
	env := parser.Envelope{Pid: pid, Tid: tid, Dev: dev}
	if bytes.IndexFunc(host, func(r rune) bool { return r < 0x80 && (r >= '0' && r <= '9' || r|0x20 >= 'a' && r|0x20 <= 'z') }) >= 0 {
		env.Host = string(host)
	}
	return env, i + d
}
