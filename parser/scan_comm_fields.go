package parser

// commFields are the names gCommField reads before a value, in the order of their bits in
// commReader.fields.
var commFields = [...]string{"cudaDev", "nvmlDev", "busId", "commId", "parent", "splitCount",
	"childCount", "color", "key", "localSize", "nNodes", "localRanks", "localRank", "MNNVL"}

// The indexes of commFields.
const (
	fCudaDev = iota
	fNvmlDev
	fBusID
	fCommID
	fParent
	fSplitCount
	fChildCount
	fColor
	fKey
	fLocalSize
	fNNodes
	fLocalRanks
	fLocalRank
	fMNNVL
)

// commField returns the index of name in commFields, or -1.
func commField(name []byte) int {
	switch string(name) { // a switch on a string compares by length first
	case "cudaDev":
		return fCudaDev
	case "nvmlDev":
		return fNvmlDev
	case "busId":
		return fBusID
	case "commId":
		return fCommID
	case "parent":
		return fParent
	case "splitCount":
		return fSplitCount
	case "childCount":
		return fChildCount
	case "color":
		return fColor
	case "key":
		return fKey
	case "localSize":
		return fLocalSize
	case "nNodes":
		return fNNodes
	case "localRanks":
		return fLocalRanks
	case "localRank":
		return fLocalRank
	case "MNNVL":
		return fMNNVL
	}
	return -1
}

// field reads one `Sp name value` (or `Sp used N bytes (on core W)?`) into ev, as an
// iteration of gComm's field loop does; it returns false where the loop ends (nothing is
// consumed then). A value that commFromTree cannot read sets invalid.
func (c *commReader) field(ev *CommEvent) bool {
	j := spEnd(c.b, c.i)
	if j == c.i {
		return false
	}
	name := word(c.b, j)
	k := j + len(name)
	if string(name) == "used" {
		return c.used(k)
	}
	f := commField(name)
	v := spEnd(c.b, k)
	if f < 0 || v == k {
		return false
	}
	e := v
	if lit(c.b, e, "-") {
		e++
	}
	w := word(c.b, e)
	if len(w) == 0 {
		return false
	}
	e += len(w)
	if !ev.setValue(f, c.b[v:e]) {
		c.invalid = true // the field is read all the same, and the loop goes on
	}
	c.i = e
	c.fields |= 1 << f
	return true
}

// used reads RCCL's `used N bytes` and an optional ` on core W` after "used", which ends at k.
func (c *commReader) used(k int) bool {
	r := *c
	r.i = k
	var n int64
	if !r.sp() {
		return false
	}
	if !r.unsigned(&n) {
		c.bad = true // the grammar may read it some way the scanner does not vouch for
		return false
	}
	if !r.sp() || !r.keyword("bytes") {
		return false
	}
	c.i = r.i
	r.mask |= 4
	if r.sp() && r.keyword("on") && r.sp() && r.keyword("core") && r.sp() && len(word(r.b, r.i)) > 0 {
		c.i = r.i + len(word(r.b, r.i))
		r.mask |= 8
	}
	c.mask = r.mask
	return true
}

// setValue sets the field commFields[f] from its value v, as CommEvent.setField does.
func (ev *CommEvent) setValue(f int, v []byte) bool {
	switch f {
	case fBusID:
		n, err := parseHex(v)
		ev.BusID = n
		return err == nil
	case fCommID, fParent:
		if len(v) < 3 || v[0] != '0' || v[1] != 'x' {
			return false
		}
		n, err := parseHex(v[2:])
		if f == fCommID {
			ev.CommID = n
		} else {
			ev.Parent = n
		}
		return err == nil
	}
	n, err := parseDec(v)
	switch f {
	case fCudaDev:
		ev.CudaDev = n
	case fNvmlDev:
		ev.NvmlDev = n
	case fSplitCount, fChildCount:
		ev.Split = n
	case fColor:
		ev.Color = n
	case fKey:
		ev.Key = n
	case fNNodes:
		ev.NNodes = n
	case fLocalRanks:
		ev.LocalRks = n
	case fLocalRank:
		ev.LocalRk = n
	}
	return err == nil
}

// event reads `Sp? '-' Sp What Sp Phase (',' Sp 'result' Sp N)?` and returns its index in
// commEvents, 0 where the text there is no event (gComm's Rest takes it then).
func (c *commReader) event() (int, bool) {
	r := *c
	r.i = spEnd(r.b, r.i)
	if !lit(r.b, r.i, "-") {
		return 0, true
	}
	r.i++
	if !r.sp() {
		return 0, true
	}
	what := word(r.b, r.i)
	r.i += len(what)
	if !r.sp() {
		return 0, true
	}
	phase := word(r.b, r.i)
	r.i += len(phase)
	idx := commEventIndex(what, phase)
	if idx == 0 {
		return 0, true
	}
	if lit(r.b, r.i, ",") {
		r.i++
		var n int64
		if r.sp() && r.keyword("result") && r.sp() && !r.signed(&n) {
			return 0, false // a result the scanner does not vouch for
		}
	}
	return idx, true
}

// commEventIndex returns the index of `what phase` in commEvents, or 0.
func commEventIndex(what, phase []byte) int {
	var base int
	switch string(what) {
	case "Init":
		base = 1
	case "Destroy":
		base = 3
	case "Abort":
		base = 5
	case "Revoke":
		base = 7
	default:
		return 0
	}
	switch string(phase) {
	case "START":
		return base
	case "COMPLETE":
		return base + 1
	}
	return 0
}
