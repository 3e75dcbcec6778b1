package diff

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nccllog/nccllog/stages/info"
)

// identity compares what the runs are: library versions, processes, hosts, GPUs per host
// and communicators by size.
func identity(l *list, a, b *Side) {
	l.keyedDiff("", versions(a.Info), versions(b.Info))
	l.count("processes", int64(a.Info.Processes), int64(b.Info.Processes))
	l.count("hosts", int64(len(a.Info.Hosts)), int64(len(b.Info.Hosts)))
	ha, hb := hostSet(a.Info), hostSet(b.Info)
	l.setDiff("hosts", ha, hb)
	l.text("GPUs per host", gpusPerHost(a.Info), gpusPerHost(b.Info))
	l.count("communicators", int64(len(a.Info.Comms)), int64(len(b.Info.Comms)))
	l.text("communicator sizes", commSizes(a.Info), commSizes(b.Info))
}

// versions is each versioned thing (NCCL version, CUDA driver, RCCL, ...) and the versions
// the run printed for it.
func versions(r *info.InfoReport) map[string]string {
	sets := map[string]map[string]struct{}{}
	add := func(what, v string) {
		if sets[what] == nil {
			sets[what] = map[string]struct{}{}
		}
		sets[what][v] = struct{}{}
	}
	for _, v := range r.Versions {
		what, val := v.What, v.Value
		if what == "version" {
			what, val = splitLib(val)
		}
		add(what, val)
	}
	for _, v := range r.BareVersions {
		add(v.Lib+" version", v.Version)
	}
	out := map[string]string{}
	for k, s := range sets {
		out[k] = joinSet(dropShort(s))
	}
	return out
}

// dropShort removes a version that another of the set extends with a build suffix: PyTorch's
// error text says "NCCL version 2.21.5" where NCCL's own line says 2.21.5+cuda12.4.
func dropShort(s map[string]struct{}) map[string]struct{} {
	for v := range s {
		for w := range s {
			if strings.HasPrefix(w, v+"+") {
				delete(s, v)
				break
			}
		}
	}
	return s
}

// splitLib splits "NCCL version 2.21.5+cuda12.4" into "NCCL version" and the version, so
// that a bare line's version and an envelope's compare as one thing.
func splitLib(v string) (string, string) {
	if i := strings.Index(v, " version "); i > 0 {
		return v[:i+len(" version")], v[i+len(" version "):]
	}
	return "version", v
}

func hostSet(r *info.InfoReport) map[string]struct{} {
	s := map[string]struct{}{}
	for _, h := range r.Hosts {
		s[h.Host] = struct{}{}
	}
	return s
}

// gpusPerHost is the distinct GPU counts of the hosts, with how many hosts have each.
func gpusPerHost(r *info.InfoReport) string {
	return multiset(r.Hosts, func(h info.HostRow) int64 { return int64(len(h.GPUs)) }, "host")
}

// commSizes is the distinct communicator sizes, with how many communicators have each.
func commSizes(r *info.InfoReport) string {
	return multiset(r.Comms, func(c info.CommRow) int64 { return c.NRanks }, "communicator")
}

// multiset writes the distinct values of rows, largest first, each with its count: "8 on 2
// hosts". A value of 0 or less is one the log does not show (a host with no GPU line, a
// communicator whose size was not printed): it is written "unknown", not as a count of 0.
func multiset[T any](rows []T, value func(T) int64, noun string) string {
	n := map[int64]int{}
	for _, r := range rows {
		n[max(value(r), 0)]++
	}
	keys := make([]int64, 0, len(n))
	for k := range n {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	slices.Reverse(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		v := strconv.FormatInt(k, 10)
		if k <= 0 {
			v = "unknown"
		}
		parts = append(parts, fmt.Sprintf("%s on %d %s", v, n[k], plural(noun, n[k])))
	}
	if len(parts) == 0 {
		return Absent
	}
	return strings.Join(parts, ", ")
}

func plural(noun string, n int) string {
	if n == 1 {
		return noun
	}
	if strings.HasSuffix(noun, "s") {
		return noun + "es"
	}
	return noun + "s"
}
