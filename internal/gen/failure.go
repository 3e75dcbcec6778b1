package gen

import (
	"errors"
	"fmt"
	"io"
	"slices"
)

// Failures lists the failure scenarios Config.Failure accepts.
var Failures = []string{"exit-slurm", "exit-torchrun", "exit-mpirun", "oom", "ib-error", "init-fail", "shared-timeout", "ras"}

// FaultKind is what kind of fault came first in a failure scenario.
type FaultKind int

// The kinds of first fault, named as nccllog diagnose names them.
const (
	FaultNone            FaultKind = iota
	FaultProcessExit               // a process exited; the launcher names it
	FaultOOM                       // a rank ran out of GPU memory (Python traceback)
	FaultInitFailure               // communicator init failed
	FaultNetworkError              // a NIC or link failed (NET/IB completion error)
	FaultWatchdogTimeout           // PyTorch's watchdog timed out
	FaultRASReport                 // an NCCL RAS report names outlier ranks
)

var faultKindNames = [...]string{"none", "process-exit", "oom", "init-failure", "network-error", "watchdog-timeout", "ras-report"}

func (k FaultKind) String() string {
	if k < 0 || int(k) >= len(faultKindNames) {
		return fmt.Sprintf("FaultKind(%d)", int(k))
	}
	return faultKindNames[k]
}

// Truth is the ground truth of a failure scenario: what failed first, where,
// and which ranks print errors only because of it.
type Truth struct {
	Scenario string
	Kind     FaultKind
	// Shared is set where every rank has the fault alike (init-fail,
	// shared-timeout): there is no first rank, and Rank is -1.
	Shared bool
	// Rank, Host and PID name the process that failed first.
	Rank int
	Host string
	PID  int
	// Ranks are the outlier ranks a RAS report names (ras), in rank order.
	Ranks []int
	// NIC and Peer are the HCA and the remote address of a network error.
	NIC, Peer string
	// Launcher is "slurm", "torchrun" or "mpirun" where a launcher line names
	// the process.
	Launcher string
	// Seq is PyTorch's SeqNum of the world work the ranks stopped in (0 for
	// init-fail).
	Seq int
	// Consequences are the ranks whose errors, aborts or timeouts follow
	// from the first fault, in rank order.
	Consequences []int
	// Stragglers are what Config.Stragglers made, in their order. Without a failure
	// scenario, Truth holds only them (Scenario "", Rank -1).
	Stragglers []StragglerTruth
}

// Truth returns the ground truth of c's failure scenario, as Write reports
// it in Summary.Truth (it generates the log and discards it); the zero Truth (Kind FaultNone) when c has none.
func (c Config) Truth() (Truth, error) {
	s, err := Write(io.Discard, c)
	if err != nil || s.Truth == nil {
		return Truth{}, err
	}
	return *s.Truth, nil
}

// failure is the state of Config's failure scenario during a run.
type failure struct {
	scenario string
	rank     int // the first failing rank; -1 for shared faults
	second   int // ras: the other outlier rank
	seq      int // world work (PyTorch SeqNum) the ranks stop in; 0 before the stall
	atMs     int64
}

// defaultFailureRank is the rank a scenario fails on unless FailureRank says:
// the second rank of the second host, or the last rank on one host.
func defaultFailureRank(c Config) int {
	if c.Ranks > c.RanksPerHost+1 {
		return c.RanksPerHost + 1
	}
	return c.Ranks - 1
}

func newFailure(c Config) failure {
	f := failure{scenario: c.Failure, rank: -1, second: -1}
	if c.Failure == "" {
		return f
	}
	f.rank = defaultFailureRank(c)
	if c.FailureRank != nil {
		f.rank = *c.FailureRank
	}
	switch c.Failure {
	case "init-fail", "shared-timeout":
		f.rank = -1
	case "ras":
		f.second = (f.rank + c.Ranks/2 + 1) % c.Ranks
		if f.second == f.rank {
			f.second = (f.rank + 1) % c.Ranks
		}
	}
	return f
}

// checkFailure reports whether Config's failure fields make sense.
func (c Config) checkFailure(v version) error {
	if c.Failure == "" {
		switch {
		case c.FailureRank != nil:
			return errors.New("FailureRank is set but Failure is not")
		case c.GlueWatchdog:
			return errors.New("GlueWatchdog is set but Failure is not")
		case c.RASFormat != "":
			return errors.New("RASFormat is set but Failure is not")
		}
		return nil
	}
	if !slices.Contains(Failures, c.Failure) {
		return fmt.Errorf("unknown failure %q (want one of %v)", c.Failure, Failures)
	}
	if r := c.FailureRank; r != nil && (*r < 0 || *r >= c.Ranks) {
		return fmt.Errorf("FailureRank %d is not a rank (want 0..%d)", *r, c.Ranks-1)
	}
	switch {
	case c.StopRank != nil || c.MismatchRank != nil || c.AbortRank != nil || c.MissingRank != nil || c.WatchdogRank != nil:
		return errors.New("a failure scenario excludes the other faults")
	case c.Teardown || c.CleanAbort:
		return errors.New("a failure scenario ends the run itself; leave Teardown and CleanAbort off")
	case c.GPUsPerProcess > 1:
		return errors.New("failure scenarios need one rank per process")
	case c.Ranks < 2:
		return errors.New("failure scenarios need at least 2 ranks")
	case c.GlueWatchdog && c.Failure != "shared-timeout":
		return errors.New("GlueWatchdog applies to the shared-timeout failure only")
	case c.Failure == "ib-error" && c.Ranks <= c.RanksPerHost:
		return errors.New("the ib-error failure needs ranks on at least 2 hosts")
	case c.Failure == "ras" && c.Ranks < 8:
		return errors.New("the ras failure needs at least 8 ranks (RAS lists 2 outliers only among 8 or more)")
	case c.Failure == "ras" && !v.atLeast(24):
		return errors.New("the ras failure needs NCCL 2.24 or later (RAS reports began there)")
	case c.RASFormat != "" && c.RASFormat != "text" && c.RASFormat != "json":
		return fmt.Errorf("unknown RAS report format %q (text or json)", c.RASFormat)
	case c.RASFormat == "json" && c.Failure != "ras":
		return errors.New("the json RAS report format applies to the ras failure only")
	case c.RASFormat == "json" && (v.minor < 28 || v.minor == 28 && v.patch < 7):
		return errors.New("the json RAS report needs NCCL 2.28.7 or later (ncclras -f json began there)")
	}
	return nil
}

// truth describes g's failure scenario.
func (g *gen) truth() Truth {
	f := &g.fail
	if f.scenario == "" {
		return Truth{}
	}
	t := Truth{Scenario: f.scenario, Rank: f.rank, Seq: f.seq}
	switch f.scenario {
	case "exit-slurm", "exit-torchrun", "exit-mpirun":
		t.Kind, t.Launcher = FaultProcessExit, f.scenario[len("exit-"):]
	case "oom":
		t.Kind = FaultOOM
	case "ib-error":
		t.Kind, t.NIC = FaultNetworkError, "mlx5_0"
		t.Peer = g.ibPeerAddr()
	case "init-fail":
		t.Kind, t.Shared, t.Seq = FaultInitFailure, true, 0
	case "shared-timeout":
		t.Kind, t.Shared = FaultWatchdogTimeout, true
	case "ras":
		t.Kind, t.Ranks = FaultRASReport, []int{min(f.rank, f.second), max(f.rank, f.second)}
	}
	if f.rank >= 0 {
		p := &g.topo.procs[f.rank]
		t.Host, t.PID = hostName(p.host), p.pid
	}
	for r := range g.topo.procs {
		if r != f.rank && !slices.Contains(t.Ranks, r) {
			t.Consequences = append(t.Consequences, r)
		}
	}
	if t.Shared {
		t.Consequences = nil
	}
	return t
}
