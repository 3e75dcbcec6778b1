package diagnose_test

import (
	"fmt"
	"testing"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
	"github.com/nccllog/nccllog/stages/diagnose"
)

// job builds the parsed lines of a 4-rank job on two hosts (ranks 0-1 on node-a, 2-3 on
// node-b) that fails: its own lines, built here, since the parser may not read launcher and
// Python lines yet.
type job struct {
	lines []parser.Line
	texts []string
}

func pidOf(rank int64) int64 { return 100 + rank }
func hostOf(rank int64) string {
	if rank < 2 {
		return "node-a"
	}
	return "node-b"
}

func (j *job) add(l parser.Line, text string) {
	j.lines = append(j.lines, l)
	j.texts = append(j.texts, text)
}

// envLine is an NCCL line of rank r with the launcher label r.
func envLine(kind parser.Kind, r int64) parser.Line {
	return parser.Line{Kind: kind, Rank: r, Env: parser.Envelope{Host: hostOf(r), Pid: pidOf(r), Tid: pidOf(r), Dev: r % 2, Level: parser.LevelInfo}}
}

func (j *job) comm(r int64, event string) {
	l := envLine(parser.KindComm, r)
	l.Comm = parser.CommEvent{Event: event, Comm: 0xc0ffee, Rank: r, NRanks: 4, CudaDev: r % 2, NvmlDev: -1, Split: -1, NNodes: -1, LocalRks: -1, LocalRk: -1}
	j.add(l, fmt.Sprintf("%s:%d:%d [%d] NCCL INFO comm 0xc0ffee rank %d nranks 4 - %s", hostOf(r), pidOf(r), pidOf(r), r%2, r, event))
}

func (j *job) warn(r int64, msg string) {
	l := envLine(parser.KindWarn, r)
	l.Env.Level = parser.LevelWarn
	j.add(l, fmt.Sprintf("%s:%d:%d [%d] misc/socket.cc:50 NCCL WARN %s", hostOf(r), pidOf(r), pidOf(r), r%2, msg))
}

func (j *job) fail(r int64, f parser.Failure, text string) {
	l := parser.Line{Kind: parser.KindFailure, Rank: r, Fail: &f}
	j.add(l, text)
}

func blank() parser.Failure {
	return parser.Failure{Task: -1, TaskLast: -1, LocalRank: -1, Pid: -1, GPU: -1, ExitCode: -1}
}

// report runs the diagnose stage over the job's lines, split into chunks of size chunk, and
// merges them as the pipeline does.
func (j *job) report(t *testing.T, chunk int) diagnose.Report {
	t.Helper()
	plan := stages.MustPlan(stages.Config{}, all.Registry(), "diagnose")
	whole := stages.NewSet(plan)
	for start := 0; start < len(j.lines); start += chunk {
		set := stages.NewSet(plan)
		end := min(start+chunk, len(j.lines))
		for i := start; i < end; i++ {
			set.Add(&stages.Line{N: int64(i - start + 1), Text: []byte(j.texts[i]), P: &j.lines[i]})
		}
		set.Settle(-1, true)
		set.Anchor(stages.Origin{File: "job.log", Base: int64(start)})
		whole.Merge(set)
	}
	r := diagnose.Build(whole)
	checkTexts(t, "job.log", r)
	return r
}

func started(j *job) {
	for r := int64(0); r < 4; r++ {
		j.comm(r, "Init START")
		j.comm(r, "Init COMPLETE")
	}
}

// followers: the other ranks see rank 2's host close, and throw DistBackendError.
func followers(j *job) {
	for _, r := range []int64{0, 1, 3} {
		j.warn(r, "socketProgress: Connection closed by remote peer node-b<4242>")
		f := blank()
		f.Event, f.Exception = parser.FailureTerminate, "c10::DistBackendError"
		j.fail(r, f, "terminate called after throwing an instance of 'c10::DistBackendError'")
	}
}

func TestLauncherAndLastWords(t *testing.T) {
	j := &job{}
	started(j)
	f := blank()
	f.Event, f.Exception, f.Text = parser.FailureException, "torch.OutOfMemoryError", "CUDA out of memory. Tried to allocate 2.00 GiB."
	j.fail(2, f, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.")
	followers(j)
	f = blank()
	f.Event, f.Host, f.Task, f.TaskLast, f.ExitCode, f.HasExit = parser.FailureTaskExit, "node-b", 2, 2, 1, true
	j.fail(-1, f, "srun: error: node-b: task 2: Exited with exit code 1")
	for _, chunk := range []int{1, 3, 1000} {
		r := j.report(t, chunk)
		if r.Status != diagnose.StatusFault {
			t.Fatalf("chunk %d: status %s", chunk, r.Status)
		}
		f0 := r.Findings[0]
		if f0.Kind != diagnose.KindOOM || len(f0.Ranks) != 1 || f0.Ranks[0] != 2 || f0.Processes[0] != "node-b:102" {
			t.Fatalf("chunk %d: first finding %s %v %v: %s", chunk, f0.Kind, f0.Ranks, f0.Processes, f0.Summary)
		}
		for i, o := range r.Findings[1:] {
			if o.Follows == nil || *o.Follows != 0 {
				t.Errorf("chunk %d: finding %d (%s) does not follow the OOM: %s", chunk, i+1, o.Kind, o.Summary)
			}
		}
	}
}

// TestRootCauseFirst: torchrun's root cause names the process; without its own last words
// the finding is a process exit, even where another rank's error line comes first.
func TestRootCauseFirst(t *testing.T) {
	j := &job{}
	started(j)
	followers(j)
	head := blank()
	head.Event = parser.FailureRootCause
	j.fail(-1, head, "Root Cause (first observed failure):")
	for _, fl := range []struct {
		name string
		set  func(f *parser.Failure)
	}{{"host", func(f *parser.Failure) { f.Host = "node-b" }}, {"rank", func(f *parser.Failure) { f.Task = 2 }},
		{"exitcode", func(f *parser.Failure) { f.ExitCode, f.HasExit, f.Pid = -9, true, 102 }}} {
		f := blank()
		f.Event, f.Field = parser.FailureRootField, fl.name
		fl.set(&f)
		j.fail(-1, f, "  "+fl.name+" : ...")
	}
	r := j.report(t, 2)
	f0 := r.Findings[0]
	if r.Status != diagnose.StatusFault || f0.Kind != diagnose.KindProcessExit || len(f0.Ranks) != 1 || f0.Ranks[0] != 2 {
		t.Fatalf("status %s, first finding %s %v: %s", r.Status, f0.Kind, f0.Ranks, f0.Summary)
	}
	if want := "rank 2 (node-b:102) exited first with exit code -9 (SIGKILL), as the launcher reports; the other ranks' errors follow from it."; f0.Summary != want {
		t.Errorf("summary %q, want %q", f0.Summary, want)
	}
}

// TestSignalAndNetwork: with no launcher line, a process's own signal comes before another's
// network WARN (a process's own error outranks a network origin where time does not tell).
func TestSignalAndNetwork(t *testing.T) {
	j := &job{}
	started(j)
	j.warn(0, "NET/IB : Got completion from peer 10.0.0.2<1234> with status=12 opcode=0 len=0 vendor err 129 (Recv)")
	f := blank()
	f.Event, f.Signal = parser.FailureSignal, "Segmentation fault"
	j.fail(3, f, "Segmentation fault (core dumped)")
	r := j.report(t, 1000)
	if f0 := r.Findings[0]; f0.Kind != diagnose.KindCrash || f0.Ranks[0] != 3 {
		t.Fatalf("first finding %s %v: %s", f0.Kind, f0.Ranks, f0.Summary)
	}
	if len(r.Findings) != 2 || r.Findings[1].Kind != diagnose.KindNetworkError || r.Findings[1].Follows != nil {
		t.Errorf("want the network error as another finding:\n%s", js(r))
	}
}

// TestTimeOrders: where both lines carry comparable times, the earlier one is first whatever
// the kinds.
func TestTimeOrders(t *testing.T) {
	j := &job{}
	started(j)
	j.warn(0, "NET/IB : Got completion from peer 10.0.0.2<1234> with status=12 opcode=0 len=0 vendor err 129 (Recv)")
	j.lines[len(j.lines)-1].Time = parser.Stamp{Nanos: 1_000_000_000, Form: parser.StampISO, Zoned: true}
	f := blank()
	f.Event, f.Signal = parser.FailureSignal, "Segmentation fault"
	j.fail(3, f, "Segmentation fault (core dumped)")
	j.lines[len(j.lines)-1].Time = parser.Stamp{Nanos: 2_000_000_000, Form: parser.StampISO, Zoned: true}
	r := j.report(t, 1000)
	if f0 := r.Findings[0]; f0.Kind != diagnose.KindNetworkError || f0.Ranks[0] != 0 || f0.Time != "1970-01-01T00:00:01Z" {
		t.Fatalf("first finding %s %v at %q: %s", f0.Kind, f0.Ranks, f0.Time, f0.Summary)
	}
}

// TestFindingsCapped: a log where hundreds of peers each close on their own lists 256
// findings and counts the others, rather than growing with the input.
func TestFindingsCapped(t *testing.T) {
	j := &job{}
	started(j)
	for i := range 300 { // 300 processes, each naming its own peer
		l := envLine(parser.KindWarn, 0)
		l.Env.Host, l.Env.Level = fmt.Sprintf("src-%d", i), parser.LevelWarn
		j.add(l, fmt.Sprintf("src-%d:100:100 [0] misc/socket.cc:50 NCCL WARN socketProgress: Connection closed by remote peer peer-%d<1>", i, i))
	}
	r := j.report(t, 1000)
	if r.Status != diagnose.StatusFault || len(r.Findings) != 256 || r.More != 300-256 {
		t.Fatalf("status %s, %d findings listed, %d more", r.Status, len(r.Findings), r.More)
	}
}
