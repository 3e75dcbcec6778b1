package gen

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestFaultFreeOutputUnchanged pins the output of configs without faults or
// Teardown to hashes recorded before faults, Teardown and WriteFiles existed.
func TestFaultFreeOutputUnchanged(t *testing.T) {
	cases := []struct {
		cfg  Config
		hash string
	}{
		{Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Noise: true}, "479e915e1ad62dbd71b925c2c31cb3a86acdcd0ecdd912f75d80341ce1d4eb3c"},
		{Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Progress: "megatron", Noise: true}, "52a3a38b2b241a5221f9105a185b5e3a67a9e23992505af6e7b798c4d1cb5388"},
		{Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Progress: "torchtitan", Noise: true}, "ad170ba55bff80bd97a69a1babf90131c10ec8e55c6a583677833bf0858a3b7a"},
		{Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Progress: "none", Noise: true}, "a483c7e8c2dddfdd16970ec0b6706bc5a8971d900f0e4053eec8ae0c7e4bb738"},
		{Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Prefix: "srun", Noise: true}, "b5f63ee48b3e05c7b00da110b5be07f220957d258ef9a9d46acf1bbd5fb27cf5"},
		{Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Prefix: "srun", Progress: "megatron", Noise: true}, "c5830587a553d51c07a3763b4f83622f6adf895cd0186f915aba8ac35af087db"},
		{Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Prefix: "srun", Progress: "torchtitan", Noise: true}, "8a1058a538cbe12055ec6392b7ae4663860af674e616a71f6234498881bd1e84"},
		{Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Prefix: "srun", Progress: "none", Noise: true}, "4ca5b5e70ce08dda57fed369528e1c0b7f46b734580fbe153b3b34ba0e2bbd6a"},
		{Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Prefix: "mpirun", Noise: true}, "5eb8afbbbaf43ef800dbd6f8f3dace31211d44990005816742a19060d96430d1"},
		{Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Prefix: "mpirun", Progress: "megatron", Noise: true}, "414652ea31ea668d354567886a4b1dd5a59fb443aa1f430454a3727c77eee52c"},
		{Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Prefix: "mpirun", Progress: "torchtitan", Noise: true}, "f0dad1375dd7b54085ae04021afeb6e715f2dd1dcd41673b1792ac6e23fcf06b"},
		{Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Prefix: "mpirun", Progress: "none", Noise: true}, "fcf33951966f73b7918d93ffa90a6f5416d94cc7279d804a544c94d462fd36e1"},
		{Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Prefix: "torchrun", Noise: true}, "f71e58387c6834240499bd061a7fe6b917d3379a2f30ad4650cf01cb22838dd5"},
		{Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Prefix: "torchrun", Progress: "megatron", Noise: true}, "dcbc689a561a7785bc13cab0b75b78307c40fc9e0d1903d2b9147920b4bc09f1"},
		{Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Prefix: "torchrun", Progress: "torchtitan", Noise: true}, "a9e647f06fe80b1a77bd2672c0de416232691b02fb86586b7c3e62dbc77904fb"},
		{Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Prefix: "torchrun", Progress: "none", Noise: true}, "0353d2a36a7671379fd948a374f807a43fe3d6f290debd6eb8c29757221d17f8"},
		{Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Prefix: "timestamp", Noise: true}, "50d7d1890060fb0d58915cfb7908b9a10e748fd3b7ff336bc36a63c310bb6923"},
		{Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Prefix: "timestamp", Progress: "megatron", Noise: true}, "283976a9c4f17418545ee0827aeff458cc784421cb8c3275520d200cffc67c41"},
		{Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Prefix: "timestamp", Progress: "torchtitan", Noise: true}, "601cc6f51fbb60cb4c70124413bdb7ab7d1d97a655a050067ddf3a8081e2ead7"},
		{Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Prefix: "timestamp", Progress: "none", Noise: true}, "aeb954b6a01f3e70e10c2947d5a4922a20d24dd881e8309f4361786d81eee6bf"},
		{Config{Seed: 1, Ranks: 4, RanksPerHost: 2, Steps: 8, NCCLVersion: "2.18.3"}, "c7f3ec91f936d3caedbb51f48560d29e26c76cd7c4e09c9c22e508db2878fbaf"},
		{Config{Seed: 2, Ranks: 16, Steps: 12, Prefix: "timestamp", NCCLVersion: "2.18.3", Noise: true}, "5c21fcf73d7c3bd609fa6e19c456fc359e5af91646f261024d88481b1c126d04"},
		{Config{Seed: 1, Ranks: 4, RanksPerHost: 2, Steps: 8, NCCLVersion: "2.19.3"}, "71160f21098e8f50d778c2c59812000800d55b7639dcc6f326e6485837a7aa39"},
		{Config{Seed: 2, Ranks: 16, Steps: 12, Prefix: "timestamp", NCCLVersion: "2.19.3", Noise: true}, "4e1a27d2a3506b97595ab7d25f1453a9308e73277e90d47f0585a113f949aed7"},
		{Config{Seed: 1, Ranks: 4, RanksPerHost: 2, Steps: 8, NCCLVersion: "2.20.5"}, "e67675973ad634e14e3f61119c0ca7bab35d3ce668e8a59fb803867cbb0fc7eb"},
		{Config{Seed: 2, Ranks: 16, Steps: 12, Prefix: "timestamp", NCCLVersion: "2.20.5", Noise: true}, "dfd5810087fa242c5cc8da6c95bd2ed699f00f7a8d11f02f1da1499b1d06f8a9"},
		{Config{Seed: 1, Ranks: 4, RanksPerHost: 2, Steps: 8, NCCLVersion: "2.21.5"}, "a8f25259caabcbe34c18976c040e6e05c92e8a52c94d18fc38af71474fbf4eb8"},
		{Config{Seed: 2, Ranks: 16, Steps: 12, Prefix: "timestamp", NCCLVersion: "2.21.5", Noise: true}, "2015b0d2751a143775fec56a04c82df28855c42e8bf168265d437f79a3e41e67"},
		{Config{Seed: 1, Ranks: 4, RanksPerHost: 2, Steps: 8, NCCLVersion: "2.22.3"}, "b698bd30b1470ea40ca85e9b660286e50155c131ec7e679ac855d5b8a7972fe2"},
		{Config{Seed: 2, Ranks: 16, Steps: 12, Prefix: "timestamp", NCCLVersion: "2.22.3", Noise: true}, "db6b037f8fc63c5546dd00480cf14741129fbdad4eef98ef886b4e788424cbde"},
		{Config{Seed: 1, Ranks: 4, RanksPerHost: 2, Steps: 8, NCCLVersion: "2.23.4"}, "b3b2fd4a31d99b060ebde0bee6deed21b7ab2d87e475a6f9db79eb54d82bc0e2"},
		{Config{Seed: 2, Ranks: 16, Steps: 12, Prefix: "timestamp", NCCLVersion: "2.23.4", Noise: true}, "6e3888e6705224d6316bca96a62ba251a2959ef583992ed1b6ec1d08d9d65209"},
		{Config{Seed: 1, Ranks: 4, RanksPerHost: 2, Steps: 8, NCCLVersion: "2.24.3"}, "c1ad14b70611463db6326780eaeaff63146e9400cb13785c69fdb042a3a37b93"},
		{Config{Seed: 2, Ranks: 16, Steps: 12, Prefix: "timestamp", NCCLVersion: "2.24.3", Noise: true}, "b9db4b31f6e1e97d81bede85a8f9c309cd56bcfd7944c4ee4a034364cf77cfc5"},
		{Config{Seed: 1, Ranks: 4, RanksPerHost: 2, Steps: 8, NCCLVersion: "2.26.2"}, "23f6e691c8544e6ed802ba4c2f1a464ef1b82c2671d80aacb4e29aaf4f35e3dc"},
		{Config{Seed: 2, Ranks: 16, Steps: 12, Prefix: "timestamp", NCCLVersion: "2.26.2", Noise: true}, "5a1f95d69e6aab1063cd81beb910b3b33b97350d18bd4ce02bf160d29c8800ef"},
		{Config{Seed: 1, Ranks: 4, RanksPerHost: 2, Steps: 8, NCCLVersion: "2.29.2"}, "2bda368d4191541700f1ac05b3cb86e73f9c9fc9150fb19028e08abdbb174fce"},
		{Config{Seed: 2, Ranks: 16, Steps: 12, Prefix: "timestamp", NCCLVersion: "2.29.2", Noise: true}, "8db388178c384076a27a900403aec9e6e0b8811fa46ac0ce7146747ae204e100"},
		{Config{Seed: 1, Ranks: 4, RanksPerHost: 2, Steps: 8, NCCLVersion: "2.30.7"}, "958a01ffd990ba28fb4b875012b67704281ba149096cb5a57cc212b2d56987d0"},
		{Config{Seed: 2, Ranks: 16, Steps: 12, Prefix: "timestamp", NCCLVersion: "2.30.7", Noise: true}, "ba54d86cd1fb5090949abffa07290b54f23cc7613291d9cec054432c2580f1be"},
		{Config{Seed: 1, Ranks: 16, RanksPerHost: 8, Steps: 20}, "c0827b129bda716a6aa43988ff0fcb1e720e1dc2c71d3ffb03d0d998750bccb6"},
		{Config{Seed: 1, Steps: 100}, "01477099d641c7f18936ca794169cbd950e6c2f7adbe2c947ca2c57efe87e216"},
		{Config{Seed: 5, Ranks: 1, Steps: 5}, "a879c249bd5c23d0dbd996ad05afe5cba3a639ce5246ad3247c6fc99d4c27b1a"},
		{Config{Seed: 6, Ranks: 3, RanksPerHost: 2, Steps: 30, Noise: true}, "3b2b7ac4c15f3145d8b09795c5379b00cbb85853ab05bde682200f3fea6cc826"},
		{Config{Seed: 7, Ranks: 12, RanksPerHost: 4, Size: 2097152, Noise: true}, "f3df8e3cf05090083eb49968c0f11b790c2793523b01ce07c828e8fbdae6dffe"},
		{Config{Seed: 8, Ranks: 64, RanksPerHost: 8, Size: 8388608, Prefix: "mpirun"}, "7ad61202342dd93f9b1ecfcce2bf60e5a35fb11a20eb3b3618a902bb8728c11b"},
		{Config{Seed: 9, Ranks: 2, RanksPerHost: 1, Steps: 50, Progress: "megatron", Noise: true}, "7765728a8fc418b26048ce016dc1d2fe530044e4e2047efb8f518c82cb3abd4c"},
	}
	for _, c := range cases {
		h := sha256.New() // the output hashed as it is written: held whole, the 8 MiB case's buffer grew five times
		if _, err := Write(h, c.cfg); err != nil {
			t.Fatalf("Write(%+v): %v", c.cfg, err)
		}
		if sum := h.Sum(nil); hex.EncodeToString(sum) != c.hash {
			t.Errorf("Write(%+v): output changed (sha256 %x, want %s)", c.cfg, sum, c.hash)
		}
	}
}

var (
	// callRe reads a collective line: host:pid, op, count, datatype, comm.
	callRe = regexp.MustCompile(`^([^\s:]+:\d+):\d+ \[\d+\] NCCL INFO ([A-Za-z]+): opCount [0-9a-f]+ ` +
		`sendbuff \S+ recvbuff \S+ count (\d+) datatype (\d+) op \d+ root \d+ comm (0x[0-9a-f]+) \[nranks=\d+\]`)
	// commInitRe reads an Init COMPLETE line: host:pid, pid, [dev], comm, rank,
	// nranks, cudaDev, busId. A process's first one is its world communicator.
	commInitRe = regexp.MustCompile(`^([^\s:]+:(\d+)):\d+ (\[\d+\]) NCCL INFO (?:ncclCommInitRank |ncclCommSplit )?` +
		`comm (0x[0-9a-f]+) rank (\d+) nranks (\d+) cudaDev (\d+) nvmlDev \d+ busId ([0-9a-f]+) .*- Init COMPLETE$`)
	procRe  = regexp.MustCompile(`^(?:\[[^\]]+\] )?([^\s:]+:\d+):\d+ \[\d+\] `)
	closeRe = regexp.MustCompile(`^[^\s:]+:(\d+):(\d+) \[\d+\] NCCL INFO comm (0x[0-9a-f]+) rank \d+ n[Rr]anks \d+ ` +
		`cudaDev \d+ busId [0-9a-f]+ - (Destroy COMPLETE|Abort COMPLETE|Abort START)$`)
)

// parsedLog is what a test reads back from one log, or from several files.
type parsedLog struct {
	proc   map[int]string      // global rank -> host:pid
	rank   map[string]int      // host:pid -> global rank
	inits  map[string][]string // host:pid -> its Init COMPLETE lines (world first)
	calls  map[int][]string    // global rank -> its world-comm calls, "op count datatype"
	byRank map[int][]string    // global rank -> its lines (srun prefix only; no blank lines)
	lines  []string            // all lines, prefix removed
	sum    Summary
}

// parseLines reads lines (without launcher prefixes) of one log.
func parseLines(t *testing.T, lines []string) *parsedLog {
	t.Helper()
	pl := &parsedLog{proc: map[int]string{}, rank: map[string]int{}, inits: map[string][]string{},
		calls: map[int][]string{}, byRank: map[int][]string{}, lines: lines}
	world := map[string]string{} // host:pid -> world comm pointer
	for _, l := range lines {
		// Each pattern is tried only on lines that hold its fixed text (most lines hold neither).
		if !strings.HasSuffix(l, "- Init COMPLETE") && !strings.Contains(l, ": opCount ") {
			continue
		}
		if m := commInitRe.FindStringSubmatch(l); m != nil {
			if _, ok := world[m[1]]; !ok {
				world[m[1]] = m[4]
				r, _ := strconv.Atoi(m[5])
				pl.proc[r], pl.rank[m[1]] = m[1], r
			}
			pl.inits[m[1]] = append(pl.inits[m[1]], l)
		}
		m := callRe.FindStringSubmatch(l)
		if m == nil || m[5] != world[m[1]] {
			continue
		}
		r, ok := pl.rank[m[1]]
		if !ok {
			t.Fatalf("call before its process's Init COMPLETE: %q", l)
		}
		pl.calls[r] = append(pl.calls[r], m[2]+" "+m[3]+" "+m[4])
	}
	return pl
}

// generate runs Write; with Prefix "srun" it also sorts the lines by rank.
func generate(t *testing.T, cfg Config) *parsedLog {
	t.Helper()
	out, sum := write(t, cfg)
	var bodies []string
	byRank := map[int][]string{}
	coll := 0
	for _, l := range splitLines(t, out) {
		if l == "" {
			continue
		}
		r, body, ok := unprefix(cfg.Prefix, l)
		if !ok {
			t.Fatalf("line without %s prefix: %q", cfg.Prefix, l)
		}
		if collRe.MatchString(body) {
			coll++
		}
		bodies = append(bodies, body)
		byRank[r] = append(byRank[r], body)
	}
	if sum.Lines != int64(bytes.Count(out, []byte("\n"))) || sum.Bytes != int64(len(out)) || sum.CollLines != int64(coll) {
		t.Errorf("%+v: Summary %+v does not match the output", cfg, sum)
	}
	pl := parseLines(t, bodies)
	if cfg.Prefix == "srun" {
		pl.byRank = byRank
	}
	pl.sum = sum
	return pl
}

// checkOthers checks that every rank but the faulty ones printed exactly what
// it prints without the fault, and that their world-comm calls are the same.
func checkOthers(t *testing.T, got, ref *parsedLog, faulty ...int) {
	t.Helper()
	var first []string
	for r := range len(ref.proc) {
		if slices.Contains(faulty, r) {
			continue
		}
		if got.proc[r] != ref.proc[r] {
			t.Fatalf("rank %d is %s, without the fault %s", r, got.proc[r], ref.proc[r])
		}
		if !slices.Equal(got.byRank[r], ref.byRank[r]) {
			t.Errorf("rank %d's lines differ from its lines without the fault", r)
		}
		if first == nil {
			first = got.calls[r]
		} else if !slices.Equal(got.calls[r], first) {
			t.Errorf("rank %d's world-comm calls differ from another healthy rank's", r)
		}
		if len(got.calls[r]) == 0 {
			t.Errorf("rank %d issued no world-comm calls", r)
		}
	}
}

func faultBase() Config {
	return Config{Seed: 12, Ranks: 8, RanksPerHost: 4, Steps: 7, Noise: true, Prefix: "srun"}
}

func TestStopRank(t *testing.T) {
	base := faultBase()
	ref := generate(t, base)
	n := len(ref.calls[0])
	for _, c := range []struct{ rank, after int }{{3, 0}, {3, 1}, {5, 17}, {0, 40}, {7, n - 1}, {2, n}, {6, n + 5}} {
		t.Run(fmt.Sprintf("rank%d_after%d", c.rank, c.after), func(t *testing.T) {
			cfg := base
			cfg.StopRank, cfg.StopAfter = Rank(c.rank), c.after
			got := generate(t, cfg)
			checkOthers(t, got, ref, c.rank)
			calls, want := got.calls[c.rank], min(c.after, n)
			if len(calls) != want || !slices.Equal(calls, ref.calls[c.rank][:want]) {
				t.Fatalf("rank %d issued %d world-comm calls, want the first %d of %d", c.rank, len(calls), want, n)
			}
			lines, refLines := got.byRank[c.rank], ref.byRank[c.rank]
			if len(lines) > len(refLines) || !slices.Equal(lines, refLines[:len(lines)]) {
				t.Fatalf("rank %d's lines are not the start of its lines without the fault", c.rank)
			}
			last := lines[len(lines)-1]
			switch m := callRe.FindStringSubmatch(last); {
			case c.after > n:
				if len(lines) != len(refLines) {
					t.Errorf("rank %d stopped although the run ended first", c.rank)
				}
			case c.after == 0:
				if !commInitRe.MatchString(last) && !strings.Contains(last, "Init timings") {
					t.Errorf("rank %d's last line is not an init line: %q", c.rank, last)
				}
			case m == nil || m[5] != got.worldPtr(c.rank):
				t.Errorf("rank %d's last line is not its last world-comm call: %q", c.rank, last)
			}
			if c.rank == 0 && got.sum.ProgressLines >= ref.sum.ProgressLines {
				t.Errorf("rank 0 stopped but wrote %d progress lines of %d", got.sum.ProgressLines, ref.sum.ProgressLines)
			}
		})
	}
}

// worldPtr is the world comm pointer of a rank, from its first Init COMPLETE line.
func (pl *parsedLog) worldPtr(rank int) string {
	inits := pl.inits[pl.proc[rank]]
	if len(inits) == 0 {
		return ""
	}
	return commInitRe.FindStringSubmatch(inits[0])[4]
}

func TestMismatch(t *testing.T) {
	base := faultBase()
	ref := generate(t, base)
	n := len(ref.calls[0])
	for _, kind := range []string{"count", "dtype"} {
		for _, c := range []struct{ rank, call int }{{0, 0}, {4, 23}, {7, n - 1}} {
			cfg := base
			cfg.MismatchRank, cfg.MismatchCall, cfg.MismatchKind = Rank(c.rank), c.call, kind
			got := generate(t, cfg)
			checkOthers(t, got, ref, c.rank)
			calls, refCalls := got.calls[c.rank], ref.calls[c.rank]
			if len(calls) != n {
				t.Fatalf("%s %v: %d world-comm calls, want %d", kind, c, len(calls), n)
			}
			for i := range calls {
				if (calls[i] != refCalls[i]) != (i == c.call) {
					t.Errorf("%s %v: call %d is %q, without the fault %q", kind, c, i, calls[i], refCalls[i])
				}
			}
			g, w := strings.Fields(calls[c.call]), strings.Fields(refCalls[c.call])
			wc, _ := strconv.Atoi(w[1])
			switch {
			case g[0] != w[0]:
				t.Errorf("%s %v: op %s, want %s", kind, c, g[0], w[0])
			case kind == "count" && (g[1] != strconv.Itoa(wc+1) || g[2] != w[2]):
				t.Errorf("count %v: %q, want count+1 of %q", c, calls[c.call], refCalls[c.call])
			case kind == "dtype" && (g[1] != w[1] || g[2] == w[2]):
				t.Errorf("dtype %v: %q, want another datatype than %q", c, calls[c.call], refCalls[c.call])
			}
			// Nothing else changes: the output differs in that one line only.
			if len(got.lines) != len(ref.lines) {
				t.Fatalf("%s %v: %d lines, want %d", kind, c, len(got.lines), len(ref.lines))
			}
			diff := 0
			for i := range got.lines {
				if got.lines[i] != ref.lines[i] {
					diff++
				}
			}
			if diff != 1 {
				t.Errorf("%s %v: %d lines differ, want 1", kind, c, diff)
			}
		}
	}
}

// wantCloseLines are the Destroy or Abort lines a process prints for its
// comms (world, then split), built from its Init COMPLETE lines: on the main
// thread, with "Abort START" lines first where start is set.
func wantCloseLines(pl *parsedLog, rank int, what string, start bool) []string {
	var out []string
	for _, l := range pl.inits[pl.proc[rank]] {
		m := commInitRe.FindStringSubmatch(l)
		head := m[1] + ":" + m[2] + " " + m[3] + " NCCL INFO "
		f := "comm " + m[4] + " rank " + m[5] + " %s " + m[6] + " cudaDev " + m[7] + " busId " + m[8] + " - "
		if start {
			out = append(out, head+fmt.Sprintf(f, "nRanks")+what+" START")
		}
		out = append(out, head+fmt.Sprintf(f, "nranks")+what+" COMPLETE")
	}
	return out
}

func TestAbortRank(t *testing.T) {
	for _, version := range []string{"2.21.5", "2.28.3"} {
		base := faultBase()
		base.NCCLVersion = version
		ref := generate(t, base)
		n := len(ref.calls[0])
		start := version == "2.28.3" // 2.28+ print Abort START first
		for _, c := range []struct {
			rank, stopAfter int // stopAfter -1: no StopRank
			teardown        bool
		}{{1, -1, false}, {0, -1, true}, {6, 30, false}, {2, 0, true}, {5, n, false}} {
			cfg := base
			cfg.AbortRank, cfg.Teardown = Rank(c.rank), c.teardown
			if c.stopAfter >= 0 {
				cfg.StopRank, cfg.StopAfter = Rank(c.rank), c.stopAfter
			}
			got := generate(t, cfg)
			abort := wantCloseLines(got, c.rank, "Abort", start)
			if len(abort) != map[bool]int{false: 2, true: 4}[start] {
				t.Fatalf("%s: %d Abort lines expected", version, len(abort))
			}
			lines, refLines := got.byRank[c.rank], ref.byRank[c.rank]
			kept := lines[:max(0, len(lines)-len(abort))]
			if !slices.Equal(lines[len(kept):], abort) {
				t.Errorf("%s %+v: rank %d ends with\n%s\nwant\n%s", version, c, c.rank,
					strings.Join(lines[len(kept):], "\n"), strings.Join(abort, "\n"))
			}
			if len(kept) > len(refLines) || !slices.Equal(kept, refLines[:len(kept)]) {
				t.Errorf("%s %+v: rank %d's lines before the Abort lines are not its lines without the fault", version, c, c.rank)
			}
			wantCalls := n
			if c.stopAfter >= 0 {
				wantCalls = min(n, c.stopAfter)
			}
			if !slices.Equal(got.calls[c.rank], ref.calls[c.rank][:wantCalls]) {
				t.Errorf("%s %+v: rank %d issued %d world-comm calls, want the first %d", version, c, c.rank, len(got.calls[c.rank]), wantCalls)
			}
			if c.stopAfter < 0 && len(kept) != len(refLines) {
				t.Errorf("%s %+v: rank %d printed %d lines before the Abort lines, want all its %d", version, c, c.rank, len(kept), len(refLines))
			}
			if !c.teardown {
				checkOthers(t, got, ref, c.rank)
				continue
			}
			for r := range cfg.Ranks {
				if r == c.rank {
					continue
				}
				l := got.byRank[r]
				if destroy := wantCloseLines(got, r, "Destroy", false); !slices.Equal(l[len(l)-2:], destroy) {
					t.Errorf("%s %+v: rank %d ends with %q, want %q", version, c, r, l[len(l)-2:], destroy)
				}
			}
		}
	}
}

func TestMissingRank(t *testing.T) {
	base := faultBase()
	ref := generate(t, base)
	for _, rank := range []int{0, 5} {
		cfg := base
		cfg.MissingRank = Rank(rank)
		got := generate(t, cfg)
		checkOthers(t, got, ref, rank)
		if len(got.proc) != cfg.Ranks-1 || got.proc[rank] != "" || len(got.byRank[rank]) != 0 {
			t.Errorf("missing rank %d: %d ranks have init lines, %d lines carry its prefix", rank, len(got.proc), len(got.byRank[rank]))
		}
		for _, l := range got.lines {
			if m := procRe.FindStringSubmatch(l); m != nil && m[1] == ref.proc[rank] {
				t.Fatalf("missing rank %d printed %q", rank, l)
			}
		}
		if rank == 0 && (got.sum.ProgressLines != 0 || slices.Contains(got.lines, "NCCL version 2.21.5+cuda12.4")) {
			t.Errorf("missing rank 0: %d progress lines or a version line", got.sum.ProgressLines)
		}
		if rank != 0 && got.sum.ProgressLines != ref.sum.ProgressLines {
			t.Errorf("missing rank %d: %d progress lines, want %d", rank, got.sum.ProgressLines, ref.sum.ProgressLines)
		}
	}
	// Everyone silent: the run stops instead of looking for Size forever.
	if _, err := Write(&bytes.Buffer{}, Config{Ranks: 1, Size: 1 << 20, StopRank: Rank(0)}); err != nil {
		t.Fatal(err)
	}
}

func TestTeardown(t *testing.T) {
	base := faultBase()
	ref := generate(t, base)
	cfg := base
	cfg.Teardown = true
	cfg.StopRank, cfg.StopAfter = Rank(3), 10
	got := generate(t, cfg)
	for r := range cfg.Ranks {
		l, rl := got.byRank[r], ref.byRank[r]
		if r == 3 {
			if slices.ContainsFunc(l, closeRe.MatchString) {
				t.Errorf("stopped rank 3 printed Destroy or Abort lines")
			}
			continue
		}
		if len(l) != len(rl)+2 || !slices.Equal(l[:len(rl)], rl) {
			t.Fatalf("rank %d: %d lines, want its %d lines and 2 Destroy lines", r, len(l), len(rl))
		}
		if want := wantCloseLines(got, r, "Destroy", false); !slices.Equal(l[len(rl):], want) {
			t.Errorf("rank %d ends with %q, want %q", r, l[len(rl):], want)
		}
	}
	// The Destroy lines come after the last progress line.
	first := slices.IndexFunc(got.lines, closeRe.MatchString)
	if first < 0 || slices.ContainsFunc(got.lines[first:], nemoRe.MatchString) {
		t.Errorf("Destroy lines missing or before the last progress line")
	}
	if n := len(slices.DeleteFunc(slices.Clone(got.lines), func(l string) bool { return !closeRe.MatchString(l) })); n != 2*(cfg.Ranks-1) {
		t.Errorf("%d Destroy lines, want %d", n, 2*(cfg.Ranks-1))
	}
}

// readFiles reads the files WriteFiles wrote and checks their names.
func readFiles(t *testing.T, paths []string) map[string][]string {
	t.Helper()
	files := map[string][]string{}
	nameRe := regexp.MustCompile(`^nccl\.(gpu-node-\d\d)\.(\d+)\.log$`)
	for _, p := range paths {
		m := nameRe.FindStringSubmatch(filepath.Base(p))
		if m == nil {
			t.Fatalf("file name %q is not nccl.%%h.%%p.log", p)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[m[1]+":"+m[2]] = splitLines(t, b)
	}
	return files
}

func TestWriteFiles(t *testing.T) {
	for i, cfg := range []Config{
		{Seed: 21, Ranks: 8, RanksPerHost: 4, Steps: 9, Noise: true},
		{Seed: 22, Ranks: 6, RanksPerHost: 2, Size: 400_000, Noise: true, Progress: "megatron", NCCLVersion: "2.19.3"},
		{Seed: 23, Ranks: 8, RanksPerHost: 4, Steps: 8, Noise: true, NCCLVersion: "2.28.3", Teardown: true,
			StopRank: Rank(2), StopAfter: 31, MismatchRank: Rank(5), MismatchCall: 7, MismatchKind: "dtype",
			AbortRank: Rank(2), MissingRank: Rank(6)},
		{Seed: 24, Ranks: 4, RanksPerHost: 4, Steps: 5, StopRank: Rank(0), StopAfter: 12, AbortRank: Rank(3)},
	} {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			dir := t.TempDir()
			paths, err := WriteFiles(dir, cfg)
			if err != nil {
				t.Fatal(err)
			}
			files := readFiles(t, paths)
			want := cfg.Ranks
			if cfg.MissingRank != nil {
				want--
			}
			if entries, _ := os.ReadDir(dir); len(paths) != want || len(files) != want || len(entries) != want {
				t.Fatalf("%d paths, %d processes, %d files; want %d", len(paths), len(files), len(entries), want)
			}
			out, _ := write(t, cfg)
			var total int
			var union []string
			for proc, lines := range files {
				for _, l := range lines {
					total += len(l) + 1
					if m := procRe.FindStringSubmatch(l); m != nil && m[1] != proc {
						t.Fatalf("file of %s has a line of %s: %q", proc, m[1], l)
					}
					if l != "" && !isProgress(l) {
						union = append(union, l)
					}
				}
			}
			var single []string
			for _, l := range splitLines(t, out) {
				if l != "" && !isProgress(l) {
					single = append(single, l)
				}
			}
			slices.Sort(union)
			slices.Sort(single)
			if !slices.Equal(union, single) {
				t.Errorf("the files' lines (%d) are not the lines of Write (%d)", len(union), len(single))
			}
			if total != len(out) {
				t.Errorf("the files hold %d bytes, Write wrote %d", total, len(out))
			}
			// Each file is that rank's lines in order: compare with srun's prefixes.
			cfg.Prefix = "srun"
			if cfg.Size > 0 {
				return // the prefixes change the size and so the number of steps
			}
			sr := generate(t, cfg)
			for r, proc := range sr.proc {
				var lines []string
				for _, l := range files[proc] {
					if l != "" {
						lines = append(lines, l)
					}
				}
				if !slices.Equal(lines, sr.byRank[r]) {
					t.Errorf("file of rank %d (%s) is not rank %d's lines in order", r, proc, r)
				}
				progress := len(slices.DeleteFunc(lines, func(l string) bool { return !isProgress(l) }))
				if r == 0 && cfg.StopRank == nil && progress != cfg.Steps || r != 0 && progress != 0 {
					t.Errorf("file of rank %d has %d progress lines", r, progress)
				}
			}
		})
	}
}

func isProgress(l string) bool {
	return nemoRe.MatchString(l) || megatronRe.MatchString(l) || titanRe.MatchString(l)
}

func TestWriteFilesFaults(t *testing.T) {
	cfg := Config{Seed: 31, Ranks: 8, RanksPerHost: 4, Steps: 6, StopRank: Rank(4), StopAfter: 25, MissingRank: Rank(1)}
	paths, err := WriteFiles(t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, lines := range readFiles(t, paths) {
		all = append(all, lines...)
	}
	pl := parseLines(t, all)
	if len(pl.calls[4]) != 25 || len(pl.proc) != 7 || pl.proc[1] != "" {
		t.Errorf("rank 4 issued %d world-comm calls, want 25; %d ranks have files, want 7 without rank 1", len(pl.calls[4]), len(pl.proc))
	}
	for r, calls := range pl.calls {
		if r != 4 && !slices.Equal(calls, pl.calls[0]) {
			t.Errorf("rank %d's world-comm calls differ from rank 0's", r)
		}
	}
}

func TestWriteFilesRejectsPrefix(t *testing.T) {
	dir := t.TempDir()
	for _, cfg := range []Config{{Steps: 1, Prefix: "srun"}, {Steps: 1, Prefix: "timestamp"}, {Steps: 1, StopAfter: 3}} {
		if paths, err := WriteFiles(dir, cfg); err == nil || paths != nil {
			t.Errorf("WriteFiles(%+v) = %v, %v; want an error", cfg, paths, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("rejected configs wrote %d files", len(entries))
	}
}

func TestInvalidFaults(t *testing.T) {
	bad := []Config{
		{Steps: 1, Ranks: 4, StopRank: Rank(4)},
		{Steps: 1, Ranks: 4, StopRank: Rank(-1)},
		{Steps: 1, StopAfter: 3},
		{Steps: 1, StopRank: Rank(1), StopAfter: -1},
		{Steps: 1, MismatchRank: Rank(1)},
		{Steps: 1, MismatchRank: Rank(1), MismatchKind: "op"},
		{Steps: 1, MismatchRank: Rank(1), MismatchKind: "count", MismatchCall: -2},
		{Steps: 1, MismatchKind: "count"},
		{Steps: 1, MismatchCall: 4},
		{Steps: 1, AbortRank: Rank(99)},
		{Steps: 1, MissingRank: Rank(2), StopRank: Rank(2)},
		{Steps: 1, MissingRank: Rank(2), AbortRank: Rank(2)},
		{Steps: 1, MissingRank: Rank(2), MismatchRank: Rank(2), MismatchKind: "dtype"},
	}
	for _, c := range bad {
		if err := c.Validate(); err == nil {
			t.Errorf("Validate(%+v) = nil", c)
		}
	}
	good := Config{Steps: 1, Ranks: 4, StopRank: Rank(0), MismatchRank: Rank(0), MismatchKind: "count",
		AbortRank: Rank(0), MissingRank: Rank(3), Teardown: true}
	if err := good.Validate(); err != nil {
		t.Errorf("Validate(%+v) = %v", good, err)
	}
}
