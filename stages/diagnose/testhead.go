package diagnose

import (
	"bytes"
	"strconv"

	"github.com/nccllog/nccllog/stages"
)

// nccl-tests list the ranks they drive before the first result, one line each:
//
//	#  Rank  0 Group  0 Pid 209227 on a100-node-0 device  0 [0x07] NVIDIA A100-SXM4-80GB   (2.13 and later)
//	#  Rank  0 Pid  12345 on node03 device  0 [0x04] Tesla P100-SXM2-16GB                   (2.x)
//	#   Rank  0 on     node03 device  0 [0x00] Tesla P100-PCIE-16GB                          (1.x)
//
// Each ties a rank to its host, its process where printed, and its GPU: an item of no
// finding's evidence (evTestRank), from which the process index learns them, and from which
// a failure line that names no process (`node1: Test NCCL failure ...` with no trail line
// below it, 1.x's bare `NCCL failure ...`) learns the one the header names.

// maxTestRankFields bounds the words of a header line read: `# Rank R Group G Pid P on H
// device D` is 11.
const maxTestRankFields = 11

// mayBeTestRank reports whether t may be a header's rank line: `#`, blanks, `Rank `.
func mayBeTestRank(t []byte) bool {
	return t[0] == '#' && bytes.HasPrefix(bytes.TrimLeft(t[1:], " "), []byte("Rank "))
}

// addTestRank keeps t, other text past a label, where it is a header's rank line.
func (p *Part) addTestRank(l *stages.Line, t []byte) {
	f := bytes.Fields(t[:min(len(t), 256)])
	if len(f) < 7 || string(f[0]) != "#" {
		return
	}
	f = f[1:min(len(f), maxTestRankFields)]
	it := newItem(evTestRank, l.N, l.P)
	for i := 0; i+1 < len(f) && it.GPU < 0; i += 2 { // the device ends what is read
		k, v := string(f[i]), f[i+1]
		n, err := strconv.ParseInt(string(v), 10, 64)
		switch {
		case k == "Rank" && err == nil && n >= 0:
			it.Rank, it.RankLast = n, n
		case k == "Pid" && err == nil && n >= 0:
			it.Pid = n
		case k == "Group" && err == nil:
		case k == "on" && hostWord(v):
			it.Host = string(clipBytes(v, maxHostLen))
		case k == "device" && err == nil && n >= 0:
			it.GPU = n
		default:
			return
		}
	}
	if it.Rank < 0 || it.Host == "" || it.GPU < 0 {
		return
	}
	p.keep(it)
}

// testHeadProcs gives each nccl-tests result line that names no process (no trail line gave
// it one) the process the header names: on its host, the one pid the header lists there; with
// no host (1.x), the header's one host and its one pid where it lists one. Items are the
// Evidence's, changed in place as pairTestTrails changes them.
func testHeadProcs(items []Item) {
	hosts := map[string]int64{} // host -> its one pid, -1 where none printed, -2 where several
	for i := range items {
		if it := &items[i]; it.Ev == evTestRank {
			if pid, ok := hosts[it.Host]; ok && pid != it.Pid {
				hosts[it.Host] = -2
			} else {
				hosts[it.Host] = it.Pid
			}
		}
	}
	if len(hosts) == 0 {
		return
	}
	for i := range items {
		it := &items[i]
		if it.Pid >= 0 || it.Ev != evException && it.Ev != evCuda || !isTestFailure(it) {
			continue
		}
		if it.Host == "" && len(hosts) == 1 {
			for h := range hosts {
				it.Host = h
			}
		}
		if pid, ok := hosts[it.Host]; ok && pid >= 0 {
			it.Pid = pid
		}
	}
}
