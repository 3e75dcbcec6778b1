package gen

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var (
	collRe = regexp.MustCompile(`^([^\s:]+):(\d+):(\d+) \[(\d+)\] NCCL INFO ` +
		`(AllReduce|AllGather|ReduceScatter|Broadcast|Reduce|Send|Recv|AlltoAll): ` +
		`opCount (\S+) sendbuff (\(nil\)|0x[0-9a-f]+) recvbuff (0x[0-9a-f]+) count (\d+) datatype (\d+) ` +
		`op (\d+) root (\d+) comm (0x[0-9a-f]+) \[nranks=(\d+)\] stream (0x[0-9a-f]+)$`)
	envelopeRe = regexp.MustCompile(`^(?:\[[^\]]+\] )?([^\s:]+):(\d+):(\d+) \[(\d+)\] `)
	initRe     = regexp.MustCompile(`^([^\s:]+):(\d+):\d+ \[\d+\] NCCL INFO (ncclCommInitRank|ncclCommSplit) ` +
		`comm (0x[0-9a-f]+) rank (\d+) nranks (\d+) .* - Init COMPLETE$`)
	nemoRe = regexp.MustCompile(`^Training epoch 0, iteration (\d+)/(\d+) \| lr: \d\.\d{3}e-\d\d \| ` +
		`global_batch_size: 128 \| global_step: (\d+) \| reduced_train_loss: \d+\.\d\d \| ` +
		`train_step_timing in s: \d+\.\d{3} \| TFLOPS_per_GPU: \d+\.\d \| consumed_samples: (\d+)$`)
	megatronRe = regexp.MustCompile(`^ \[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] iteration ([ \d]{8})/([ \d]{8}) \| ` +
		`consumed samples: ([ \d]{12}) \| elapsed time per iteration \(ms\): \d+\.\d \| ` +
		`learning rate: \d\.\d{6}E-\d\d \| global batch size:    16 \| lm loss: \d\.\d{6}E\+\d\d \| ` +
		`loss scale: 4096\.0 \| grad norm: \d+\.\d{3} \| throughput per GPU \(TFLOP/s/GPU\): \d+\.\d \| ` +
		`number of skipped iterations:   0 \| number of nan iterations:   0 \|$`)
	titanRe = regexp.MustCompile(`^\[titan\] \d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} - root - INFO - ` +
		`step: ([ \d]\d|\d{3,})  loss: [ \d]\d\.\d{5}  grad_norm: [ \d]\d\.\d{4}  ` +
		`memory: \d\d\.\d\dGiB\(\d+\.\d\d%\)  tps: \d{1,3}(,\d{3})*  tflops: \d+\.\d\d  mfu: \d+\.\d\d%$`)
	// prefixRes match a launcher's prefix; the body is the rest of the line (the lines hold
	// no newline). Matching the body too, as (.*)$, stepped the regexp through every byte of
	// every line: most of TestPrefixes' time.
	prefixRes = map[string]*regexp.Regexp{
		"srun":      regexp.MustCompile(`^(\d+): `),
		"mpirun":    regexp.MustCompile(`^\[1,(\d+)\]<stdout>:`),
		"torchrun":  regexp.MustCompile(`^\[rank(\d+)\]:`),
		"timestamp": regexp.MustCompile(`^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\] `),
	}
)

// write runs Write and fails the test on error.
func write(t *testing.T, cfg Config) ([]byte, Summary) {
	t.Helper()
	var buf bytes.Buffer
	sum, err := Write(&buf, cfg)
	if err != nil {
		t.Fatalf("Write(%+v): %v", cfg, err)
	}
	return buf.Bytes(), sum
}

// splitLines splits output into lines without their newlines.
func splitLines(t *testing.T, out []byte) []string {
	t.Helper()
	if len(out) == 0 || out[len(out)-1] != '\n' {
		t.Fatalf("output does not end in a newline")
	}
	return strings.Split(string(out[:len(out)-1]), "\n")
}

// unprefix removes the launcher prefix; rank is -1 when the prefix has none.
func unprefix(kind, line string) (rank int, body string, ok bool) {
	re := prefixRes[kind]
	if re == nil {
		return -1, line, true
	}
	m := re.FindStringSubmatch(line)
	if m == nil || strings.Contains(line, "\n") {
		return 0, "", false
	}
	body = line[len(m[0]):]
	if kind == "timestamp" {
		return -1, body, true
	}
	r, _ := strconv.Atoi(m[1])
	return r, body, true
}

func TestDeterministic(t *testing.T) {
	for _, prefix := range []string{"", "srun", "timestamp"} {
		cfg := Config{Seed: 7, Ranks: 8, RanksPerHost: 4, Steps: 6, Prefix: prefix, Noise: true}
		a, _ := write(t, cfg)
		b, _ := write(t, cfg)
		if !bytes.Equal(a, b) {
			t.Errorf("prefix %q: two runs with the same Config differ", prefix)
		}
		cfg.Seed = 8
		c, _ := write(t, cfg)
		if bytes.Equal(a, c) {
			t.Errorf("prefix %q: seeds 7 and 8 give identical output", prefix)
		}
	}
}

func TestSummaryMatchesOutput(t *testing.T) {
	for _, progress := range []string{"nemo", "megatron", "torchtitan", "none"} {
		cfg := Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 25, Noise: true, Progress: progress}
		out, sum := write(t, cfg)
		var coll, prog int64
		re := map[string]*regexp.Regexp{"nemo": nemoRe, "megatron": megatronRe, "torchtitan": titanRe}[progress]
		for _, l := range splitLines(t, out) {
			if collRe.MatchString(l) {
				coll++
			}
			if re != nil && re.MatchString(l) {
				prog++
			}
		}
		want := Summary{Lines: int64(bytes.Count(out, []byte("\n"))), CollLines: coll, ProgressLines: prog, Bytes: int64(len(out))}
		if sum != want {
			t.Errorf("%s: Summary %+v, counted %+v", progress, sum, want)
		}
		if progress != "none" && prog != 25 {
			t.Errorf("%s: %d progress lines, want 25", progress, prog)
		}
		if coll == 0 {
			t.Errorf("%s: no collective lines", progress)
		}
	}
}

// collKey identifies a (process, communicator) pair.
func collKey(m []string) string { return m[1] + ":" + m[2] + " " + m[13] }

func TestOpCountHexIncrementsPerRankAndComm(t *testing.T) {
	out, _ := write(t, Config{Seed: 1, Ranks: 16, RanksPerHost: 8, Steps: 20})
	next := map[string]uint64{}
	seen := map[string]bool{}
	hexRe := regexp.MustCompile(`^[0-9a-f]+$`)
	for _, l := range splitLines(t, out) {
		m := collRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if !hexRe.MatchString(m[6]) {
			t.Fatalf("opCount %q is not lowercase hex: %s", m[6], l)
		}
		v, _ := strconv.ParseUint(m[6], 16, 64)
		if v != next[collKey(m)] {
			t.Fatalf("opCount %s (=%d), want %x: %s", m[6], v, next[collKey(m)], l)
		}
		next[collKey(m)] = v + 1
		seen[m[6]] = true
	}
	if len(next) != 32 {
		t.Errorf("%d (process, comm) pairs issued ops, want 32", len(next))
	}
	for _, s := range []string{"9", "a", "f", "10", "ff", "100"} {
		if !seen[s] {
			t.Errorf("opCount %s never printed", s)
		}
	}
}

// steps splits lines at nemo progress lines: steps[i] holds the lines of step i.
func steps(lines []string) [][]string {
	var all [][]string
	var cur []string
	started := false
	for _, l := range lines {
		if nemoRe.MatchString(l) {
			all = append(all, cur)
			cur, started = nil, true
			continue
		}
		if started || collRe.MatchString(l) {
			started = true
			cur = append(cur, l)
		}
	}
	return all
}

func TestEveryRankSameOpsPerStep(t *testing.T) {
	cfg := Config{Seed: 5, Ranks: 12, RanksPerHost: 4, Steps: 15, Noise: true}
	out, _ := write(t, cfg)
	st := steps(splitLines(t, out))
	if len(st) != cfg.Steps {
		t.Fatalf("%d steps, want %d", len(st), cfg.Steps)
	}
	for i, lines := range st {
		seqs := map[string][]string{}
		for _, l := range lines {
			if m := collRe.FindStringSubmatch(l); m != nil {
				proc := m[1] + ":" + m[2]
				seqs[proc] = append(seqs[proc], strings.Join([]string{m[5], m[9], m[10], m[11], m[14]}, " "))
			}
		}
		if len(seqs) != cfg.Ranks {
			t.Fatalf("step %d: %d ranks issued ops, want %d", i, len(seqs), cfg.Ranks)
		}
		var ref []string
		for _, s := range seqs {
			if ref == nil {
				ref = s
			} else if strings.Join(s, "\n") != strings.Join(ref, "\n") {
				t.Fatalf("step %d: op sequences differ:\n%v\n%v", i, s, ref)
			}
		}
	}
}

func TestSizeStopsAfterTheStepThatReachesIt(t *testing.T) {
	for _, size := range []int64{1, 200_000, 1_000_000} {
		cfg := Config{Seed: 2, Ranks: 8, RanksPerHost: 4, Size: size}
		out, sum := write(t, cfg)
		if sum.Bytes < size {
			t.Errorf("size %d: wrote only %d bytes", size, sum.Bytes)
		}
		// The bytes before the last step's first line must be under size.
		var ends []int // offsets just after each progress line
		off := 0
		for _, l := range splitLines(t, out) {
			off += len(l) + 1
			if nemoRe.MatchString(l) {
				ends = append(ends, off)
			}
		}
		if len(ends) != int(sum.ProgressLines) || ends[len(ends)-1] != len(out) {
			t.Fatalf("size %d: output does not end with its last progress line", size)
		}
		if len(ends) > 1 && int64(ends[len(ends)-2]) >= size {
			t.Errorf("size %d: %d bytes were written before the last step", size, ends[len(ends)-2])
		}
		if sum.ProgressLines < 1 {
			t.Errorf("size %d: no step written", size)
		}
	}
}

func TestStepsAndIterationNumbers(t *testing.T) {
	out, sum := write(t, Config{Seed: 4, Ranks: 4, Steps: 12})
	if sum.ProgressLines != 12 {
		t.Fatalf("ProgressLines = %d, want 12", sum.ProgressLines)
	}
	i := 0
	for _, l := range splitLines(t, out) {
		if m := nemoRe.FindStringSubmatch(l); m != nil {
			want := []string{strconv.Itoa(i), "11", strconv.Itoa(i), strconv.Itoa((i + 1) * 128)}
			if got := m[1:]; strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("progress line %d: fields %v, want %v", i, got, want)
			}
			i++
		}
	}
}

func TestProgressStyles(t *testing.T) {
	for style, re := range map[string]*regexp.Regexp{"megatron": megatronRe, "torchtitan": titanRe} {
		out, _ := write(t, Config{Seed: 4, Ranks: 2, Steps: 11, Progress: style})
		n := 0
		for _, l := range splitLines(t, out) {
			m := re.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			if got := strings.TrimSpace(m[1]); got != strconv.Itoa(n) {
				t.Errorf("%s: step %q, want %d", style, got, n)
			}
			if style == "megatron" && strings.TrimSpace(m[3]) != strconv.Itoa(n*16) {
				t.Errorf("megatron: consumed samples %q at iteration %d", m[3], n)
			}
			n++
		}
		if n != 11 {
			t.Errorf("%s: %d progress lines match, want 11", style, n)
		}
	}
}

func TestPrefixes(t *testing.T) {
	for _, kind := range []string{"srun", "mpirun", "torchrun", "timestamp"} {
		t.Run(kind, func(t *testing.T) {
			cfg := Config{Seed: 9, Ranks: 16, RanksPerHost: 8, Steps: 30, Prefix: kind, Noise: true}
			out, _ := write(t, cfg)
			lines := splitLines(t, out)
			rankOf := map[string]int{} // host:pid -> global rank
			var bodies []string
			var ranks []int
			last := ""
			for _, l := range lines {
				if l == "" {
					continue
				}
				r, body, ok := unprefix(kind, l)
				if !ok {
					t.Fatalf("line without %s prefix: %q", kind, l)
				}
				if kind == "timestamp" {
					ts := l[1:20]
					if ts < last {
						t.Fatalf("timestamp went back from %s: %q", last, l)
					}
					last = ts
				}
				if m := initRe.FindStringSubmatch(body); m != nil && m[3] == "ncclCommInitRank" {
					rankOf[m[1]+":"+m[2]], _ = strconv.Atoi(m[5])
				}
				bodies, ranks = append(bodies, body), append(ranks, r)
			}
			checkRanks(t, kind, cfg, bodies, ranks, rankOf)
		})
	}
}

// checkRanks checks that each NCCL line carries its own rank's prefix and that
// [dev] is the local rank, and that progress lines carry rank 0's prefix.
func checkRanks(t *testing.T, kind string, cfg Config, bodies []string, ranks []int, rankOf map[string]int) {
	t.Helper()
	if len(rankOf) != cfg.Ranks {
		t.Fatalf("found %d world ranks, want %d", len(rankOf), cfg.Ranks)
	}
	for i, body := range bodies {
		if nemoRe.MatchString(body) && kind != "timestamp" && ranks[i] != 0 {
			t.Errorf("progress line has rank %d's prefix", ranks[i])
		}
		m := envelopeRe.FindStringSubmatch(body)
		if m == nil {
			continue
		}
		r, ok := rankOf[m[1]+":"+m[2]]
		if !ok {
			t.Fatalf("unknown process %s:%s", m[1], m[2])
		}
		if kind != "timestamp" && ranks[i] != r {
			t.Fatalf("rank %d's line has rank %d's prefix: %q", r, ranks[i], body)
		}
		if m[4] != strconv.Itoa(r%cfg.RanksPerHost) {
			t.Fatalf("rank %d prints device [%s]: %q", r, m[4], body)
		}
	}
}

func TestInitBlock(t *testing.T) {
	cfg := Config{Seed: 1, Ranks: 16, RanksPerHost: 8, Steps: 1}
	out, _ := write(t, cfg)
	lines := splitLines(t, out)
	if lines[0] != "NCCL version 2.21.5+cuda12.4" {
		t.Errorf("first line %q", lines[0])
	}
	if n := bytes.Count(out, []byte("NCCL version")); n != 1 {
		t.Errorf("%d version lines, want 1", n)
	}
	startRe := regexp.MustCompile(`^gpu-node-0[01]:(\d+):(\d+) \[[0-7]\] NCCL INFO comm 0x[0-9a-f]+ rank \d+ nranks 16 cudaDev [0-7] nvmlDev [0-7] busId [0-9a-f]+ commId (0x[0-9a-f]+) - Init START$`)
	splitRe := regexp.MustCompile(`^gpu-node-0[01]:\d+:\d+ \[[0-7]\] NCCL INFO ncclCommSplit comm 0x[0-9a-f]+ rank [01] nranks 2 cudaDev [0-7] nvmlDev [0-7] busId [0-9a-f]+ parent 0x[0-9a-f]+ color [0-7] key \d+ commId 0x[0-9a-f]+ - Init COMPLETE$`)
	timingsRe := regexp.MustCompile(`^gpu-node-0[01]:(\d+):(\d+) \[[0-7]\] NCCL INFO Init timings - ncclCommInitRank: rank \d+ nranks 16 total \d\.\d\d \(kernels \d\.\d\d, alloc \d\.\d\d, bootstrap \d\.\d\d, allgathers \d\.\d\d, topo \d\.\d\d, graphs \d\.\d\d, connections \d\.\d\d, rest \d\.\d\d\)$`)
	commIDs := map[string]bool{}
	var starts, splits, timings int
	for _, l := range lines {
		if m := startRe.FindStringSubmatch(l); m != nil {
			starts++
			commIDs[m[3]] = true
			if m[1] == m[2] {
				t.Errorf("Init START on the main thread: %q", l)
			}
		}
		if splitRe.MatchString(l) {
			splits++
		}
		if m := timingsRe.FindStringSubmatch(l); m != nil {
			timings++
			if m[1] != m[2] {
				t.Errorf("Init timings not on the main thread: %q", l)
			}
		}
	}
	if starts != 16 || splits != 16 || timings != 16 || len(commIDs) != 1 {
		t.Errorf("%d Init START, %d split COMPLETE, %d timings lines, %d world commIds; want 16, 16, 16, 1",
			starts, splits, timings, len(commIDs))
	}
}

func TestSizesAroundHistogramEdges(t *testing.T) {
	out, _ := write(t, Config{Seed: 11, Ranks: 4, Steps: 20})
	found := map[int64]bool{}
	var zero, unknown bool
	for _, l := range splitLines(t, out) {
		m := collRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		count, _ := strconv.ParseInt(m[9], 10, 64)
		dt, _ := strconv.Atoi(m[10])
		zero = zero || count == 0
		unknown = unknown || dt == 12
		found[count*elemSize(dt)] = true
		if m[5] == "Send" && m[7] != "(nil)" {
			t.Errorf("Send without sendbuff (nil): %q", l)
		}
	}
	// Gathers are bf16 and scatters fp32: one element off is 2 or 4 bytes.
	for _, e := range histogramEdges() {
		below, above := found[e-2] || found[e-4], found[e+2] || found[e+4]
		if !found[e] || !below || !above {
			t.Errorf("edge %d: at %v, one element below %v, above %v", e, found[e], below, above)
		}
	}
	if !zero || !unknown {
		t.Errorf("count 0 seen %v, datatype 12 seen %v; want both", zero, unknown)
	}
}

func TestNoise(t *testing.T) {
	quiet, _ := write(t, Config{Seed: 6, Ranks: 4, Steps: 80})
	if bytes.Contains(quiet, []byte("\n\n")) || bytes.Contains(quiet, []byte("NCCL WARN")) {
		t.Errorf("output without Noise has blank lines or WARNs")
	}
	noisy, _ := write(t, Config{Seed: 6, Ranks: 4, Steps: 80, Noise: true, Prefix: "srun"})
	lines := splitLines(t, noisy)
	warns := 0
	for i, l := range lines {
		if strings.Contains(l, " NCCL WARN ") {
			warns++
			if i == 0 || lines[i-1] != "" {
				t.Errorf("WARN not preceded by a blank line: %q", l)
			}
		}
	}
	if warns == 0 || !bytes.Contains(noisy, []byte("UserWarning")) || !bytes.Contains(noisy, []byte("Epoch 0:")) {
		t.Errorf("noisy output lacks WARNs (%d), Python warnings or tqdm lines", warns)
	}
}

func TestVersionFormats(t *testing.T) {
	cases := []struct {
		version   string
		want, not []string
	}{
		{"2.19.3", []string{"\nNCCL version 2.19.3+cuda12.2\n", "Bootstrap : Using", "NCCL INFO comm 0x", "Connected all rings\n"},
			[]string{"ncclCommInitRank", "Init timings", "ncclCommSplit", "Bytes -> Algo"}},
		{"2.22.3", []string{"NCCL INFO NCCL version 2.22.3+cuda12.4", "Init timings: rank", "commId 0x"},
			[]string{"Init timings -", "\nNCCL version"}},
		{"2.24.3", []string{"Bootstrap: Using", "NCCL INFO ncclCommInitRank comm", "splitCount 1 color", "- Init START"},
			[]string{"Bootstrap : Using"}},
		{"2.29.2", []string{"NCCL INFO [Rank 0] ncclCommInitRank comm", "childCount 1"}, []string{"splitCount"}},
	}
	for _, c := range cases {
		out, _ := write(t, Config{Seed: 1, Ranks: 4, RanksPerHost: 2, Steps: 8, NCCLVersion: c.version})
		s := "\n" + string(out)
		for _, w := range c.want {
			if !strings.Contains(s, w) {
				t.Errorf("%s: output lacks %q", c.version, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(s, w) {
				t.Errorf("%s: output has %q", c.version, w)
			}
		}
	}
}

func TestInvalidConfig(t *testing.T) {
	bad := []Config{
		{Steps: 1, Prefix: "slurm"},
		{Steps: 1, Progress: "keras"},
		{Steps: 1, NCCLVersion: "2.17.1"},
		{Steps: 1, NCCLVersion: "3.0"},
		{Steps: 1, Ranks: -1},
		{},
	}
	for _, c := range bad {
		var buf bytes.Buffer
		if _, err := Write(&buf, c); err == nil || buf.Len() != 0 {
			t.Errorf("Write(%+v): err %v, %d bytes; want an error and no output", c, err, buf.Len())
		}
		if c.Validate() == nil {
			t.Errorf("Validate(%+v) = nil", c)
		}
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	f.n += len(p)
	return 0, fmt.Errorf("disk full")
}

func TestWriteError(t *testing.T) {
	if _, err := Write(&failWriter{}, Config{Ranks: 16, Size: 8 << 20}); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("err = %v, want disk full", err)
	}
}
