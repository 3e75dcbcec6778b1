// Command nccllog-gen writes a synthetic multi-rank NCCL_DEBUG=INFO training log.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/nccllog/nccllog/internal/gen"
)

const about = `nccllog-gen writes a realistic, deterministic NCCL_DEBUG=INFO log of a
multi-rank training job (init blocks, COLL lines of every rank interleaved,
one progress line per step) for benchmarking and testing nccllog. The same
flags always give byte-identical output. Without --steps or --size it writes
100 steps.

With --per-rank-dir it writes one file per process instead, as
NCCL_DEBUG_FILE=DIR/nccl.%h.%p.log would (rank 0's file also gets the
progress lines), and prints the paths of the files. With --per-node-dir it
writes one file per node, DIR/nccl.<host>.log, holding that node's processes'
lines interleaved (a node's own job log).

--clean-abort ends a healthy run as PyTorch's destroy_process_group does:
Abort COMPLETE on every rank. --gpus-per-process N makes one process drive N
GPUs (ncclCommInitAll, nccl-tests -g N, TensorFlow MirroredStrategy).

Faults, for testing rank analysis (each names a global rank; the other ranks'
lines stay as they are without the fault):
  --stop-rank N --stop-after K    rank N prints its first K calls on the world
                                  communicator and then nothing more (hung)
  --mismatch-rank N --mismatch-call K --mismatch-kind count|dtype
                                  rank N's K-th world call (0-based) has
                                  count+1 or another datatype
  --abort-rank N                  rank N prints Abort COMPLETE lines after its
                                  last call (with --stop-rank N: where it stops)
  --missing-rank N                rank N prints nothing at all
  --watchdog-rank N --watchdog-seq S
                                  rank N never enqueues world work S (PyTorch's
                                  SeqNum, 1-based); the other ranks enqueue it,
                                  wait, and print PyTorch's watchdog timeout
                                  lines for it (this fault changes their lines)

Failure scenarios, for testing diagnosis (--failure SCENARIO; the job runs
normally to half of --steps or --size, then fails as real jobs do, printing
the launcher's, Python's, PyTorch's and NCCL's lines; the default failing rank
is the second rank of the second host):
  exit-slurm, exit-torchrun, exit-mpirun
                    --failure-rank N exits with code 1 after a Python
                    traceback; the launcher names it (srun "task N: Exited
                    with exit code 1", torchrun's ChildFailedError root
                    cause, Open MPI's "The first process to do so was");
                    the other ranks see "Connection closed by remote peer
                    <its host>", abort and die
  oom               rank N's traceback ends in torch.OutOfMemoryError; it
                    aborts alone and the others' watchdogs time out
  ib-error          rank N's NIC reports "NET/IB : Got completion from peer
                    ... status=12"; it aborts and every other process follows
  init-fail         every rank's init fails (ibv_modify_qp times out): Init
                    START with no COMPLETE, WARN chain, ncclSystemError
  shared-timeout    every rank's watchdog times out on the same work; with
                    --glue-watchdog half of those lines start in the middle
                    of another process's NCCL line
  ras               rank N and another hang one operation behind; an NCCL RAS
                    report naming both is pasted at the end (--nccl-version
                    2.24 or later, 8 ranks or more); --ras-format json pastes
                    it in JSON form (2.28.7 or later)
--failure-host H makes the failing rank the second rank of host H (or its
only one).

Mixes, for benchmarks (--mix NAME --size SIZE [--seed N] [-o FILE]; the
other flags do not apply): collective (the default log), init (the init
lines of 4,096-rank jobs), job (torchrun output: NCCL lines between the
script's log lines, free text and Python tracebacks), text (random printable
text), binary (random bytes).

Distinct things, for measuring memory (--distinct KIND --count N [-o FILE]):
comms (N communicators of one rank, an Init line and a call each, over 64
processes), cycle (one comm pointer through Init, a call and Destroy N
times), shapes (N calls, each of another op, count and datatype), steps (N
steps numbered from 2^32, one call each), files (N small per-process files
into --per-rank-dir DIR).

Usage: nccllog-gen [flags]
`

// usageError is a mistake on the command line (exit status 2).
type usageError struct{ error }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cfg, dest, err := parseArgs(args, stdout)
	if errors.Is(err, pflag.ErrHelp) {
		return 0
	}
	switch {
	case err != nil:
	case dest.distinct != "":
		err = generateDistinct(dest, stdout)
	case dest.mix != "":
		err = generateMix(dest, cfg, stdout)
	case dest.dir != "":
		err = generateFiles(gen.WriteFiles, cfg, dest.dir, stdout)
	case dest.nodeDir != "":
		err = generateFiles(gen.WriteNodes, cfg, dest.nodeDir, stdout)
	default:
		err = generate(cfg, dest.output, stdout)
	}
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "nccllog-gen: %v\n", err)
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

// destination says where the log goes: a file (- for stdout), a directory of
// per-process files or one of per-node files. mix is set where --mix asks for
// one of gen.Mixes instead, distinct where --distinct asks for count of one of
// gen.DistinctKinds.
type destination struct {
	output, dir, nodeDir, mix, distinct string
	count                               int64
}

func parseArgs(args []string, stdout io.Writer) (gen.Config, destination, error) {
	fs := pflag.NewFlagSet("nccllog-gen", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	size := fs.String("size", "", "approximate output size: 1GiB, 100MiB, 500M (=MiB), 10MB (decimal) or plain bytes")
	steps := fs.Int("steps", 0, "number of training steps (default 100 unless --size is given)")
	seed := fs.Int64("seed", 1, "random seed")
	ranks := fs.Int("ranks", 16, "total number of ranks")
	perHost := fs.Int("ranks-per-host", 8, "ranks per host (hosts are gpu-node-00, gpu-node-01, ...)")
	prefix := fs.String("prefix", "", "launcher prefix on every line: srun, mpirun, torchrun or timestamp")
	progress := fs.String("progress", "nemo", "progress line style: nemo, megatron, torchtitan or none")
	noise := fs.Bool("noise", false, "add application lines, blank lines and NCCL WARNs")
	version := fs.String("nccl-version", "2.21.5", "NCCL version whose formats to use (2.18 or later)")
	output := fs.StringP("output", "o", "-", "output file (- for stdout)")
	dir := fs.String("per-rank-dir", "", "write one file per process, nccl.<host>.<pid>.log, into `DIR` (created if needed) instead of one interleaved log; not with --prefix or --output")
	nodeDir := fs.String("per-node-dir", "", "write one file per node, nccl.<host>.log, into `DIR` (created if needed); not with --prefix, --output or --per-rank-dir")
	teardown := fs.Bool("teardown", false, "end the run with a Destroy COMPLETE line per rank and communicator")
	cleanAbort := fs.Bool("clean-abort", false, "end the run with an Abort COMPLETE line per rank and communicator, as PyTorch's destroy_process_group does")
	gpusPerProc := fs.Int("gpus-per-process", 1, "ranks (GPUs) one process drives; must divide --ranks-per-host")
	watchdogRank := fs.Int("watchdog-rank", 0, "fault: global rank `N` never enqueues world work --watchdog-seq; the others time out on it")
	watchdogSeq := fs.Int("watchdog-seq", 1, "fault: PyTorch SeqNum `S` (1-based world call) the --watchdog-rank never enqueues")
	stopRank := fs.Int("stop-rank", 0, "fault: global rank `N` stops logging after --stop-after calls on the world communicator")
	stopAfter := fs.Int("stop-after", 0, "fault: number `K` of world-communicator calls the --stop-rank prints before it stops (0: none)")
	mismatchRank := fs.Int("mismatch-rank", 0, "fault: global rank `N` logs a different count or datatype in one world-communicator call")
	mismatchCall := fs.Int("mismatch-call", 0, "fault: index `K` (0-based) of the --mismatch-rank's world-communicator call that differs")
	mismatchKind := fs.String("mismatch-kind", "count", "fault: what differs in the --mismatch-call: count (count+1) or dtype")
	abortRank := fs.Int("abort-rank", 0, "fault: global rank `N` prints Abort COMPLETE lines for its communicators after its last call, then stops")
	missingRank := fs.Int("missing-rank", 0, "fault: global rank `N` prints nothing at all (no file with --per-rank-dir)")
	failure := fs.String("failure", "", "failure scenario `SCENARIO`: "+strings.Join(gen.Failures, ", "))
	failureRank := fs.Int("failure-rank", 0, "failure: global rank `N` that fails first (default: the second rank of the second host)")
	failureHost := fs.Int("failure-host", 0, "failure: host index `H` whose second rank fails first (instead of --failure-rank)")
	glue := fs.Bool("glue-watchdog", false, "failure shared-timeout: glue half of the watchdog lines into other processes' NCCL lines")
	rasFormat := fs.String("ras-format", "text", "failure ras: the report's `FORM`, text or json (ncclras -f json, --nccl-version 2.28.7 or later)")
	mix := fs.String("mix", "", "write the benchmark mix `NAME` (collective, init, job, text, binary) of --size bytes instead")
	distinct := fs.String("distinct", "", "write the distinct-things input `KIND` (comms, cycle, shapes, steps, files) with --count things instead")
	count := fs.Int64("count", 1000, "how many distinct things --distinct writes")
	stamps := fs.String("timestamps", "none", "time on every line, following the simulated clock: `FORM` "+strings.Join(gen.Timestamps, ", ")+
		" (nccl-warn: NCCL's default, WARN lines only; nccl-all: every NCCL line; the others: a collector's or logger's on every line)")
	stampDigits := fs.Int("timestamp-digits", 0, "fraction-of-second digits the --timestamps print: 1 to 9, 0 for the form's own, -1 for none")
	skew := fs.Duration("clock-skew", 0, "host i's clock runs i*`DURATION` ahead (e.g. 250ms); needs --timestamps")
	jitter := fs.Duration("arrival-jitter", 0, "in-step arrival times: every rank logs a step's i-th call at the same moment, give or take `DURATION` (e.g. 2ms); needs --timestamps")
	stragRanks := fs.IntSlice("straggler-rank", nil, "global ranks `N[,N...]` log their calls --straggler-lag later than their peers (needs --timestamps; turns --arrival-jitter on, 2ms by default)")
	stragKinds := fs.StringSlice("straggler-kind", []string{gen.StragglerChronic}, "each straggler is late on every step (chronic) or on one or two steps (one-off): one `KIND` for all, or one per --straggler-rank")
	stragLags := fs.DurationSlice("straggler-lag", []time.Duration{gen.DefaultStragglerLag}, "how much later the stragglers' calls are logged: one `DURATION` for all, or one per --straggler-rank")
	err := fs.Parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		fmt.Fprint(stdout, about+"\nFlags:\n"+fs.FlagUsages())
		return gen.Config{}, destination{}, err
	}
	if err != nil {
		return gen.Config{}, destination{}, usageError{err}
	}
	if fs.NArg() > 0 {
		return gen.Config{}, destination{}, usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	dest := destination{output: *output, dir: *dir, nodeDir: *nodeDir, mix: *mix, distinct: *distinct, count: *count}
	if dest.distinct != "" {
		return gen.Config{}, dest, checkDistinct(dest)
	}
	cfg := gen.Config{Seed: *seed, Ranks: *ranks, RanksPerHost: *perHost, Steps: *steps,
		Prefix: *prefix, Progress: *progress, Noise: *noise, NCCLVersion: *version, Teardown: *teardown,
		CleanAbort: *cleanAbort, GPUsPerProcess: *gpusPerProc, Timestamps: *stamps, TimestampDigits: *stampDigits, ClockSkew: *skew}
	if fs.Changed("watchdog-rank") {
		cfg.WatchdogRank, cfg.WatchdogSeq = gen.Rank(*watchdogRank), *watchdogSeq
	} else if fs.Changed("watchdog-seq") {
		return cfg, dest, usageError{errors.New("--watchdog-seq needs --watchdog-rank")}
	}
	cfg.ArrivalJitter = *jitter
	if cfg.Stragglers, err = stragglers(fs, *stragRanks, *stragKinds, *stragLags); err != nil {
		return cfg, dest, usageError{err}
	}
	if *size != "" {
		if cfg.Size, err = parseSize(*size); err != nil {
			return cfg, dest, usageError{err}
		}
	}
	if err := setFaults(fs, &cfg, *stopRank, *stopAfter, *mismatchRank, *mismatchCall, *mismatchKind, *abortRank, *missingRank); err != nil {
		return cfg, dest, usageError{err}
	}
	if err := setFailure(fs, &cfg, *failure, *failureRank, *failureHost, *glue); err != nil {
		return cfg, dest, usageError{err}
	}
	if fs.Changed("ras-format") {
		cfg.RASFormat = *rasFormat
	}
	if dest.dir != "" && (fs.Changed("output") || cfg.Prefix != "") {
		return cfg, dest, usageError{errors.New("--per-rank-dir writes files without launcher prefixes; do not combine it with --output or --prefix")}
	}
	if dest.nodeDir != "" && (fs.Changed("output") || cfg.Prefix != "" || dest.dir != "") {
		return cfg, dest, usageError{errors.New("--per-node-dir writes files without launcher prefixes; do not combine it with --output, --prefix or --per-rank-dir")}
	}
	if dest.mix != "" && !slices.Contains(gen.Mixes, dest.mix) {
		return cfg, dest, usageError{fmt.Errorf("unknown mix %q (want one of %s)", dest.mix, strings.Join(gen.Mixes, ", "))}
	}
	if dest.mix != "" && (cfg.Size == 0 || dest.dir != "" || dest.nodeDir != "") {
		return cfg, dest, usageError{errors.New("--mix needs --size and writes one file, not --per-rank-dir or --per-node-dir")}
	}
	if cfg.Steps == 0 && cfg.Size == 0 {
		cfg.Steps = 100
	}
	if cfg.Ranks < 1 || cfg.RanksPerHost < 1 {
		return cfg, dest, usageError{errors.New("--ranks and --ranks-per-host must be at least 1")}
	}
	if err := cfg.Validate(); err != nil {
		return cfg, dest, usageError{err}
	}
	return cfg, dest, nil
}

// setFaults copies the fault flags that were given into cfg.
func setFaults(fs *pflag.FlagSet, cfg *gen.Config, stopRank, stopAfter, mismatchRank, mismatchCall int,
	mismatchKind string, abortRank, missingRank int) error {
	if fs.Changed("stop-rank") {
		cfg.StopRank, cfg.StopAfter = gen.Rank(stopRank), stopAfter
	} else if fs.Changed("stop-after") {
		return errors.New("--stop-after needs --stop-rank")
	}
	if fs.Changed("mismatch-rank") {
		cfg.MismatchRank, cfg.MismatchCall, cfg.MismatchKind = gen.Rank(mismatchRank), mismatchCall, mismatchKind
	} else if fs.Changed("mismatch-call") || fs.Changed("mismatch-kind") {
		return errors.New("--mismatch-call and --mismatch-kind need --mismatch-rank")
	}
	if fs.Changed("abort-rank") {
		cfg.AbortRank = gen.Rank(abortRank)
	}
	if fs.Changed("missing-rank") {
		cfg.MissingRank = gen.Rank(missingRank)
	}
	return nil
}

// setFailure copies the failure flags that were given into cfg.
func setFailure(fs *pflag.FlagSet, cfg *gen.Config, failure string, rank, host int, glue bool) error {
	cfg.Failure, cfg.GlueWatchdog = failure, glue
	switch {
	case failure == "" && (fs.Changed("failure-rank") || fs.Changed("failure-host") || glue):
		return errors.New("--failure-rank, --failure-host and --glue-watchdog need --failure")
	case fs.Changed("failure-rank") && fs.Changed("failure-host"):
		return errors.New("give --failure-rank or --failure-host, not both")
	case fs.Changed("failure-rank"):
		cfg.FailureRank = gen.Rank(rank)
	case fs.Changed("failure-host"):
		per := cfg.RanksPerHost
		if per == 0 {
			per = min(8, cfg.Ranks)
		}
		if host < 0 || host*per >= cfg.Ranks {
			return fmt.Errorf("--failure-host %d is not a host (the job has %d)", host, (cfg.Ranks+per-1)/per)
		}
		cfg.FailureRank = gen.Rank(min(host*per+1, cfg.Ranks-1))
	}
	return nil
}

// parseSize reads a byte count: plain bytes, K/M/G/T or KiB/MiB/GiB/TiB
// (powers of 1024), or KB/MB/GB/TB (powers of 1000). Case does not matter.
func parseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	i := strings.IndexFunc(t, func(r rune) bool { return r < '0' || r > '9' })
	if i < 0 {
		i = len(t)
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("invalid size %q", s)
	}
	mult, ok := sizeUnit(strings.TrimSpace(t[i:]))
	if !ok || (n > 0 && mult > (1<<62)/n) {
		return 0, fmt.Errorf("invalid size %q (use e.g. 1GiB, 100MiB, 500M or 4096)", s)
	}
	return n * mult, nil
}

func sizeUnit(u string) (int64, bool) {
	const units = "KMGT"
	if u == "" || u == "B" {
		return 1, true
	}
	k := strings.IndexByte(units, u[0])
	if k < 0 {
		return 0, false
	}
	bin, dec := int64(1)<<(10*(k+1)), int64(1)
	for j := 0; j <= k; j++ {
		dec *= 1000
	}
	switch u[1:] {
	case "", "IB":
		return bin, true
	case "B":
		return dec, true
	}
	return 0, false
}

// generate writes the log to the named file, or to stdout for "-".
func generate(cfg gen.Config, name string, stdout io.Writer) error {
	if name == "-" || name == "" {
		_, err := gen.Write(stdout, cfg)
		return err
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	_, werr := gen.Write(f, cfg)
	cerr := f.Close()
	if werr != nil {
		return werr
	}
	return cerr
}

// generateFiles writes the files of write (one per process or per node) into dir
// and prints their paths.
func generateFiles(write func(string, gen.Config) ([]string, error), cfg gen.Config, dir string, stdout io.Writer) error {
	paths, err := write(dir, cfg)
	if err != nil {
		return err
	}
	for _, p := range paths {
		if _, err := fmt.Fprintln(stdout, p); err != nil {
			return err
		}
	}
	return nil
}

// generateMix writes the mix dest names, of cfg.Size bytes and cfg.Seed, to the named file
// or to stdout for "-".
func generateMix(dest destination, cfg gen.Config, stdout io.Writer) error {
	if dest.output == "-" || dest.output == "" {
		return gen.WriteMix(stdout, dest.mix, cfg.Size, cfg.Seed)
	}
	f, err := os.Create(dest.output)
	if err != nil {
		return err
	}
	werr := gen.WriteMix(f, dest.mix, cfg.Size, cfg.Seed)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

// stragglers pairs each --straggler-rank with its kind and lag (one for all, or one each).
func stragglers(fs *pflag.FlagSet, ranks []int, kinds []string, lags []time.Duration) ([]gen.Straggler, error) {
	if len(ranks) == 0 {
		if fs.Changed("straggler-kind") || fs.Changed("straggler-lag") {
			return nil, errors.New("--straggler-kind and --straggler-lag need --straggler-rank")
		}
		return nil, nil
	}
	if len(kinds) != 1 && len(kinds) != len(ranks) || len(lags) != 1 && len(lags) != len(ranks) {
		return nil, fmt.Errorf("%d straggler ranks: give one --straggler-kind and --straggler-lag for all, or one each", len(ranks))
	}
	out := make([]gen.Straggler, len(ranks))
	for i, r := range ranks {
		out[i] = gen.Straggler{Rank: r, Kind: kinds[min(i, len(kinds)-1)], Lag: lags[min(i, len(lags)-1)]}
	}
	return out, nil
}
