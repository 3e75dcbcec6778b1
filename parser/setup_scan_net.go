package parser

// scanNetwork reads `Using network IB` after its first word.
func scanNetwork(c *setupCur) (Setup, bool) {
	if !c.spLit("network") || !c.sp() {
		return Setup{}, false
	}
	r, ok := c.rest()
	if !ok || len(r) == 0 {
		return Setup{}, false
	}
	return Setup{Kind: SetupNetwork, Text: networkName(trimmed(r))}, true
}

// networkName returns the common network names as constants, so that a job's thousands of
// `Using network IB` lines share one string.
func networkName(s string) string {
	for _, n := range [...]string{"IB", "Socket"} {
		if s == n {
			return n
		}
	}
	return s
}

// scanNet reads the IB and socket transports' `NET/IB : Using ...` and `NET/Socket : Using
// ...` after their first word.
func scanNet(c *setupCur) (Setup, bool) {
	if !c.lit("/") {
		return Setup{}, false
	}
	w, ok := c.word()
	if !ok {
		return Setup{}, false
	}
	name := ""
	switch string(w) {
	case "IB":
		name = "IB"
	case "IBext":
		name = "IBext"
	case "Socket":
		return scanNetSocket(c)
	default:
		return Setup{}, false
	}
	return scanNetIB(c, name)
}

// netUsing reads ` : Using` (the space before the colon optional).
func (c *setupCur) netUsing() bool {
	c.sp()
	return c.lit(":") && c.spLit("Using")
}

// scanNetIB reads `: Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB eth0:10.0.0.1<0>`: the
// NICs as printed, then [RO], each optional.
func scanNetIB(c *setupCur, name string) (Setup, bool) {
	if !c.netUsing() {
		return Setup{}, false
	}
	var buf [128]byte
	text := buf[:0]
	for c.peekSp('[') {
		c.sp()
		c.i++ // '['
		w, ok := c.word()
		if !ok || !c.lit("]") {
			return Setup{}, false
		}
		if string(w) == "RO" {
			text = appendSep(text, c.b[c.i-len("[RO]"):c.i])
			break
		}
		nic := c.ibNIC()
		if len(nic) == 0 {
			return Setup{}, false
		}
		text = appendSep(text, nic)
	}
	c.sp()
	if !c.lit(";") || !c.spLit("OOB") || !c.sp() {
		return Setup{}, false
	}
	if _, ok := c.rest(); !ok {
		return Setup{}, false
	}
	return Setup{Kind: SetupNetIB, Name: name, Text: string(text)}, true
}

// ibNIC takes a NIC as gIBNIC reads it: a run of Words, ':' and '/'.
func (c *setupCur) ibNIC() []byte {
	from := c.i
	for {
		t, end, hpt := c.tok()
		if len(t) == 0 || hpt || isSp(t[0]) || isPunct(t[0]) && t[0] != ':' && t[0] != '/' {
			return c.b[from:c.i]
		}
		c.i = end
	}
}

// appendSep appends s to text, after a space where text is not empty.
func appendSep(text, s []byte) []byte {
	if len(text) > 0 {
		text = append(text, ' ')
	}
	return append(text, s...)
}

// scanNetSocket reads `: Using [0]eth0:10.0.0.1<0> [1]eth1:...`: the interfaces' names.
func scanNetSocket(c *setupCur) (Setup, bool) {
	if !c.netUsing() || !c.peekSp('[') {
		return Setup{}, false
	}
	var buf [64]byte
	text := buf[:0]
	for c.peekSp('[') {
		c.sp()
		c.i++ // '['
		if _, ok := c.word(); !ok || !c.lit("]") {
			return Setup{}, false
		}
		ifName, ok := c.word()
		if !ok {
			return Setup{}, false
		}
		text = appendSep(text, ifName)
		for { // the address, not kept
			t, end, hpt := c.tok()
			if len(t) == 0 || hpt || isSp(t[0]) {
				break
			}
			c.i = end
		}
	}
	if !c.end() {
		return Setup{}, false
	}
	return Setup{Kind: SetupNetSocket, Text: string(text)}, true
}
