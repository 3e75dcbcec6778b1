package parser

import "bytes"

// scanSetup is the fast path in front of the set-up grammar for the set-up messages a job
// prints once per connection, communicator or process (per-connection lines, Connected all
// rings, the channel counts, Init and Bootstrap timings, the network lines, the version and
// the driver): with thousands of ranks they are most of an init-heavy log, and the grammar
// takes a few hundred microseconds over each.
//
// It reads a message trimmed as ParseSetup trims it, token by token with the lexer's own
// token functions, and follows the grammar's alternative for the message's first word. It
// answers (true) only where the whole message is in the form it knows, and then s is what
// the grammar returns; anywhere else (an odd token, a number parseDec refuses, a part of
// the form it does not read) it reports false and the grammar, the parser of record,
// decides. FuzzSetupScanAgrees holds it to that.
func scanSetup(msg []byte) (Setup, bool) {
	s, ok := scanSetupKind(msg)
	if !ok || !maybeSetup(msg) { // the grammar is not asked about what maybeSetup turns away
		return Setup{}, false
	}
	return s, true
}

// scanSetupKind reads msg by the grammar's alternative for its first word.
func scanSetupKind(msg []byte) (Setup, bool) {
	c := setupCur{b: msg}
	first, ok := c.word()
	if !ok {
		return Setup{}, false
	}
	switch string(first) {
	case "Channel", "Ring", "CollNet", "Coll":
		return scanConn(&c)
	case "Connected":
		return scanRings(&c)
	case "Init":
		return scanInitTimings(&c)
	case "Bootstrap":
		return scanBootTimings(&c)
	case "Using":
		return scanNetwork(&c)
	case "NET":
		return scanNet(&c)
	case "NCCL", "RCCL", "HIP", "ROCm":
		return scanVersion(&c, first)
	case "cudaDriverVersion":
		return scanDriver(&c)
	}
	if isDigit(first[0]) {
		c.i = 0
		return scanChannels(&c)
	}
	return Setup{}, false
}

// scanRings reads `Connected all rings[, use ring PXN p GDR g]` after its first word.
func scanRings(c *setupCur) (Setup, bool) {
	if !c.sp() || !c.lit("all") || !c.sp() || !c.lit("rings") {
		return Setup{}, false
	}
	r := Rings{PXN: -1, GDR: -1}
	if !c.end() {
		var ok1, ok2 bool
		if !c.lit(",") || !c.spLit("use") || !c.spLit("ring") || !c.spLit("PXN") || !c.sp() {
			return Setup{}, false
		}
		r.PXN, ok1 = c.dec()
		if !ok1 || !c.spLit("GDR") || !c.sp() {
			return Setup{}, false
		}
		if r.GDR, ok2 = c.dec(); !ok2 || !c.end() {
			return Setup{}, false
		}
	}
	return Setup{Kind: SetupRings, Rings: r}, true
}

// scanChannels reads `N coll channels[, N collnet|nvls|p2p channels[ per peer]]...`.
func scanChannels(c *setupCur) (Setup, bool) {
	coll, ok := c.dec()
	if !ok || !c.spLit("coll") || !c.spLit("channels") {
		return Setup{}, false
	}
	ch := Channels{Coll: coll, CollNet: -1, NVLS: -1, P2P: -1, PerPeer: -1}
	for c.lit(",") {
		if !c.sp() {
			return Setup{}, false
		}
		n, ok := c.dec()
		if !ok || !c.sp() {
			return Setup{}, false
		}
		what, _ := c.word()
		if !c.spLit("channels") {
			return Setup{}, false
		}
		perPeer := c.spLit("per")
		if perPeer && !c.spLit("peer") {
			return Setup{}, false
		}
		switch { // as channelsFromTree: a later count of a kind wins
		case string(what) == "collnet":
			ch.CollNet = n
		case string(what) == "nvls":
			ch.NVLS = n
		case string(what) != "p2p":
			return Setup{}, false
		case perPeer:
			ch.PerPeer = n
		default:
			ch.P2P = n
		}
	}
	if !c.end() {
		return Setup{}, false
	}
	return Setup{Kind: SetupChannels, Channels: ch}, true
}

// scanDriver reads `cudaDriverVersion 12020` after its first word.
func scanDriver(c *setupCur) (Setup, bool) {
	if !c.sp() {
		return Setup{}, false
	}
	w, ok := c.word()
	if !ok || !c.end() {
		return Setup{}, false
	}
	return Setup{Kind: SetupDriver, Text: string(w)}, true
}

// scanVersion reads `NCCL version 2.21.5+cuda12.4` and RCCL's `RCCL version : 2.26.6-HEAD:x`
// (and its HIP and ROCm header lines) after the library's name: the version is the run of
// Words, '-' and ':' after it; what follows is not kept.
func scanVersion(c *setupCur, lib []byte) (Setup, bool) {
	if !c.sp() || !c.lit("version") || !c.sp() {
		return Setup{}, false
	}
	if c.peek(':') && (!c.lit(":") || !c.sp()) {
		return Setup{}, false // `version :2.1`: the grammar reads the ':' as the version's
	}
	from := c.i
	for {
		t, end, hpt := c.tok()
		if len(t) == 0 || hpt || isSp(t[0]) || isPunct(t[0]) && t[0] != '-' && t[0] != ':' {
			break
		}
		c.i = end
	}
	text := c.b[from:c.i]
	if len(text) == 0 {
		return Setup{}, false
	}
	if _, ok := c.rest(); !ok {
		return Setup{}, false
	}
	return Setup{Kind: SetupVersion, Name: libName(lib), Text: string(text)}, true
}

// libName returns the library's name without allocating.
func libName(b []byte) string {
	for _, n := range [...]string{"NCCL", "RCCL", "HIP", "ROCm"} {
		if string(b) == n {
			return n
		}
	}
	return string(b)
}

// trimmed is the grammar's joinTrim of a run of tokens that is b.
func trimmed(b []byte) string { return string(bytes.TrimSpace(b)) }
