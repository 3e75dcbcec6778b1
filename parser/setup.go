package parser

import (
	"bytes"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
)

// SetupKind says which set-up line a message is.
type SetupKind uint8

const (
	SetupNone        SetupKind = iota
	SetupVersion               // NCCL version 2.21.5+cuda12.4 / RCCL version : 2.21.5-hash
	SetupNetwork               // Using network IB
	SetupNetIB                 // NET/IB : Using [0]mlx5_0:1/IB ... ; OOB ...
	SetupNetSocket             // NET/Socket : Using [0]eth0:...
	SetupNetPlugin             // NET/OFI ..., NET/Plugin ...
	SetupConn                  // Channel 00/0 : 0[0] -> 1[1] [send] via ...
	SetupRings                 // Connected all rings[, use ring PXN p GDR g]
	SetupChannels              // N coll channels, ...
	SetupEnv                   // X set by environment to Y / NCCL_IB_HCA set to Y
	SetupTuning                // [Op: ]N Bytes -> Algo a proto p ...
	SetupTimings               // Init timings ...
	SetupBootTimings           // Bootstrap timings total ...
	SetupBacktrace             // file.cc:NNN -> R
	SetupDriver                // cudaDriverVersion 12020
)

// Setup is one set-up message read by the set-up grammar. Only the part that matches Kind
// is filled in.
type Setup struct {
	Kind SetupKind
	// Text is the version (`2.21.5+cuda12.4`), the network name, the NICs as printed
	// (`mlx5_0:1/IB mlx5_1:1/IB [RO]`), the socket interfaces (`eth0 eth1`), a plugin's
	// message, or an environment variable's value.
	Text string
	// Name is the library (NCCL, RCCL), the plugin (OFI, Plugin) or the variable's name.
	Name     string
	Conn     Conn
	Rings    Rings
	Channels Channels
	Tuning   Tuning
	Timing   Timing
	Frame    Frame
}

// Conn is one per-connection line.
type Conn struct {
	Channel, Index int64 // Index is the connection index (0 collectives, 1 P2P); -1 when absent
	From, To       int64 // To is -1 on CollNet lines
	FromDev, ToDev string
	Dir            string // "send", "receive" or "" (P2P and SHM print the send side only)
	Via            string // as printed: NET/IB/0(7)/GDRDMA
	Transport      string // Via without the device index and proxy rank: NET/IB/GDRDMA
	Net            bool   // a network transport (NET/..., COLLNET/...)
	GDR            bool   // /GDRDMA
}

// Rings is `Connected all rings`; PXN and GDR are -1 before 2.24.
type Rings struct{ PXN, GDR int64 }

// Channels is the channel-count summary; fields a version does not print are -1.
type Channels struct{ Coll, CollNet, NVLS, P2P, PerPeer int64 }

// Tuning is one TUNING line, with numeric ids mapped to names. Op is "" before 2.23.
type Tuning struct {
	Op          string
	Bytes       int64
	Algo, Proto string
}

// Timing is an Init timings or Bootstrap timings line (seconds). Rank and NRanks are -1 on
// Bootstrap timings.
type Timing struct {
	API          string
	Rank, NRanks int64
	Total        float64
	Parts        string // `kernels 0.21, alloc 0.02, ...`
}

// Frame is one `file:line -> result` line of an error's backtrace.
type Frame struct {
	File   string
	Line   int64
	Func   string
	Result int64
	Thread string // `Progress Thread` and the like, or ""
}

var builtSetup = sync.OnceValues(func() (*participle.Parser[gSetup], error) {
	return participle.Build[gSetup](participle.Lexer(lineLexer), participle.UseLookahead(participle.MaxLookahead))
})

// ParseSetup reads a set-up message (the text after ` NCCL INFO `, or a bare version line).
// It reports false for any other message. The common messages are read by scanSetup, which
// answers as the grammar does; the grammar reads the rest.
//
// Unlike Parser.Parse, ParseSetup does not also ask the grammar about a sample of the fast
// path's answers: it is a plain function, and a sample kept across calls would be state
// shared by every caller. TestSetupScanTable, TestSetupScanSamples and FuzzSetupScanAgrees
// compare the two instead.
func ParseSetup(msg []byte) (Setup, bool) {
	if len(msg) > MaxRead {
		msg = msg[:MaxRead] // as Parse: the grammar's time grows with the text
	}
	msg = bytes.TrimRight(msg, " \t\r\n")
	if s, ok := scanSetup(msg); ok {
		return s, true
	}
	return grammarSetup(msg)
}

// grammarSetup is the set-up grammar's reading of a message ParseSetup has trimmed.
func grammarSetup(msg []byte) (Setup, bool) {
	if !maybeSetup(msg) {
		return Setup{}, false
	}
	g, err := builtSetup()
	if err != nil {
		return Setup{}, false
	}
	tree, err := g.ParseString("", string(msg))
	if err != nil {
		return Setup{}, false
	}
	return setupFromTree(tree)
}

var setupHeads = [...]string{
	"NCCL version ", "RCCL version", "HIP version", "ROCm version", "cudaDriverVersion ", "Using network ", "NET/", "Channel ", "Ring ", "Coll",
	"Connected all rings", "Init timings", "Bootstrap timings",
}

var setupWords = [...]string{" set by environment to", "_HCA set to ", " Bytes -> Algo ", " coll channels"}

// maybeSetup is the cheap test in front of the grammar: a message that fails it cannot be a
// set-up line.
func maybeSetup(msg []byte) bool {
	for _, h := range setupHeads {
		if bytes.HasPrefix(msg, []byte(h)) {
			return true
		}
	}
	for _, w := range setupWords {
		if bytes.Contains(msg, []byte(w)) {
			return true
		}
	}
	return bytes.Contains(msg, []byte(" -> ")) && len(msg) > 0 && (isDigit(msg[len(msg)-1]) || msg[len(msg)-1] == ']')
}

// Message returns the message text of a line the parser read as l: what follows the last
// ` NCCL INFO ` / ` NCCL WARN ` / ` NCCL ABORT ` of an INFO or WARN line, the version text
// of a bare version line (and of RCCL's `HIP version` and `ROCm version` header lines,
// which are other lines), or nil.
func Message(text []byte, l *Line) []byte {
	text = trimCR(text)
	switch l.Kind {
	case KindVersion, KindOther:
		for _, w := range [...]string{"NCCL version", "RCCL version", "HIP version", "ROCm version"} {
			if i := bytes.Index(text, []byte(w)); i >= 0 {
				return text[i:]
			}
		}
	case KindInfo, KindWarn:
		for _, w := range [...]string{" NCCL INFO ", " NCCL WARN ", " NCCL ABORT "} {
			if i := bytes.LastIndex(text, []byte(w)); i >= 0 {
				return trimRayRepeat(text[i+len(w):])
			}
		}
		return oldMessage(text, l.Kind)
	}
	return nil
}

// trimRayRepeat drops the ` [repeated 2x across cluster]` that Ray's log deduplication
// appends to a line it folded: it is not part of NCCL's message.
func trimRayRepeat(msg []byte) []byte {
	const tail = "x across cluster]"
	t := bytes.TrimRight(msg, " \r")
	if !bytes.HasSuffix(t, []byte(tail)) {
		return msg
	}
	i := bytes.LastIndex(t, []byte(" [repeated "))
	if i < 0 {
		return msg
	}
	if _, err := parseDec(t[i+len(" [repeated ") : len(t)-len(tail)]); err != nil {
		return msg
	}
	return t[:i]
}

func joinTrim(parts []string) string { return strings.TrimSpace(strings.Join(parts, "")) }
