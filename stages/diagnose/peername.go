package diagnose

import (
	"strconv"
	"strings"
	"unicode"
)

// addrBook finds the process that printed an address as its own at init.
type addrBook map[string]*Addr

func newAddrBook(as []Addr) addrBook {
	ab := make(addrBook, len(as))
	for i := range as {
		ab[as[i].Addr] = &as[i]
	}
	return ab
}

// lookup is the record of the address a WARN names (`10.1.2.3`, `fe80::1%ib0`), nil where no
// process printed it as its own, or processes of several hosts did.
func (ab addrBook) lookup(addr string) *Addr {
	if addr == "" {
		return nil
	}
	a := ab[string(normAddr([]byte(addr)))]
	if a == nil || a.ManyHosts || a.Host == "" {
		return nil
	}
	return a
}

// name is the process an address belongs to: host:pid where one process printed it, else
// the host.
func (a *Addr) name() string {
	if a.Pid >= 0 {
		return a.Host + ":" + strconv.FormatInt(a.Pid, 10)
	}
	return a.Host
}

// named ties c's peer to the process that printed its address addr.
func (c *cand) named(a *Addr, addr string) {
	c.peerRec, c.peerAddr = a, addr
}

// peerShown is c's peer as a finding names it: `host:pid (10.1.2.3)` or `host (10.1.2.3)`
// where the log tells whose address it is, else as printed.
func (c *cand) peerShown() string {
	if c.peerRec == nil {
		return c.peer
	}
	return c.peerRec.name() + " (" + c.peerAddr + ")"
}

// peerPrinted is the peer as the WARN printed it.
func (c *cand) peerPrinted() string {
	if c.peerAddr != "" {
		return c.peerAddr
	}
	return c.peer
}

// namePeer finds whose address the peer of c is, where no step before did: the peer of an
// NCCL exception's last error, or the peer a network error names (`Got completion from peer
// 10.1.2.3<port>`, `Connect to 10.1.2.3<port> failed : Connection refused`).
func (b *builder) namePeer(c *cand) {
	if c.peerRec != nil {
		return
	}
	addr := c.peer
	if addr == "" && c.kind == KindNetworkError {
		for _, it := range c.items {
			if it.Ev == evNetError && (strings.Contains(it.Text, "peer") || refused(it.Text)) {
				addr = peerAddr([]byte(it.Text))
				break
			}
		}
	}
	if a := b.addrs.lookup(addr); a != nil {
		c.named(a, addr)
	}
}

// withPeer adds to a summary whose process the peer is, where the summary does not say.
func (c *cand) withPeer(s string) string {
	if c.peerRec == nil || strings.Contains(s, c.peerShown()) {
		return s
	}
	return strings.TrimSuffix(s, ".") + "; the peer " + c.peerAddr + " is " + c.peerRec.name() + "."
}

// peerFields adds the peer's host, process and the line that maps its address to f.
func (c *cand) peerFields(f *Finding) {
	a := c.peerRec
	if a == nil {
		return
	}
	if c.follows < 0 {
		if !contains(f.Hosts, a.Host) {
			f.Hosts = append(f.Hosts, a.Host)
		}
		if a.Pid >= 0 && !contains(f.Processes, a.name()) {
			f.Processes = append(f.Processes, a.name())
		}
	}
	ref := Ref{File: a.File, Line: a.Line, Text: a.Text}
	at := min(1, len(f.Evidence))
	f.Evidence = append(f.Evidence[:at], append([]Ref{ref}, f.Evidence[at:]...)...)
	if len(f.Evidence) > maxRefs {
		f.Evidence = f.Evidence[:maxRefs]
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// refused: a connect that found nothing listening at the peer's address (`socketStartConnect:
// Connect to 10.1.2.3<port> failed : Connection refused`): the peer's process is gone or never
// started, so the peer, not the network, is the likely origin.
func refused(text string) bool {
	return strings.Contains(text, "Connect to") && strings.Contains(text, "Connection refused")
}

// ownHostPeer is the host of c's processes where the peer that closed their connection is
// that host itself (`Connection closed by remote peer gpu-a.cluster.local` logged by gpu-a's
// process; the peer is filed by the log's host it names, see hostNamed), "" otherwise: the
// peer was another process of the same host, not a remote node that went away.
func ownHostPeer(c *cand) string {
	if len(c.procs) == 0 || c.peerRec != nil {
		return ""
	}
	for _, p := range c.procs {
		if p.host != c.peer {
			return ""
		}
	}
	return c.peer
}

// hostNamed is the log's host that a peer's name names: the host of that name, or the one
// host whose name's first label is the name's (NCCL prints a peer's full name,
// `gpu-b.cluster.internal`, where the envelopes have `gpu-b`); "" where none, or several,
// is. The log's hosts are those of its processes and of the addresses they printed.
func (b *builder) hostNamed(name string) string {
	if b.byLabel == nil {
		b.byLabel = map[string]string{}
		see := func(h string) {
			first, _, _ := strings.Cut(h, ".")
			if o, ok := b.byLabel[first]; ok && o != h {
				h = "" // two hosts of one first label: the name names neither
			}
			b.byLabel[first] = h
		}
		for h := range b.x.hostPid {
			see(h)
		}
		for _, a := range b.addrs {
			if !a.ManyHosts && a.Host != "" {
				see(a.Host)
			}
		}
	}
	first, _, dotted := strings.Cut(name, ".")
	h := b.byLabel[first]
	if h != "" && (h == name || dotted && strings.ContainsFunc(first, unicode.IsLetter)) {
		return h // the host itself, or its full name (not an address's number)
	}
	if base, ok := interfaceName(first); ok {
		return b.byLabel[base]
	}
	return ""
}

// interfaceName reports whether label names one of a host's network interfaces, as clusters
// name a node's address on its fast network (`qgpu2017-ib0` for node qgpu2017, `n01-hsn0`),
// and the host's own label before it.
func interfaceName(label string) (string, bool) {
	i := strings.LastIndexByte(label, '-')
	if i <= 0 {
		return "", false
	}
	iface := strings.TrimRight(label[i+1:], "0123456789")
	switch iface {
	case "ib", "ipoib", "eth", "hsn", "opa", "roce", "en", "bond", "data":
		return label[:i], true
	}
	return "", false
}

// loopback reports whether a peer a WARN names is the host itself: `localhost`, an address
// of 127.0.0.0/8, or ::1.
func loopback(peer string) bool {
	return peer == "localhost" || strings.HasPrefix(peer, "127.") || peer == "::1"
}

// ownLoopback files a connection closed by a peer on the loopback where the log shows one
// process: no other process of the job is there to have gone away (a one-GPU nccl-tests run
// over lo, a single process's paste), so the closed socket is that process's own network
// error, which its proxy or bootstrap thread met.
func (b *builder) ownLoopback(it *Item, pos int, p *proc) {
	c := newCand(KindNetworkError, true)
	c.add(it, pos, p)
	b.ownAdd(p, c)
}
