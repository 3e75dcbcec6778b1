package info

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages/internal/stagetest"
)

// infoReport reads data line by line, in Infos of chunk lines each (0: one Info) merged in
// order, as the merger does.
func infoReport(t *testing.T, data []byte, chunk int) *InfoReport {
	t.Helper()
	return infoOfParsed(parsedLines(t, data), chunk)
}

// parsed holds the texts parsedLines has read, and the Parser it reads them with.
var parsed struct {
	sync.Mutex
	p     *parser.Parser
	lines map[string][]stagetest.ParsedText
}

// parsedLines is data's lines parsed, each text once for the package's tests, by one Parser
// that learns their shapes as a run's workers do chunk after chunk: the tests read the same
// set-up logs whole, in chunks of several sizes and under several checks, and the grammar
// read every line the scanner leaves to it, and the first lines of each shape, every time.
// An Info only reads the lines it is given; callers must not change them either.
func parsedLines(t *testing.T, data []byte) []stagetest.ParsedText {
	t.Helper()
	parsed.Lock()
	defer parsed.Unlock()
	if lines, ok := parsed.lines[string(data)]; ok {
		return lines
	}
	if parsed.p == nil {
		p, err := parser.NewParser()
		if err != nil {
			t.Fatal(err)
		}
		parsed.p, parsed.lines = p, map[string][]stagetest.ParsedText{}
	}
	lines := stagetest.ParseLines(parsed.p, data)
	parsed.lines[string(data)] = lines
	return lines
}

// infoOfParsed is infoReport over lines already parsed.
func infoOfParsed(lines []stagetest.ParsedText, chunk int) *InfoReport {
	return infoOfParsedSeen(lines, chunk, nil)
}

// infoOfParsedSeen is infoOfParsed with every Info given seen as its memo of set-up
// messages (nil: each its own, as in a run).
func infoOfParsedSeen(lines []stagetest.ParsedText, chunk int, seen map[string]setupSeen) *InfoReport {
	newInfo := func() *Info {
		in := NewInfo()
		if seen != nil {
			in.seen = cacheOf(seen)
		}
		return in
	}
	all, cur := newInfo(), newInfo()
	var n, base int64
	for i := range lines {
		n++
		cur.Add("", n-base, lines[i].Text, &lines[i].P)
		if chunk > 0 && n-base == int64(chunk) {
			cur.Rebase("job.log", base)
			all.Merge(cur)
			cur, base = newInfo(), n
		}
	}
	cur.Rebase("job.log", base)
	all.Merge(cur)
	return all.Report()
}

func setupLog(t *testing.T, c gen.SetupConfig) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := gen.WriteSetup(&b, c); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func describe(os []Outlier) string {
	b, _ := json.MarshalIndent(os, "", " ")
	return string(b)
}

// TestInfoHealthyNoOutliers: a uniform job, one process per GPU or one per host, and one
// host's lines alone (a partial log), list no outlier in any version family.
func TestInfoHealthyNoOutliers(t *testing.T) {
	for _, fam := range gen.SetupFamilies() {
		for _, one := range []bool{false, true} {
			data := setupLog(t, gen.SetupConfig{Family: fam, OneProcess: one})
			if r := infoReport(t, data, 0); len(r.Outliers) != 0 {
				t.Errorf("%s one process %v: outliers on a healthy job:\n%s", fam, one, describe(r.Outliers))
			}
			if r := infoReport(t, onlyHost(data, "node-02"), 0); len(r.Outliers) != 0 {
				t.Errorf("%s one process %v, one host: outliers:\n%s", fam, one, describe(r.Outliers))
			}
		}
	}
}

func onlyHost(data []byte, host string) []byte {
	var out []byte
	for _, l := range bytes.SplitAfter(data, []byte("\n")) {
		if bytes.HasPrefix(l, []byte(host+":")) {
			out = append(out, l...)
		}
	}
	return out
}

// TestInfoFaultIsTheOnlyOutlier: each injected set-up fault is listed, naming only the
// faulted host or rank.
func TestInfoFaultIsTheOnlyOutlier(t *testing.T) {
	const host, rank = 2, 6
	faults := []struct {
		name  string
		cfg   func(*gen.SetupConfig)
		check func(o Outlier) bool
		from  int // first family minor the fault applies to
	}{
		{"sockets", func(c *gen.SetupConfig) { c.SocketHost = gen.Rank(host) }, onHost(host), 0},
		{"no GDR", func(c *gen.SetupConfig) { c.NoGDRHost = gen.Rank(host) }, onHost(host), 0},
		{"env", func(c *gen.SetupConfig) { c.EnvRank = gen.Rank(rank) }, onRank(rank), 0},
		{"version", func(c *gen.SetupConfig) { c.VersionRank = gen.Rank(rank) }, onRank(rank), 22},
	}
	for _, fam := range gen.SetupFamilies() {
		for _, f := range faults {
			if f.from > 0 && (fam == "rccl" || familyMinor(fam) < f.from) {
				continue
			}
			c := gen.SetupConfig{Family: fam}
			f.cfg(&c)
			r := infoReport(t, setupLog(t, c), 0)
			if len(r.Outliers) == 0 {
				t.Errorf("%s %s: no outlier", fam, f.name)
			}
			for _, o := range r.Outliers {
				if !f.check(o) {
					t.Errorf("%s %s: outlier names more than the fault:\n%s", fam, f.name, describe([]Outlier{o}))
				}
			}
		}
	}
}

func familyMinor(fam string) int {
	var minor int
	fmt.Sscanf(strings.TrimPrefix(fam, "2."), "%d", &minor)
	return minor
}

func onHost(h int) func(Outlier) bool {
	return func(o Outlier) bool {
		return slices.Equal(o.Hosts, []string{fmt.Sprintf("node-%02d", h)}) && o.Evidence != ""
	}
}

func onRank(r int) func(Outlier) bool {
	return func(o Outlier) bool {
		return slices.Equal(o.Ranks, []int64{int64(r)}) && len(o.Hosts) == 1 && o.Evidence != ""
	}
}

// TestInfoWarnChain: a WARN and the frames after it on its thread are one root cause, named
// with its ncclResult, in every family; no outlier comes of it.
func TestInfoWarnChain(t *testing.T) {
	for _, fam := range gen.SetupFamilies() {
		r := infoReport(t, setupLog(t, gen.SetupConfig{Family: fam, WarnRank: gen.Rank(5)}), 0)
		if len(r.Outliers) != 0 {
			t.Errorf("%s: outliers:\n%s", fam, describe(r.Outliers))
		}
		if len(r.Errors) != 1 {
			t.Fatalf("%s: %d root causes, want 1: %+v", fam, len(r.Errors), r.Errors)
		}
		e := r.Errors[0]
		if e.ResultName != "RemoteError" || e.Where != "transport/net.cc:1298" || e.Outermost != "proxy.cc:874" ||
			e.Frames != 3 || !strings.Contains(e.Warn, "Got completion from peer") || !slices.Equal(e.Ranks, []int64{5}) {
			t.Errorf("%s: root cause %+v", fam, e)
		}
		if len(r.Warns) != 1 || r.Warns[0].Count != 1 {
			t.Errorf("%s: WARN groups %+v", fam, r.Warns)
		}
		if wantTS := familyMinor(fam) >= 26; (r.FirstWarn != nil) != wantTS || wantTS && r.FirstWarn.Rank != 5 {
			t.Errorf("%s: first WARN %+v", fam, r.FirstWarn)
		}
	}
}

// TestInfoChunkingIndependent: the report is the same however the lines are cut into Infos.
func TestInfoChunkingIndependent(t *testing.T) {
	for _, fam := range gen.SetupFamilies() {
		c := gen.SetupConfig{Family: fam, WarnRank: gen.Rank(3), NoGDRHost: gen.Rank(1), EnvRank: gen.Rank(9)}
		data := setupLog(t, c)
		want := infoReport(t, data, 0)
		for _, chunk := range []int{1, 2, 7, 50} {
			if got := infoReport(t, data, chunk); !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				t.Errorf("%s, chunks of %d lines:\n got %s\nwant %s", fam, chunk, g, w)
			}
		}
	}
}

// TestInfoCommSizeKept: an Init line that reads nranks 0 (NCCL prints none; a damaged line
// does) leaves the communicator's size as its other Init lines give it, read whole or in
// chunks of any size.
func TestInfoCommSizeKept(t *testing.T) {
	initLine := func(rank, nranks int) string {
		return fmt.Sprintf("node-00:%d:%d [%d] NCCL INFO ncclCommInitRank comm 0x7f000000%d000 rank %d nranks %d cudaDev %d nvmlDev %d busId 18000 commId 0x5eed - Init COMPLETE\n",
			4000+rank, 4000+rank, rank, rank+1, rank, nranks, rank, rank)
	}
	data := []byte(initLine(0, 2) + initLine(1, 0))
	for _, chunk := range []int{0, 1} {
		r := infoReport(t, data, chunk)
		if len(r.Comms) != 1 || r.Comms[0].NRanks != 2 {
			t.Errorf("chunks of %d lines: communicators %+v, want one of 2 ranks", chunk, r.Comms)
		}
	}
}

// TestInfoLineAfterOtherComplete: a thread that printed Init START for one commId and
// COMPLETE for another (a damaged line) gives its next set-up line to the COMPLETE's, read
// whole or cut between START and COMPLETE.
func TestInfoLineAfterOtherComplete(t *testing.T) {
	data := []byte(`node-00:4011:4011 [1] NCCL INFO ncclCommInitRank comm 0x7f0000002000 rank 1 nranks 4 cudaDev 1 nvmlDev 1 busId 29000 commId 0xaaa - Init START
node-00:4000:4000 [0] NCCL INFO Channel 01/0 : 3[1] -> 0[0] [receive] via NET/IB/0/GDRDMA
node-00:4011:4011 [1] NCCL INFO ncclCommInitRank comm 0x7f0000002000 rank 1 nranks 4 cudaDev 1 nvmlDev 1 busId 29000 commId 0xbbb localSize 512 used 2099200 bytes on core 11 - Init COMPLETE
node-00:4011:4011 [1] NCCL INFO comm 0x7f0000002000 rank 1 nRanks 4 nNodes 2 localRanks 2 localRank 1 MNNVL 0
`)
	for _, chunk := range []int{0, 1, 2, 3} {
		r := infoReport(t, data, chunk)
		for _, c := range r.Comms {
			if want := c.Comm == "0xbbb"; (len(c.Layout) == 1) != want {
				t.Errorf("chunks of %d lines: communicator %s has layout %q", chunk, c.Comm, c.Layout)
			}
		}
	}
}

// TestInfoMiddlePiece: lines merged into an Info that did not start at the input's start
// (a step's lines, merged before they join the total) wait for the Info that knows their
// thread: a layout line between two COMPLETEs of a thread that printed START earlier
// belongs to the first COMPLETE's communicator.
func TestInfoMiddlePiece(t *testing.T) {
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	initLine := func(id, ev string) string {
		return "node-00:4011:4011 [1] NCCL INFO ncclCommInitRank comm 0x7f0000002000 rank 1 nranks 4 cudaDev 1 nvmlDev 1 busId 29000 commId " + id + " - Init " + ev + "\n"
	}
	layout := "node-00:4011:4011 [1] NCCL INFO comm 0x7f0000002000 rank 1 nRanks 4 nNodes 2 localRanks 2 localRank 1 MNNVL 0\n"
	pieces := []string{initLine("0xaaa", "START"), initLine("0xbbb", "COMPLETE") + layout + initLine("0xccc", "COMPLETE")}
	info := func(text string, base int64) *Info {
		in := NewInfo()
		for i, l := range stagetest.ParseLines(p, []byte(text)) {
			in.Add("", int64(i+1), l.Text, &l.P)
		}
		in.Rebase("job.log", base)
		return in
	}
	want := info(pieces[0]+pieces[1], 0).Report()
	first, middle := info(pieces[0], 0), NewInfo()
	middle.Merge(info(pieces[1], 1))
	first.Merge(middle)
	if got := first.Report(); !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got.Comms)
		w, _ := json.Marshal(want.Comms)
		t.Errorf("merged through a middle piece:\n got %s\nwant %s", g, w)
	}
}

// TestInfoEvidenceEarliest: an outlier's evidence is the first line that printed its value,
// however the lines are cut, though a thread's lines before and between its Init COMPLETE
// lines are given to the communicator only once it is known.
func TestInfoEvidenceEarliest(t *testing.T) {
	complete := func(host string, pid, dev, rank int) string {
		return fmt.Sprintf("%s:%d:%d [%d] NCCL INFO ncclCommInitRank comm 0x7f000000%d000 rank %d nranks 4 cudaDev %d nvmlDev %d busId 29000 commId 0xaaa - Init COMPLETE\n",
			host, pid, pid, dev, rank+1, rank, dev, dev)
	}
	channels := func(host string, pid, dev, coll int) string {
		return fmt.Sprintf("%s:%d:%d [%d] NCCL INFO %d coll channels, 0 collnet channels, 0 nvls channels, 2 p2p channels, 2 p2p channels per peer\n",
			host, pid, pid, dev, coll)
	}
	data := []byte(channels("node-00", 4011, 1, 2) + complete("node-00", 4011, 1, 1) + channels("node-00", 4011, 1, 0) +
		channels("node-01", 4033, 1, 2) + complete("node-00", 4011, 1, 1) + complete("node-01", 4033, 1, 3) +
		channels("node-00", 4000, 0, 2) + complete("node-00", 4000, 0, 0))
	for chunk := 0; chunk <= 8; chunk++ {
		r := infoReport(t, data, chunk)
		if len(r.Outliers) != 1 || r.Outliers[0].Evidence != "job.log:1" {
			t.Errorf("chunks of %d lines: outliers\n%s\nwant rank 1's channels, first printed at job.log:1", chunk, describe(r.Outliers))
		}
	}
}

// TestInfoP2PConnectionsNotCompared: send/recv connections (index 1), which only the ranks
// that talk make, are no outlier and no communicator link.
func TestInfoP2PConnectionsNotCompared(t *testing.T) {
	data := setupLog(t, gen.SetupConfig{Family: "2.26"})
	extra := "node-01:4044:4044 [0] NCCL INFO Channel 02/1 : 4[0] -> 8[0] [send] via NET/IB/0/GDRDMA/Shared\n" +
		"node-02:4088:4088 [0] NCCL INFO Channel 02/1 : 4[0] -> 8[0] [receive] via NET/IB/0/GDRDMA/Shared\n"
	r := infoReport(t, append(data, extra...), 0)
	if len(r.Outliers) != 0 {
		t.Errorf("outliers:\n%s", describe(r.Outliers))
	}
	for _, l := range r.Comms[0].Links {
		if strings.Contains(l.Transport, "Shared") {
			t.Errorf("send/recv link counted: %+v", l)
		}
	}
}

// TestInfoCommunicatorCount: ranks with an extra communicator (a group of a few ranks) are
// no outlier; ranks that lack one the others have are, where every communicator in the log
// holds all its ranks.
func TestInfoCommunicatorCount(t *testing.T) {
	data := setupLog(t, gen.SetupConfig{Family: "2.22"})
	split := func(p, rank, nranks int, commID string) string {
		host, pid := fmt.Sprintf("node-%02d", p/4), 4000+p*11
		return fmt.Sprintf("%s:%d:%d [0] NCCL INFO ncclCommSplit comm 0x7f1000000000 rank %d nranks %d cudaDev 0 nvmlDev 0 busId 18000 parent 0x7f0000001000 color 1 key 0 commId %s - Init COMPLETE\n", host, pid, pid, rank, nranks, commID)
	}
	extra := split(0, 0, 2, "0xabc") + split(13, 1, 2, "0xabc")
	if r := infoReport(t, append(slices.Clone(data), extra...), 0); len(r.Outliers) != 0 {
		t.Errorf("two ranks in a group of two: outliers\n%s", describe(r.Outliers))
	}
	var pairs []byte // processes 2k and 2k+1 make a communicator of two; 8 and 9 do not
	for p := 0; p < 16; p++ {
		if p != 8 && p != 9 {
			pairs = append(pairs, split(p, p%2, 2, fmt.Sprintf("0x%x", 0xd00+p/2))...)
		}
	}
	// Only a collective call shows the job past its init: before it, the log may just end
	// before the pair's Init lines.
	if r := infoReport(t, append(slices.Clone(data), pairs...), 0); len(r.Outliers) != 0 {
		t.Errorf("no collective call: outliers\n%s", describe(r.Outliers))
	}
	r := infoReport(t, append(append(slices.Clone(data), pairs...), allReduceLine...), 0)
	if len(r.Outliers) != 1 || r.Outliers[0].What != "communicators" || !slices.Equal(r.Outliers[0].Ranks, []int64{8, 9}) || r.CommsNotWhole != 0 {
		t.Errorf("ranks 8 and 9 lack the communicator of two the others have: outliers\n%s\n%d communicators not whole", describe(r.Outliers), r.CommsNotWhole)
	}
}

// allReduceLine is a collective call of the setupLog job's process 0.
const allReduceLine = "node-00:4000:4000 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x7f2000000000 recvbuff 0x7f2000000000 count 1024 datatype 7 op 0 root 0 comm 0x7f0000001000 [nranks=16] stream 0x1\n"

// TestInfoCommunicatorCountNotWhole: where a communicator holds fewer ranks in the log than
// its size, the ranks that lack it may be its missing ones (a log that ends while the job
// initialises, before or after 2.18.3, or one rank's line lost), and the count of
// communicators per process is not compared.
func TestInfoCommunicatorCountNotWhole(t *testing.T) {
	data := setupLog(t, gen.SetupConfig{Family: "2.22"})
	line := func(p int, event string) string {
		host, pid := fmt.Sprintf("node-%02d", p/4), 4000+p*11
		return fmt.Sprintf("%s:%d:%d [0] NCCL INFO ncclCommSplit comm 0x7f1000000000 rank %d nranks 16 cudaDev 0 nvmlDev 0 busId 18000 parent 0x7f0000001000 color 1 key 0 commId 0xdef - Init %s\n", host, pid, pid, p, event)
	}
	cases := map[string]func(p int) string{
		"the log ends after 10 of 16 Init START lines": func(p int) string {
			if p < 10 {
				return line(p, "START")
			}
			return ""
		},
		"the log ends after 12 of 16 Init COMPLETE lines (no START before 2.18.3)": func(p int) string {
			if p < 12 {
				return line(p, "COMPLETE")
			}
			return ""
		},
		"rank 9's line is not in the log": func(p int) string {
			if p != 9 {
				return line(p, "START") + line(p, "COMPLETE")
			}
			return ""
		},
	}
	for name, lineOf := range cases {
		var extra []byte
		for p := 0; p < 16; p++ {
			extra = append(extra, lineOf(p)...)
		}
		extra = append(extra, allReduceLine...) // the job ran: only the communicator tells
		for chunk := 0; chunk <= 8; chunk += 4 {
			r := infoReport(t, append(slices.Clone(data), extra...), chunk)
			if len(r.Outliers) != 0 || r.CommsNotWhole != 1 {
				t.Errorf("%s, chunks of %d lines: %d communicators not whole, outliers\n%s", name, chunk, r.CommsNotWhole, describe(r.Outliers))
			}
		}
	}
	// Every rank of the seven pairs that started printed Init START, none COMPLETE yet, and
	// ranks 8 and 9 had not started theirs: the pairs' inits were under way.
	var pairs []byte
	for p := 0; p < 16; p++ {
		if p != 8 && p != 9 {
			host, pid := fmt.Sprintf("node-%02d", p/4), 4000+p*11
			pairs = append(pairs, fmt.Sprintf("%s:%d:%d [0] NCCL INFO ncclCommSplit comm 0x7f1000000000 rank %d nranks 2 cudaDev 0 nvmlDev 0 busId 18000 parent 0x7f0000001000 color 1 key 0 commId 0x%x - Init START\n", host, pid, pid, p%2, 0xd00+p/2)...)
		}
	}
	if r := infoReport(t, append(append(slices.Clone(data), allReduceLine...), pairs...), 0); len(r.Outliers) != 0 || r.CommsNotWhole != 7 {
		t.Errorf("pairs under way: %d communicators not whole, outliers\n%s", r.CommsNotWhole, describe(r.Outliers))
	}
}

// TestInfoSilentOnHealthyCuts: a healthy job read whole, cut anywhere in its init (an
// excerpt, or a log that ends while the job starts), cut anywhere in the init of its
// restart after a whole run, or one node's lines alone has no outlier: one process or eight
// GPUs a process, a clean shutdown or teardown, an NCCL without Init START lines (before
// 2.18.3; where a restart's init is cut, nothing tells such a log from a rank that lacks a
// communicator, and that case is left out). With -short, a cut after every fourth line of
// the init (shortStride).
func TestInfoSilentOnHealthyCuts(t *testing.T) {
	t.Parallel() // independent of the other tests: its own parser and data
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]gen.Config{
		"16 ranks":                      {Ranks: 16},
		"8 GPUs a process":              {Ranks: 16, GPUsPerProcess: 8},
		"clean abort":                   {Ranks: 16, CleanAbort: true},
		"teardown, 3 hosts":             {Ranks: 12, RanksPerHost: 4, Teardown: true},
		"no Init START (before 2.18.3)": {Ranks: 16, NCCLVersion: "2.18.1"},
		"one host, one process":         {Ranks: 8, GPUsPerProcess: 8},
	} {
		lines, first := healthyLines(t, p, c, 3)
		again, againFirst := healthyLines(t, p, c, 4)
		seen := allSetups(lines, again)
		for k := 1; k <= first; k += shortStride(16) {
			if r := infoOfParsedSeen(lines[:k], 0, seen); len(r.Outliers) != 0 {
				t.Fatalf("%s, its first %d lines: outliers\n%s", name, k, describe(r.Outliers))
			}
		}
		if r := infoOfParsed(lines, 0); len(r.Outliers) != 0 || r.CommsNotWhole != 0 {
			t.Errorf("%s, whole: %d communicators not whole, outliers\n%s", name, r.CommsNotWhole, describe(r.Outliers))
		}
		node := slices.DeleteFunc(slices.Clone(lines), func(l stagetest.ParsedText) bool { return !bytes.HasPrefix(l.Text, []byte("gpu-node-00:")) })
		if r := infoOfParsed(node, 0); len(r.Outliers) != 0 {
			t.Errorf("%s, gpu-node-00's lines: outliers\n%s", name, describe(r.Outliers))
		}
		if c.NCCLVersion != "" {
			continue
		}
		ran := lines[:first+8] // the init and a few calls
		for k := 1; k <= againFirst; k += shortStride(16) {
			if r := infoOfParsedSeen(append(slices.Clone(ran), again[:k]...), 0, seen); len(r.Outliers) != 0 {
				t.Fatalf("%s, whole and then the first %d lines of its restart: outliers\n%s", name, k, describe(r.Outliers))
			}
		}
	}
}

// shortStride is 1, or n with -short: the step between the cuts of a log that the tests of
// every cut try (go test ./... tries them all).
func shortStride(n int) int {
	if testing.Short() {
		return n
	}
	return 1
}

// setupSeen is how a set-up message reads.
type setupSeen struct {
	s  parser.Setup
	ok bool
}

// cacheOf is a setupCache holding seen's readings: more than maxSeen of them where seen
// holds more, as a cache drops one only where a message is missing.
func cacheOf(seen map[string]setupSeen) setupCache {
	c := setupCache{at: make(map[string]int, len(seen)), slots: make([]setupSlot, 0, len(seen))}
	for msg, r := range seen {
		c.at[msg] = len(c.slots)
		c.slots = append(c.slots, setupSlot{msg, r.s, r.ok})
	}
	return c
}

// allSetups is how every INFO line's message in the logs reads: given to an Info as its
// memo, it holds every message the Info looks up, so the Info keeps it (an Info starts its
// memo again only where a message is missing from a full one).
func allSetups(logs ...[]stagetest.ParsedText) map[string]setupSeen {
	seen := map[string]setupSeen{}
	for _, lines := range logs {
		for i := range lines {
			if k := lines[i].P.Kind; k == parser.KindInfo || k == parser.KindTrace {
				msg := parser.Message(lines[i].Text, &lines[i].P)
				if _, ok := seen[string(msg)]; !ok {
					var r setupSeen
					r.s, r.ok = parser.ParseSetup(msg)
					seen[string(msg)] = r
				}
			}
		}
	}
	return seen
}

// healthyLines is the log nccllog-gen writes for c with seed (two steps; without Init
// START lines for 2.18.1), and the index of its first collective call.
func healthyLines(t *testing.T, p *parser.Parser, c gen.Config, seed int64) ([]stagetest.ParsedText, int) {
	t.Helper()
	c.Steps, c.Seed = 2, seed
	var b bytes.Buffer
	if _, err := gen.Write(&b, c); err != nil {
		t.Fatalf("%+v: %v", c, err)
	}
	lines := stagetest.ParseLines(p, b.Bytes())
	if c.NCCLVersion == "2.18.1" {
		lines = slices.DeleteFunc(lines, func(l stagetest.ParsedText) bool { return bytes.HasSuffix(l.Text, []byte("Init START")) })
	}
	return lines, slices.IndexFunc(lines, func(l stagetest.ParsedText) bool { return l.P.Kind == parser.KindCollective })
}

// TestInfoCountsEveryProcess: a process counts whatever its lines say: calls, INFO lines of
// no set-up message (topology dumps), not only the facts info keeps; the launcher's label
// names its rank.
func TestInfoCountsEveryProcess(t *testing.T) {
	data := []byte("[1,0]<stdout>:node-a:101:101 [0] NCCL INFO === System : maxBw 48.0 totalBw 370.8 ===\n" +
		"[1,1]<stdout>:node-a:102:102 [1] NCCL INFO CPU/0-0 (1/1/2)\n" +
		"[1,2]<stdout>:node-b:201:201 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x7f00 recvbuff 0x7f00 count 1024 datatype 7 op 0 root 0 comm 0x55d0 [nranks=3] stream 0x5600\n")
	for _, chunk := range []int{0, 1} {
		r := infoReport(t, data, chunk)
		hosts := []string{}
		for _, h := range r.Hosts {
			hosts = append(hosts, h.Host)
		}
		if r.Processes != 3 || !slices.Equal(hosts, []string{"node-a", "node-b"}) {
			t.Errorf("chunk %d: %d processes on %v, want 3 on node-a, node-b", chunk, r.Processes, hosts)
		}
	}
}
