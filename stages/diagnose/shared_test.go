package diagnose_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// ibErr writes the IB completion error with status st that p's proxy thread prints, and its
// chain.
func ibErr(p jobProc, peer string, st string) string {
	return chain(p, "transport/net_ib.cc:1300", "NET/IB : Got completion from peer "+peer+" with error "+st+", opcode 1"+st+", len 0, vendor err 81 (Send)", 6,
		"transport/net.cc:1010", "proxy.cc:680")
}

// TestSharedCause: where every process that shows evidence met the same origin and nothing
// else, the first finding is one shared finding naming every host, not the first by log order.
// One process's error that the other only follows (a peer that closed), or two different
// errors, are not shared.
func TestSharedCause(t *testing.T) {
	data, ps := warnJob(t)
	a, b := ps[1], ps[6] // on gpu-node-00 and gpu-node-01
	closed := warnAt(b, 8006, "misc/socket.cc:540", "socketProgress: Connection closed by remote peer "+a.host+"<40001>")
	for _, c := range []struct {
		name   string
		lines  string
		shared bool
	}{
		{"same-error", ibErr(a, "10.3.0.2<41001>", "4") + ibErr(b, "10.3.0.9<52002>", "4"), true},
		{"different-status", ibErr(a, "10.3.0.2<41001>", "4") + ibErr(b, "10.3.0.9<52002>", "12"), false},
		{"one-errs-the-other-follows", ibErr(a, "10.3.0.2<41001>", "12") + closed, false},
		{"same-error-and-a-peer-closing", ibErr(a, "10.3.0.2<41001>", "4") + ibErr(ps[2], "10.3.0.9<52002>", "4") + closed, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := diagnoseBytes(t, "job.log", append(slices.Clone(data), c.lines...), 0)
			if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
				t.Fatalf("status %s, want fault:\n%s", r.Status, js(r))
			}
			f := r.Findings[0]
			if f.Kind != diagnose.KindNetworkError || f.Shared != c.shared {
				t.Fatalf("first finding %s shared %v, want network-error shared %v: %s", f.Kind, f.Shared, c.shared, f.Summary)
			}
			if c.shared {
				if !slices.Equal(f.Hosts, []string{a.host, b.host}) || !slices.Equal(f.Processes, []string{a.name(), b.name()}) || len(r.Findings) != 1 {
					t.Errorf("shared finding names hosts %v processes %v with %d findings, want %s and %s alone:\n%s", f.Hosts, f.Processes, len(r.Findings), a.name(), b.name(), js(r))
				}
				return
			}
			if !slices.Equal(f.Processes, []string{a.name()}) {
				t.Errorf("first finding names %v, want %s first by log order: %s", f.Processes, a.name(), f.Summary)
			}
		})
	}
}

// TestSharedCauseLauncherMayBeAny: where every process that logged an error failed the same
// way and the launcher names its first process by rank alone (Open MPI's `[[job,1],N]` where
// no line ties rank N to a process), by the host they are all on, or as one of them, the
// shared cause is the first fault and the launcher's exit follows it, its lines kept. A
// launcher naming a host none of them is on still leads.
func TestSharedCauseLauncherMayBeAny(t *testing.T) {
	const warn = "misc/socket.cc:397 NCCL WARN Net : connecting to address  with family 33621 is neither AF_INET(2) nor AF_INET6(10)\n"
	var job strings.Builder
	for _, p := range []string{"h4:101:201 [0]", "h4:102:202 [1]", "h2:301:401 [0]"} {
		job.WriteString(p + " NCCL INFO Bootstrap : Using eth0:10.0.0.4<0>\n")
	}
	for _, p := range []string{"h4:101:201 [0]", "h4:102:202 [1]"} {
		job.WriteString(p + " " + warn + p + " NCCL INFO bootstrap.cc:256 -> 3\n" + p + " NCCL INFO init.cc:516 -> 3\n")
	}
	mpi := "--------------------------------------------------------------------------\n" +
		"mpirun detected that one or more processes exited with non-zero status, thus causing\n" +
		"the job to be terminated. The first process to do so was:\n\n" +
		"  Process name: [[12167,1],1]\n  Exit code:    3\n"
	for _, c := range []struct {
		name     string
		launcher string
		shared   bool
	}{
		{"mpirun-rank-alone", mpi, true},
		{"srun-their-host", "srun: error: h4: task 1: Exited with exit code 3\n", true},
		{"srun-another-host", "srun: error: h2: task 2: Exited with exit code 3\n", false},
		{"mpirun-one-of-them", "mpirun noticed that process rank 1 with PID 102 on node h4 exited on signal 6 (Aborted).\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := diagnoseBytes(t, "job.log", []byte(job.String()+c.launcher), 0)
			if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
				t.Fatalf("status %s, want fault:\n%s", r.Status, js(r))
			}
			f := r.Findings[0]
			if f.Shared != c.shared {
				t.Fatalf("first finding %s shared %v, want shared %v: %s", f.Kind, f.Shared, c.shared, f.Summary)
			}
			if !c.shared {
				if f.Kind != diagnose.KindProcessExit || !slices.Equal(f.Hosts, []string{"h2"}) {
					t.Errorf("first finding %s on %v, want the launcher's process-exit on h2: %s", f.Kind, f.Hosts, f.Summary)
				}
				return
			}
			if !slices.Equal(f.Processes, []string{"h4:101", "h4:102"}) {
				t.Errorf("shared finding names %v, want h4:101 and h4:102: %s", f.Processes, f.Summary)
			}
			exit := slices.IndexFunc(r.Findings, func(g diagnose.Finding) bool { return g.Kind == diagnose.KindProcessExit })
			if exit < 0 || r.Findings[exit].Follows == nil || *r.Findings[exit].Follows != 0 {
				t.Fatalf("the launcher's exit is not a finding that follows the shared one:\n%s", js(r))
			}
			if n := len(r.Findings[exit].Evidence); n == 0 {
				t.Errorf("the launcher's exit keeps none of its lines")
			}
		})
	}
}

// TestSharedCauseTails: a process that shows only the tail of the chain the shared fault's
// processes printed (its WARN above the paste's start: the same frames, the same result) met
// the same fault and counts in the shared finding; a chain of other frames stays a chain
// without its WARN, apart.
func TestSharedCauseTails(t *testing.T) {
	data, ps := warnJob(t)
	dup := func(p, q jobProc) string {
		return chain(p, "init.cc:497", fmt.Sprintf("Duplicate GPU detected : rank %d and rank %d both on CUDA device 1000", p.rank, q.rank), 5,
			"init.cc:867", "init.cc:903", "init.cc:916")
	}
	lines := dup(ps[1], ps[0]) + dup(ps[2], ps[0])
	for _, c := range []struct {
		name  string
		tail  string
		procs int
	}{
		{"tail", frameAt(ps[3], 7003, "init.cc:903", 5) + frameAt(ps[3], 7003, "init.cc:916", 5), 3},
		{"other-frames", frameAt(ps[3], 7003, "transport.cc:120", 5) + frameAt(ps[3], 7003, "init.cc:1100", 5), 2},
	} {
		r := diagnoseBytes(t, "job.log", append(slices.Clone(data), (c.tail+lines)...), 0)
		if r.Status != diagnose.StatusFault || !r.Findings[0].Shared || len(r.Findings[0].Processes) != c.procs {
			t.Errorf("%s: want a shared first finding of %d processes:\n%s", c.name, c.procs, js(r))
			continue
		}
		bare := slices.ContainsFunc(r.Findings, func(f diagnose.Finding) bool { return strings.Contains(f.Summary, "without its WARN") })
		if bare != (c.procs == 2) {
			t.Errorf("%s: a finding of a chain without its WARN: %v, want %v:\n%s", c.name, bare, c.procs == 2, js(r))
		}
	}
}
