package parser

// scanConn reads a per-connection line after its first word (Channel, Ring, CollNet or
// Coll), as gConn does: `00/0 : 0[0] -> 8[0] [send] via NET/IB/0(7)/GDRDMA`, with the
// connection index, the devices, the peer and the direction each optional.
func scanConn(c *setupCur) (Setup, bool) {
	k := Conn{Index: -1, To: -1}
	ok := c.sp()
	if ok {
		k.Channel, ok = c.dec()
	}
	if ok && c.lit("/") {
		k.Index, ok = c.dec()
	}
	if !ok || !c.sp() || !c.lit(":") || !c.sp() {
		return Setup{}, false
	}
	if k.From, k.FromDev, ok = c.rankDev(); !ok {
		return Setup{}, false
	}
	if c.peekSp('-') {
		if !c.sp() || !c.lit("-") || !c.lit(">") || !c.sp() {
			return Setup{}, false
		}
		if k.To, k.ToDev, ok = c.rankDev(); !ok {
			return Setup{}, false
		}
	}
	if c.peekSp('[') {
		if k.Dir, ok = c.connDir(); !ok {
			return Setup{}, false
		}
	}
	if !c.spLit("via") || !c.sp() {
		return Setup{}, false
	}
	via, ok := c.rest()
	if !ok || len(via) == 0 {
		return Setup{}, false
	}
	k.Via = trimmed(via)
	k.Transport, k.Net, k.GDR = transportClass(k.Via)
	return Setup{Kind: SetupConn, Conn: k}, true
}

// rankDev reads a rank and the `[dev]` that may follow it.
func (c *setupCur) rankDev() (rank int64, dev string, ok bool) {
	if rank, ok = c.dec(); !ok || !c.peek('[') {
		return rank, "", ok
	}
	c.i++
	w, ok := c.word()
	if !ok || !c.lit("]") {
		return 0, "", false
	}
	return rank, string(w), true
}

// connDir reads ` [send]` or ` [receive]`.
func (c *setupCur) connDir() (string, bool) {
	if !c.sp() || !c.lit("[") {
		return "", false
	}
	w, ok := c.word()
	if !ok || !c.lit("]") {
		return "", false
	}
	switch string(w) {
	case "send":
		return "send", true
	case "receive":
		return "receive", true
	}
	return "", false
}
