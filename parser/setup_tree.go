package parser

import (
	"strconv"
	"strings"
)

// setupFromTree turns the grammar's reading into a Setup.
func setupFromTree(t *gSetup) (Setup, bool) {
	switch {
	case t.Version != nil:
		return Setup{Kind: SetupVersion, Name: t.Version.Lib, Text: strings.Join(t.Version.Text, "")}, true
	case t.Driver != nil:
		return Setup{Kind: SetupDriver, Text: t.Driver.Version}, true
	case t.Network != nil:
		return Setup{Kind: SetupNetwork, Text: joinTrim(t.Network.Name)}, true
	case t.NetIB != nil:
		return netIB(t.NetIB), true
	case t.NetSock != nil:
		return netSocket(t.NetSock), true
	case t.Plugin != nil:
		return Setup{Kind: SetupNetPlugin, Name: t.Plugin.Name, Text: joinTrim(t.Plugin.Text)}, true
	case t.Conn != nil:
		return Setup{Kind: SetupConn, Conn: connFromTree(t.Conn)}, true
	case t.Rings != nil:
		return Setup{Kind: SetupRings, Rings: Rings{PXN: optDec(t.Rings.PXN), GDR: optDec(t.Rings.GDR)}}, true
	case t.Channels != nil:
		return Setup{Kind: SetupChannels, Channels: channelsFromTree(t.Channels)}, true
	case t.Env != nil:
		return envFromTree(t.Env), true
	case t.Tuning != nil:
		return tuningFromTree(t.Tuning)
	case t.Timings != nil:
		return timingsFromTree(t.Timings)
	case t.Boot != nil:
		total, err := strconv.ParseFloat(t.Boot.Total, 64)
		return Setup{Kind: SetupBootTimings, Timing: Timing{Rank: -1, NRanks: -1, Total: total, Parts: partsText(t.Boot.Parts)}}, err == nil
	case t.Back != nil:
		b := t.Back
		return Setup{Kind: SetupBacktrace, Frame: Frame{File: strings.Join(b.File, ""), Line: int64(b.Line),
			Func: b.Func, Result: int64(b.Result), Thread: joinTrim(b.Thread)}}, true
	}
	return Setup{}, false
}

func netIB(t *gNetIB) Setup {
	nics := make([]string, 0, len(t.NICs))
	for _, n := range t.NICs {
		nics = append(nics, strings.Join(n.Text, ""))
	}
	if t.RO {
		nics = append(nics, "[RO]")
	}
	return Setup{Kind: SetupNetIB, Name: t.Name, Text: strings.Join(nics, " ")}
}

func netSocket(t *gNetSocket) Setup {
	ifs := make([]string, 0, len(t.Ifs))
	for _, i := range t.Ifs {
		ifs = append(ifs, i.Name)
	}
	return Setup{Kind: SetupNetSocket, Text: strings.Join(ifs, " ")}
}

func channelsFromTree(t *gChannels) Channels {
	c := Channels{Coll: int64(t.Coll), CollNet: -1, NVLS: -1, P2P: -1, PerPeer: -1}
	for _, o := range t.Other {
		switch {
		case o.What == "collnet":
			c.CollNet = int64(o.N)
		case o.What == "nvls":
			c.NVLS = int64(o.N)
		case o.PerPeer:
			c.PerPeer = int64(o.N)
		default:
			c.P2P = int64(o.N)
		}
	}
	return c
}

// envFromTree keeps the value as printed, without the period after a numeric value.
func envFromTree(t *gEnv) Setup {
	v := joinTrim(t.Value)
	if n := strings.TrimSuffix(v, "."); n != v {
		if _, err := strconv.ParseInt(n, 10, 64); err == nil {
			v = n
		} else if _, err := strconv.ParseUint(n, 10, 64); err == nil {
			v = n
		}
	}
	return Setup{Kind: SetupEnv, Name: t.Name, Text: v}
}

// Algorithm and protocol names by the ids 2.20–2.23 print (§2.4).
var (
	algoNames  = [...]string{"TREE", "RING", "COLLNET_DIRECT", "COLLNET_CHAIN", "NVLS", "NVLS_TREE", "PAT"}
	protoNames = [...]string{"LL", "LL128", "SIMPLE"}
)

func enumName(s string, names []string) string {
	if n, err := strconv.Atoi(s); err == nil && n >= 0 && n < len(names) {
		return names[n]
	}
	return s
}

func tuningFromTree(t *gTuning) (Setup, bool) {
	tu := Tuning{Op: t.Op, Bytes: int64(t.Bytes), Algo: enumName(t.Algo, algoNames[:]), Proto: enumName(t.Proto, protoNames[:])}
	return Setup{Kind: SetupTuning, Tuning: tu}, true
}

func timingsFromTree(t *gTimings) (Setup, bool) {
	total, err := strconv.ParseFloat(t.Total, 64)
	tm := Timing{API: t.API, Rank: int64(t.Rank), NRanks: int64(t.NRanks), Total: total, Parts: partsText(t.Parts)}
	return Setup{Kind: SetupTimings, Timing: tm}, err == nil
}

func partsText(ps []*gTiming) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.Name + " " + p.Value
	}
	return strings.Join(s, ", ")
}

func connFromTree(t *gConn) Conn {
	c := Conn{Channel: int64(t.Channel), Index: optDec(t.Index), From: int64(t.From), To: optDec(t.To),
		FromDev: t.FromDev, ToDev: t.ToDev, Dir: t.Dir, Via: joinTrim(t.Via)}
	c.Transport, c.Net, c.GDR = transportClass(c.Via)
	return c
}

// transportClass names a connection's transport without what differs from link to link by
// design (the NET device index, the PXN proxy rank, an indirect peer): NET/IB/0(7)/GDRDMA is
// NET/IB/GDRDMA, P2P/indirect/3[3] is P2P/indirect.
func transportClass(via string) (class string, net, gdr bool) {
	parts := strings.Split(via, "/")
	if len(parts) < 2 || parts[0] != "NET" && parts[0] != "COLLNET" {
		if len(parts) >= 2 && parts[1] == "indirect" {
			return "P2P/indirect", false, false
		}
		return via, false, false
	}
	out := []string{parts[0]}
	i := 1
	for ; i < len(parts) && !startsWithDigit(parts[i]); i++ {
		out = append(out, parts[i])
	}
	for _, p := range parts[min(i+1, len(parts)):] {
		if p == "GDRDMA" || strings.HasPrefix(p, "GDRDMA(") {
			gdr = true
		}
		out = append(out, p)
	}
	return strings.Join(out, "/"), true, gdr
}

func startsWithDigit(s string) bool { return s != "" && isDigit(s[0]) }
