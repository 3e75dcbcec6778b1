package info

import (
	"cmp"
	"slices"
	"strings"
)

// InfoReport is what `nccllog info` prints.
type InfoReport struct {
	// Outliers are the per-rank facts where some ranks differ from the majority; empty on a
	// uniform job.
	Outliers     []Outlier     `json:"outliers"`
	Processes    int           `json:"processes"`
	Versions     []FactRow     `json:"versions"`
	BareVersions []BareVersion `json:"bare_versions"`
	Hosts        []HostRow     `json:"hosts"`
	Ranks        []ProcRow     `json:"ranks"`
	Comms        []CommRow     `json:"comms"`
	// CommsNotListed counts the Init lines of the communicators past the first MaxComms,
	// which Comms does not list (and the count of communicators per process does not compare).
	CommsNotListed int64 `json:"comms_not_listed,omitempty"`
	// CommsNotWhole counts the communicators whose init the log does not hold whole: fewer
	// ranks than their size, or a rank with Init START and no COMPLETE (an excerpt, one
	// node's log, an init running or hung where the log ends). Where there are any, the
	// count of communicators per process is not compared.
	CommsNotWhole int          `json:"comms_not_whole,omitempty"`
	Network       []FactRow    `json:"network"`
	Env           []FactRow    `json:"env"`
	Tuning        []TuneRow    `json:"tuning"`
	Timings       []TimingRow  `json:"init_timings"`
	Warns         []WarnRow    `json:"warns"`
	Errors        []ErrorRow   `json:"errors"`
	FirstWarn     *FirstWarn   `json:"first_warn"`
	Missing       []MissingRow `json:"missing"`
}

// FactRow is one value of a per-process fact and the processes that printed it.
type FactRow struct {
	What      string   `json:"what"`
	Value     string   `json:"value"`
	Processes int      `json:"processes"`
	Ranks     []int64  `json:"ranks"`
	Hosts     []string `json:"hosts"`
}

// Label is a version row as the identity section prints it: the version alone, or what it is
// of (CUDA driver) before it.
func (f FactRow) Label() string {
	if f.What == "version" {
		return f.Value
	}
	return f.What + " " + f.Value
}

// ProcRow is one process: its rank in the largest communicator it initialised (-1: no Init
// line names it) and that communicator's size.
type ProcRow struct {
	Host   string  `json:"host"`
	Pid    int64   `json:"pid"`
	Rank   int64   `json:"rank"`
	Ranks  []int64 `json:"all_ranks"` // all its ranks there, where it drives several GPUs
	NRanks int64   `json:"nranks"`
}

// HostRow is one host: its processes and GPUs.
type HostRow struct {
	Host      string `json:"host"`
	Processes int    `json:"processes"`
	GPUs      []GPU  `json:"gpus"`
}

// CommRow is one communicator.
type CommRow struct {
	Comm      string    `json:"comm"`
	NRanks    int64     `json:"nranks"`
	RanksSeen int       `json:"ranks_seen"`
	Hosts     int       `json:"hosts"`
	Layout    []string  `json:"layout"`
	Channels  []string  `json:"channels"`
	Rings     []string  `json:"rings"`
	Transport string    `json:"transport"`
	Links     []LinkRow `json:"links"`
}

// LinkRow counts a communicator's connections over one transport (NET links once, by
// their [send] line).
type LinkRow struct {
	Transport string `json:"transport"`
	Net       bool   `json:"net"`
	Links     int64  `json:"links"`
}

// WarnRow is one WARN template.
type WarnRow struct {
	Template string   `json:"template"`
	Text     string   `json:"text"`
	Where    string   `json:"where"`
	Count    int64    `json:"count"`
	First    Evidence `json:"first"`
	Last     Evidence `json:"last"`
	Ranks    []int64  `json:"ranks"`
	Hosts    []string `json:"hosts"`
}

// ErrorRow is one root cause: the WARN, the frame where the error started and its result.
type ErrorRow struct {
	Warn       string   `json:"warn"`
	Where      string   `json:"where"`
	Result     int64    `json:"result"`
	ResultName string   `json:"result_name"`
	Outermost  string   `json:"outermost"`
	Chains     int64    `json:"chains"`
	Frames     int64    `json:"frames"`
	Ranks      []int64  `json:"ranks"`
	Hosts      []string `json:"hosts"`
	Evidence   Evidence `json:"evidence"`
}

// MissingRow says which lines a log lacks, what would add them, and what cannot be told.
type MissingRow struct {
	Lines    string `json:"lines"`
	Add      string `json:"add"`
	Disables string `json:"disables"`
}

// Report computes the report. It files the error chains still open, so call it once, after
// the last Merge.
func (in *Info) Report() *InfoReport {
	in.chains.settle()
	in.settleThreads()
	r := &InfoReport{Processes: len(in.procs), BareVersions: in.bare, Tuning: in.tuneRows(), FirstWarn: in.warns.first}
	r.Outliers = in.outliers()
	r.Versions = in.factRows(func(n string) bool { return n == "version" || n == "CUDA driver" })
	r.Network = in.factRows(isNetFact)
	r.Env = in.factRows(func(n string) bool { return strings.HasPrefix(n, "env ") })
	r.Hosts = in.hostRows()
	r.Ranks = in.procRows()
	r.Comms, r.CommsNotListed, r.CommsNotWhole = in.commRows(), in.notListed, in.notWhole()
	r.Timings = in.timingRows()
	r.Warns = in.warnRows()
	r.Errors = in.errorRows()
	r.Missing = in.missing()
	// Empty lists print as [], not null: scripts test their length.
	r.BareVersions, r.Tuning, r.Timings, r.Missing = orEmpty(r.BareVersions), orEmpty(r.Tuning), orEmpty(r.Timings), orEmpty(r.Missing)
	if r.FirstWarn != nil {
		r.FirstWarn.Rank = in.procs[procID{r.FirstWarn.Host, r.FirstWarn.Pid}].label()
	}
	return r
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func isNetFact(n string) bool {
	return n == "network" || strings.HasPrefix(n, "NET/") || strings.HasSuffix(n, " transport")
}

// factRows lists every value of the facts keep selects, most common first.
func (in *Info) factRows(keep func(string) bool) []FactRow {
	by := map[[2]string][]*procInfo{}
	for _, k := range in.procOrder {
		p := in.procs[k]
		for name, f := range p.facts.all() {
			if keep(name) {
				kv := [2]string{name, f.value()}
				by[kv] = append(by[kv], p)
			}
		}
	}
	rows := make([]FactRow, 0, len(by))
	for kv, ps := range by {
		ranks, hosts := ranksHosts(ps)
		rows = append(rows, FactRow{What: kv[0], Value: kv[1], Processes: len(ps), Ranks: ranks, Hosts: hosts})
	}
	slices.SortFunc(rows, func(a, b FactRow) int {
		return cmp.Or(cmp.Compare(a.What, b.What), cmp.Compare(b.Processes, a.Processes), cmp.Compare(a.Value, b.Value))
	})
	return rows
}

// ranksHosts names processes: their ranks (those with one) and their hosts, sorted.
func ranksHosts(ps []*procInfo) ([]int64, []string) {
	ranks := []int64{}
	hs := map[string]struct{}{}
	for _, p := range ps {
		ranks = append(ranks, p.rankList()...)
		hs[p.key.Host] = struct{}{}
	}
	slices.Sort(ranks)
	return slices.Compact(ranks), sortedKeys(hs)
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func (in *Info) hostRows() []HostRow {
	by := map[string]*HostRow{}
	for _, k := range in.procOrder {
		p := in.procs[k]
		h := by[k.Host]
		if h == nil {
			h = &HostRow{Host: k.Host, GPUs: []GPU{}}
			by[k.Host] = h
		}
		h.Processes++
		for g := range p.gpus.all() {
			if !slices.Contains(h.GPUs, g) {
				h.GPUs = append(h.GPUs, g)
			}
		}
	}
	rows := make([]HostRow, 0, len(by))
	for _, name := range sortedKeys(by) {
		h := by[name]
		slices.SortFunc(h.GPUs, func(a, b GPU) int {
			return cmp.Or(cmp.Compare(a.CudaDev, b.CudaDev), cmp.Compare(a.NvmlDev, b.NvmlDev), cmp.Compare(a.BusID, b.BusID))
		})
		rows = append(rows, *h)
	}
	return rows
}

func (in *Info) procRows() []ProcRow {
	rows := make([]ProcRow, 0, len(in.procs))
	for _, k := range in.procOrder {
		p := in.procs[k]
		rows = append(rows, ProcRow{Host: k.Host, Pid: k.Pid, Rank: p.label(), Ranks: orEmpty(p.rankList()), NRanks: p.size})
	}
	slices.SortStableFunc(rows, func(a, b ProcRow) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), cmp.Compare(a.Host, b.Host), cmp.Compare(a.Pid, b.Pid))
	})
	return rows
}

func (in *Info) timingRows() []TimingRow {
	rows := in.slowest()
	for i := range rows {
		if rows[i].Rank < 0 {
			rows[i].Rank = in.procs[procID{rows[i].Host, rows[i].Pid}].label()
		}
	}
	return rows
}
