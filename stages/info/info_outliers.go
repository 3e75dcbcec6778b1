package info

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Outlier is a per-rank fact on which some ranks differ from the majority. Ranks and Hosts
// name only the odd ones.
type Outlier struct {
	What     string   `json:"what"`
	Value    string   `json:"value"`
	Majority string   `json:"majority"`
	Ranks    []int64  `json:"ranks"`
	Hosts    []string `json:"hosts"`
	Evidence string   `json:"evidence"`
}

// factCommunicators is the number of communicators a process initialised. Only ranks with
// fewer than the majority are outliers: frameworks make communicators of a few ranks by
// design (Megatron's embedding group joins the first and last pipeline stages), while a
// rank that lacks one the others have did not get through its init. It is compared only
// where the log shows the job past its init (see Info.commsComparable).
const factCommunicators = "communicators"

func moreThan(a, b string) bool {
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	return err1 == nil && err2 == nil && x > y
}

// notSet is the value of an environment variable a process did not print while it printed
// others. NCCL prints a variable when it first reads it, which can be at the first
// collective: a rank that stopped before it has not printed it either, so the value says
// what the log shows, not that the variable was unset.
const notSet = "(not printed)"

// outliers compares every per-process fact across the processes that state it. A fact a
// process does not print is not a difference (TUNING, ring dumps and, before 2.22, the
// version line come from rank 0 only; a rank whose ring neighbours share its host prints no
// NET link), except an environment variable, which every process that prints its
// environment, where the log holds its set-up whole (procInfo.envWhole), would print if it
// were set.
func (in *Info) outliers() []Outlier {
	vals := in.factValues()
	out := []Outlier{}
	for _, name := range sortedKeys(vals) {
		out = append(out, oddOnes(name, vals[name])...)
	}
	return out
}

type procValue struct {
	p     *procInfo
	value string
	ev    Evidence
	// set is the values a fact's lines gave (value joins them); nil for a derived fact.
	set *smallSet[string]
}

// factValues is every fact's value per process, with the derived ones: the number of
// communicators a process initialised, and variables it did not set.
func (in *Info) factValues() map[string][]procValue {
	vals := map[string][]procValue{}
	envNames := map[string]struct{}{}
	countComms := in.commsComparable()
	for _, k := range in.procOrder {
		p := in.procs[k]
		for name, f := range p.facts.all() {
			vals[name] = append(vals[name], procValue{p, f.value(), f.ev, &f.values})
			if strings.HasPrefix(name, "env ") {
				envNames[name] = struct{}{}
			}
		}
		if p.comms.len() > 0 && countComms {
			vals[factCommunicators] = append(vals[factCommunicators], procValue{p, strconv.Itoa(p.comms.len()), p.first, nil})
		}
	}
	forms := in.envForms()
	for name := range envNames {
		for _, k := range in.procOrder {
			if p := in.procs[k]; p.envWhole(forms) && p.facts.get(name) == nil {
				vals[name] = append(vals[name], procValue{p, notSet, p.first, nil})
			}
		}
	}
	return vals
}

// envForms says how the log shows a process's set-up lines from their start (see
// procInfo.envWhole): by the lines 2.13+ prints there, where some process printed one; by
// the version's bare line (rank 0's first) where it names a version before 2.13 or RCCL.
func (in *Info) envForms() envForms {
	for _, p := range in.procs {
		if p.started {
			return envStarts
		}
	}
	for _, b := range in.bare {
		if m := minorOf(b.Version); b.Lib == "RCCL" || b.Lib == "NCCL" && m >= 0 && m < 13 {
			return envOld
		}
	}
	return envUnknown
}

// minorOf is the minor number of a 2.x version ("2.12.10+cuda11.6": 12), or -1.
func minorOf(v string) int {
	rest, ok := strings.CutPrefix(v, "2.")
	if !ok {
		return -1
	}
	n := 0
	for i := 0; i < len(rest) && rest[i] >= '0' && rest[i] <= '9' && n < 1000; i++ {
		n = n*10 + int(rest[i]-'0')
	}
	if rest == "" || rest[0] < '0' || rest[0] > '9' {
		return -1
	}
	return n
}

// commsComparable: the number of communicators per process says something only where the
// log shows the job past its init. Past the cap the sets are not whole; with a
// communicator not whole in the log, the ranks that lack one may be its missing ones; and
// a log that holds no collective call may end between two communicators' inits (before
// 2.18.3 nothing else tells: there is no Init START).
func (in *Info) commsComparable() bool {
	return in.notListed == 0 && in.counts.Coll > 0 && in.notWhole() == 0
}

// notWhole counts the communicators whose init the log does not hold whole: fewer ranks
// than their size, or a rank with Init START and no COMPLETE. A log cut while a job
// initialises (an excerpt, a job still starting, an init that hangs) has them, and so has
// one node's log of a job on many: the ranks with fewer communicators than the others may
// then be just the ones whose Init lines the log does not hold yet. Their number of
// communicators is then not compared.
func (in *Info) notWhole() int {
	n := 0
	for _, c := range in.comms {
		if !c.whole() {
			n++
		}
	}
	return n
}

// whole: every rank of the communicator is in the log, and none has Init START without
// COMPLETE.
func (c *commInfo) whole() bool {
	if c.nranks > int64(len(c.ranks)) {
		return false
	}
	for _, r := range c.ranks {
		if r.unfinished() {
			return false
		}
	}
	return true
}

// partOf reports whether the values a fact's lines gave a process are some of those they gave
// the majority: where a fact takes several lines (NET/OFI's platform, then its provider),
// a piece of a log can hold a process's first lines only, or its last; the lines it lacks
// are no difference.
func partOf(set, majority *smallSet[string]) bool {
	if set == nil || majority == nil || set.len() >= majority.len() {
		return false
	}
	for v := range set.all() {
		if !majority.has(v) {
			return false
		}
	}
	return true
}

// oddOnes lists the values held by fewer processes than the most common one. With no single
// most common value (two hosts, half and half) no side is the odd one, and nothing is listed.
func oddOnes(name string, pvs []procValue) []Outlier {
	if len(pvs) < 2 {
		return nil
	}
	by := map[string][]procValue{}
	for _, pv := range pvs {
		by[pv.value] = append(by[pv.value], pv)
	}
	if len(by) < 2 {
		return nil
	}
	values := sortedKeys(by)
	slices.SortStableFunc(values, func(a, b string) int { return cmp.Compare(len(by[b]), len(by[a])) })
	if len(by[values[0]]) == len(by[values[1]]) {
		return nil
	}
	var out []Outlier
	for _, v := range values[1:] {
		if name == factCommunicators && moreThan(v, values[0]) || partOf(by[v][0].set, by[values[0]][0].set) {
			continue
		}
		ps := make([]*procInfo, len(by[v]))
		for i, pv := range by[v] {
			ps[i] = pv.p
		}
		ranks, hosts := ranksHosts(ps)
		out = append(out, Outlier{What: name, Value: v, Majority: values[0], Ranks: ranks, Hosts: hosts,
			Evidence: by[v][0].ev.String()})
	}
	return out
}
