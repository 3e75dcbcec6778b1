package diagnose

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/nccllog/nccllog/parser"
)

// A setting that selects NCCL's network interfaces or devices explains the error NCCL prints
// when nothing matches it: NCCL_SOCKET_IFNAME=eth2 on a host with no eth2 makes
// `Bootstrap : no socket interface found`, `NET/Socket : no interface found`, `NET/IB : No
// IP interface found.`, or a connect to an empty address (`ncclSocketInit: connecting to
// address  with family 59936 is neither AF_INET(2) nor AF_INET6(10)`). NCCL prints the
// setting as an INFO line (`NCCL_SOCKET_IFNAME set by environment to eth2`, `NCCL_IB_HCA set
// to mlx5_9`); it is kept as an evSetting item (Name the variable, Text its value), which no
// finding takes as evidence: a healthy job sets these too. A finding whose error is one of
// those messages names the setting (configCause).

// settingNames are the variables that select interfaces, devices or the network, and the
// graph file that gives the channels' devices (a file made for another machine names GPUs
// this one lacks: `XML Import Channel : dev 1 not found.`).
var settingNames = [...]string{"NCCL_SOCKET_IFNAME", "NCCL_OOB_NET_IFNAME", "NCCL_IB_HCA", "NCCL_NET", "NCCL_GRAPH_FILE"}

// addSetting keeps an INFO line that prints one of settingNames' values; false where the
// line is none. The item is made only then: this runs on every INFO line.
func (p *Part) addSetting(n int64, text []byte, l *parser.Line) bool {
	msg, ok := settingMsg(text)
	if !ok {
		return false
	}
	name, value, ok := envSetting(msg)
	if !ok || len(bytes.TrimSpace(value)) == 0 {
		return false
	}
	it := newItem(evSetting, n, l)
	it.Name, it.Text = name, clip(value)
	p.keep(it)
	return true
}

// settingMsg is the message of an INFO line that starts with `NCCL_`. It looks for the
// underscore first, which most INFO lines lack, rather than for ` NCCL INFO NCCL_`, whose
// search stops at every space: this runs on every INFO line.
func settingMsg(text []byte) ([]byte, bool) {
	const head = " NCCL INFO NCCL_"
	for at := 0; ; {
		i := bytes.IndexByte(text[at:], '_')
		if i < 0 {
			return nil, false
		}
		u := at + i
		if u+1 >= len(head) && string(text[u+1-len(head):u+1]) == head {
			return text[u+1-len("NCCL_"):], true
		}
		at = u + 1
	}
}

// envSetting reads `NAME set by environment to VALUE` and `NAME set to VALUE` for the names
// of settingNames.
func envSetting(msg []byte) (string, []byte, bool) {
	for _, name := range settingNames {
		rest, ok := bytes.CutPrefix(msg, []byte(name))
		if !ok {
			continue
		}
		for _, verb := range [...]string{" set by environment to ", " set to "} {
			if v, ok := bytes.CutPrefix(rest, []byte(verb)); ok {
				return name, v, true
			}
		}
	}
	return "", nil, false
}

// cause is what a setting explains: the phrase that names it, and the error it explains.
type cause struct {
	phrase string
	err    *Item
}

// configCause is the setting that explains c's error, where c's evidence holds an error of
// not finding an interface, a device or a network and the log shows a setting that selects
// them; nil otherwise. The setting its own process printed is preferred, else the first the
// log shows.
func (b *builder) configCause(c *cand) *cause {
	for _, it := range c.items {
		names := settingsFor(it.Text)
		if len(names) == 0 {
			continue
		}
		for _, name := range names {
			if s := b.settingOf(name, c); s != nil {
				return &cause{phrase: b.causePhrase(s, c), err: it}
			}
		}
	}
	return nil
}

// settingsFor is the settings an error's message may follow from, in order of preference.
func settingsFor(text string) []string {
	t := strings.ToLower(text)
	switch {
	case strings.Contains(t, "verify nccl_oob_net_ifname"):
		return []string{"NCCL_OOB_NET_IFNAME"}
	case strings.Contains(t, "interface found") || strings.Contains(t, "is neither af_inet"):
		return []string{"NCCL_SOCKET_IFNAME"}
	case strings.Contains(t, "failed to initialize any net plugin") || (strings.HasPrefix(t, "error: network ") && strings.HasSuffix(t, " not found.")):
		return []string{"NCCL_NET", "NCCL_IB_HCA"}
	case strings.HasPrefix(t, "xml import channel"):
		return []string{"NCCL_GRAPH_FILE"}
	}
	return nil
}

// settingOf is the setting of name that c's process printed, else the first the log shows.
func (b *builder) settingOf(name string, c *cand) *Item {
	var first *Item
	for i := range b.e.Items {
		s := &b.e.Items[i]
		if s.Ev != evSetting || s.Name != name {
			continue
		}
		if first == nil {
			first = s
		}
		for _, p := range c.procs {
			if p.host != "" && p.host == s.Host && p.pid == s.Pid {
				return s
			}
		}
	}
	return first
}

// causePhrase says which setting matched nothing: "no network interface matches
// NCCL_SOCKET_IFNAME=eth2 (set by the environment, as host:12 logged)"; the process is named
// where it is not the finding's own.
func (b *builder) causePhrase(s *Item, c *cand) string {
	what := "no network interface matches"
	switch s.Name {
	case "NCCL_IB_HCA":
		what = "no InfiniBand device matches"
	case "NCCL_NET":
		what = "no network NCCL can load matches"
	}
	set := "set by the environment"
	if s.Host != "" && s.Pid >= 0 && !slicesContainsProc(c.procs, s.Host, s.Pid) {
		set += ", as " + s.Host + ":" + strconv.FormatInt(s.Pid, 10) + " logged"
	}
	if s.Name == "NCCL_GRAPH_FILE" {
		return "the graph file " + s.Name + "=" + s.Text + " (" + set + ") names a GPU this machine lacks"
	}
	return what + " " + s.Name + "=" + s.Text + " (" + set + ")"
}

func slicesContainsProc(ps []*proc, host string, pid int64) bool {
	for _, p := range ps {
		if p.host == host && p.pid == pid {
			return true
		}
	}
	return false
}

// causeSummary is the sentence of a finding a setting explains.
func causeSummary(c *cand, k *cause) string {
	lead := who(c) + " failed first"
	switch c.kind {
	case KindNetworkError:
		lead = who(c) + " had a network error first"
	case KindInitFailure:
		lead = who(c) + ": communicator init never completed"
		if noInterface(k.err.Text) {
			lead = who(c) + " could not start NCCL"
		}
	case KindInvalidUsage:
		lead = who(c) + " made an invalid NCCL call"
	case KindSystemError:
		lead = who(c) + " hit a system error first"
	case KindShm:
		lead = who(c) + " could not make or attach a shared memory segment first"
	case KindTopology:
		lead = who(c) + " could not read the machine's topology first"
	}
	return lead + ": " + k.phrase + ": " + short(k.err.Text)
}
