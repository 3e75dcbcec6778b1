// Package gen writes deterministic, realistic multi-rank NCCL_DEBUG=INFO training logs.
// It makes large inputs for benchmarks and small inputs with known contents for tests.
//
// # Failure scenarios
//
// Config.Failure makes the job fail half way as real jobs do, each process
// printing what it prints then (launcher, Python, PyTorch and NCCL lines, in
// order across processes, interleaved as ever), and Summary.Truth (or
// Config.Truth) tells what failed first, where, and which ranks only follow:
//   - exit-slurm, exit-torchrun, exit-mpirun: one process exits after a Python
//     traceback and its launcher names it; the others log "Connection closed by
//     remote peer <its host>", abort and die (kind process-exit);
//   - oom: one rank's traceback ends in torch.OutOfMemoryError, it aborts alone,
//     the others' watchdogs time out (oom);
//   - ib-error: one rank's NIC reports a completion error with status=12, it
//     aborts and every other process follows (network-error);
//   - init-fail: every rank's init fails with the same WARN chain, Init START
//     without COMPLETE (init-failure, shared);
//   - shared-timeout: every rank's watchdog times out on the same work, with
//     GlueWatchdog half of those lines glued into other processes' NCCL lines
//     (watchdog-timeout, shared);
//   - ras: two ranks hang an operation behind and an NCCL RAS report naming
//     them is pasted at the end (ras-report), in text or, with RASFormat
//     "json", in JSON form.
package gen

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Config says what log to generate. Zero values of Ranks, RanksPerHost,
// NCCLVersion and Progress select the defaults (16, 8, "2.21.5", "nemo").
type Config struct {
	Seed         int64
	Ranks        int    // total ranks, e.g. 16
	RanksPerHost int    // e.g. 8; hosts are named gpu-node-00, gpu-node-01, ...
	Steps        int    // number of training steps; 0 = as many as needed for Size
	Size         int64  // approximate bytes; stop after the step in which Size is reached (0 = use Steps)
	Prefix       string // "", "srun", "mpirun", "torchrun" or "timestamp"
	NCCLVersion  string // "2.21.5" by default; 2.18 and later are supported
	Noise        bool   // add application lines, blank lines and WARNs
	Progress     string // "nemo" (default), "megatron", "torchtitan" or "none"

	// Teardown makes every rank that is still running at the end of the run
	// print a "Destroy COMPLETE" line per communicator (world, then split).
	Teardown bool
	// CleanAbort makes every rank that is still running at the end print an
	// "Abort COMPLETE" line per communicator (world, then split), as PyTorch's
	// destroy_process_group does on a healthy job. It excludes Teardown.
	CleanAbort bool
	// GPUsPerProcess makes one process drive that many consecutive ranks, one
	// GPU each (ncclCommInitAll, nccl-tests -g N, TensorFlow's
	// MirroredStrategy): they share the host and pid and print on their own
	// threads and devices. 0 or 1: one rank per process. It must divide
	// RanksPerHost.
	GPUsPerProcess int

	// Timestamps is the form of the time every line carries (see Timestamps; "" or "none":
	// none). TimestampDigits is how many fraction digits it prints: 0 for the form's own
	// (NCCL's default format prints none, Kubernetes nine), -1 for none, or 1 to 9. Times
	// follow the simulated clock; ClockSkew sets host h's clock h*ClockSkew ahead of it.
	Timestamps      string
	TimestampDigits int
	ClockSkew       time.Duration
	// ArrivalJitter switches on the in-step arrival model: every rank logs the i-th call of
	// a step at the same moment, give or take up to ArrivalJitter (drawn apart from the
	// log's other draws, so the lines are those of the same job without it). Without it, a
	// line's time is where the interleaving put it, up to a step from its peers'.
	ArrivalJitter time.Duration
	// Stragglers log their calls late (see Straggler); they need Timestamps and turn the
	// arrival model on (DefaultArrivalJitter where ArrivalJitter is 0).
	// Summary.Truth.Stragglers says what they made.
	Stragglers []Straggler

	// Faults, for testing rank analysis. Each names a global rank through a
	// pointer (see Rank) because 0 is a rank; nil means the fault is off, so
	// the zero Config has none. A fault changes only the named rank's lines:
	// the same random draws are made, so with Steps the other ranks print
	// exactly what they print without it and carry on to the end of the run.
	// (With Size, fewer bytes can mean more steps; with AbortRank the order
	// of the end-of-run Destroy lines between ranks can change.)

	// StopRank stops logging after its StopAfter-th call on the world
	// communicator: it prints world calls 0..StopAfter-1 and then nothing more
	// (no split-comm calls, WARNs or, for rank 0, progress lines), as if it hung
	// inside that call. StopAfter 0 stops it right after its init lines. If the
	// run ends first, the rank never stops.
	StopRank  *int
	StopAfter int
	// MismatchRank logs its MismatchCall-th call on the world communicator
	// (0-based) with a different count (MismatchKind "count": count+1) or
	// datatype ("dtype": bf16, or fp32 where the others use bf16).
	MismatchRank *int
	MismatchCall int
	MismatchKind string
	// AbortRank prints, after its last call, "Abort START" (2.28+) and
	// "Abort COMPLETE" lines for its communicators (world, then split) and then
	// nothing more. Its last call is the end of the run, or where it stops
	// when AbortRank is also StopRank.
	AbortRank *int
	// MissingRank prints nothing at all (no file in WriteFiles). It must not
	// be the rank of another fault.
	MissingRank *int
	// WatchdogRank never enqueues the world communicator's work WatchdogSeq
	// (PyTorch's 1-based SeqNum: world call WatchdogSeq-1): it prints world
	// calls 0..WatchdogSeq-2 and then nothing more. Unlike the faults above,
	// it also changes the other ranks' lines: they enqueue that work, wait in
	// it, and at the end print PyTorch's watchdog timeout lines for it
	// ("Watchdog caught collective operation timeout: WorkNCCL(SeqNum=S, ...)"
	// and "Timeout at NCCL work: S, last enqueued NCCL work: S, last
	// completed NCCL work: S-1."). WatchdogSeq must be at least 1.
	WatchdogRank *int
	WatchdogSeq  int

	// Failure names a failure scenario (one of Failures; see the package
	// doc): the job fails half way through as real jobs do, printing the
	// launcher's, Python's, PyTorch's and NCCL's lines; Summary.Truth says
	// what failed first. FailureRank picks the failing rank (nil: the second
	// rank of the second host); GlueWatchdog glues half of shared-timeout's
	// watchdog lines into other processes' NCCL lines.
	Failure      string
	FailureRank  *int
	GlueWatchdog bool
	// RASFormat is the form of the ras scenario's report: "" or "text" (ncclras's default),
	// or "json" (`ncclras -f json`, NCCL 2.28.7 or later).
	RASFormat string
}

// Rank returns a pointer to r, for the rank fields of Config:
// Config{StopRank: gen.Rank(3), StopAfter: 40}.
func Rank(r int) *int { return &r }

// Summary says what Write wrote.
type Summary struct {
	Lines, CollLines, ProgressLines int64
	Bytes                           int64
	Truth                           *Truth // the failure scenario's ground truth; nil without Failure
}

const (
	defaultRanks        = 16
	defaultRanksPerHost = 8
	defaultVersion      = "2.21.5"
	defaultProgress     = "nemo"
	minMinor            = 18
)

// version is a parsed NCCL 2.x release number.
type version struct {
	text         string
	minor, patch int
}

// atLeast reports whether the version is 2.minor or later.
func (v version) atLeast(minor int) bool { return v.minor >= minor }

// cuda is the "+cudaX.Y" suffix printed after the version.
func (v version) cuda() string {
	switch {
	case v.minor >= 26:
		return "12.8"
	case v.minor >= 20:
		return "12.4"
	default:
		return "12.2"
	}
}

func parseVersion(s string) (version, error) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 || parts[0] != "2" {
		return version{}, fmt.Errorf("NCCL version %q: want 2.MINOR.PATCH", s)
	}
	minor, err1 := strconv.Atoi(parts[1])
	patch, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil || minor < 0 || patch < 0 {
		return version{}, fmt.Errorf("NCCL version %q: want 2.MINOR.PATCH", s)
	}
	if minor < minMinor {
		return version{}, fmt.Errorf("NCCL version %q: only 2.%d and later are supported", s, minMinor)
	}
	return version{text: s, minor: minor, patch: patch}, nil
}

// Validate reports whether Write accepts c.
func (c Config) Validate() error {
	_, _, err := c.normalize()
	return err
}

// normalize fills in defaults and checks the configuration.
func (c Config) normalize() (Config, version, error) {
	if c.Ranks == 0 {
		c.Ranks = defaultRanks
	}
	if c.RanksPerHost == 0 {
		c.RanksPerHost = min(defaultRanksPerHost, c.Ranks)
	}
	if c.NCCLVersion == "" {
		c.NCCLVersion = defaultVersion
	}
	if c.Progress == "" {
		c.Progress = defaultProgress
	}
	v, err := parseVersion(c.NCCLVersion)
	if err != nil {
		return c, v, err
	}
	if err := c.check(); err != nil {
		return c, v, err
	}
	return c, v, c.checkFailure(v)
}

func (c Config) check() error {
	switch {
	case c.Ranks < 1:
		return errors.New("ranks must be at least 1")
	case c.RanksPerHost < 1:
		return errors.New("ranks per host must be at least 1")
	case c.Steps < 0 || c.Size < 0:
		return errors.New("steps and size must not be negative")
	case c.Steps == 0 && c.Size == 0:
		return errors.New("set steps or size")
	}
	switch c.Prefix {
	case "", "srun", "mpirun", "torchrun", "timestamp":
	default:
		return fmt.Errorf("unknown prefix %q (want srun, mpirun, torchrun or timestamp)", c.Prefix)
	}
	switch c.Progress {
	case "nemo", "megatron", "torchtitan", "none":
	default:
		return fmt.Errorf("unknown progress style %q (want nemo, megatron, torchtitan or none)", c.Progress)
	}
	if err := c.checkStamps(); err != nil {
		return err
	}
	if err := c.checkStragglers(); err != nil {
		return err
	}
	return c.checkFaults()
}

func (c Config) checkFaults() error {
	for _, f := range []struct {
		name string
		rank *int
	}{{"StopRank", c.StopRank}, {"MismatchRank", c.MismatchRank}, {"AbortRank", c.AbortRank}, {"MissingRank", c.MissingRank},
		{"WatchdogRank", c.WatchdogRank}} {
		if f.rank != nil && (*f.rank < 0 || *f.rank >= c.Ranks) {
			return fmt.Errorf("%s %d is not a rank (want 0..%d)", f.name, *f.rank, c.Ranks-1)
		}
		if f.rank != nil && c.MissingRank != nil && f.name != "MissingRank" && *f.rank == *c.MissingRank {
			return fmt.Errorf("%s %d is also MissingRank, which prints nothing", f.name, *f.rank)
		}
	}
	switch {
	case c.StopRank == nil && c.StopAfter != 0:
		return errors.New("StopAfter is set but StopRank is not")
	case c.StopAfter < 0:
		return errors.New("StopAfter must not be negative")
	case c.MismatchRank == nil && (c.MismatchCall != 0 || c.MismatchKind != ""):
		return errors.New("MismatchCall or MismatchKind is set but MismatchRank is not")
	case c.MismatchCall < 0:
		return errors.New("MismatchCall must not be negative")
	case c.WatchdogRank != nil && c.WatchdogSeq < 1:
		return errors.New("WatchdogSeq must be at least 1 (PyTorch's SeqNum counts from 1)")
	case c.WatchdogRank == nil && c.WatchdogSeq != 0:
		return errors.New("WatchdogSeq is set but WatchdogRank is not")
	case c.WatchdogRank != nil && c.StopRank != nil:
		return errors.New("WatchdogRank stops ranks itself; leave StopRank off")
	case c.CleanAbort && c.Teardown:
		return errors.New("CleanAbort and Teardown both end the run; choose one")
	case c.GPUsPerProcess < 0 || (c.GPUsPerProcess > 1 && c.RanksPerHost%c.GPUsPerProcess != 0):
		return fmt.Errorf("GPUsPerProcess %d must divide RanksPerHost %d", c.GPUsPerProcess, c.RanksPerHost)
	}
	if c.MismatchRank != nil && c.MismatchKind != "count" && c.MismatchKind != "dtype" {
		return fmt.Errorf("unknown MismatchKind %q (want count or dtype)", c.MismatchKind)
	}
	return nil
}
