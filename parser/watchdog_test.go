package parser

import "testing"

// Watchdog and flight-recorder lines of PyTorch's ProcessGroupNCCL. The lines are those of
// ../../shared/framework-lines.md ("framework-lines") or built from its families with the
// launcher prefixes and glog heads it describes ("built").

// wd returns a Watchdog with every number absent and the given fields set by set.
func wd(ev WatchdogEvent, set func(w *Watchdog)) *Watchdog {
	w := noWatchdog
	w.Event = ev
	if set != nil {
		set(&w)
	}
	return &w
}

// glog1016 is the head `[E1016 03:31:38.928019586 ProcessGroupNCCL.cpp:607]`.
var glog1016 = GlogHead{Level: 'E', Month: 10, Day: 16, Nanos: (3*3600+31*60+38)*1e9 + 928019586, File: "ProcessGroupNCCL.cpp", FileLine: 607}

func wdLine(rank int64, w *Watchdog) Line { return Line{Kind: KindWatchdog, Rank: rank, Watchdog: w} }

var watchdogCases = []lineCase{
	// --- Watchdog caught collective operation timeout ---
	{
		name: "timeout_framework_lines",
		in:   "[Rank 4] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9141, OpType=_ALLGATHER_BASE, NumelIn=19008, NumelOut=152064, Timeout(ms)=600000) ran for 600071 milliseconds before timing out.",
		want: wdLine(-1, wd(WatchdogTimeout, func(w *Watchdog) {
			w.Rank, w.Seq, w.OpType, w.NumelIn, w.NumelOut, w.TimeoutMs, w.RanForMs = 4, 9141, "_ALLGATHER_BASE", 19008, 152064, 600000, 600071
		})),
	},
	{
		name: "timeout_torchrun_glog",
		time: wall(StampGlog, "2000-10-16T03:31:38.928019586Z", false),
		in:   "[rank4]:[E1016 03:31:38.928019586 ProcessGroupNCCL.cpp:607] [Rank 4] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9141, OpType=_ALLGATHER_BASE, NumelIn=19008, NumelOut=152064, Timeout(ms)=600000) ran for 600071 milliseconds before timing out.",
		want: wdLine(4, wd(WatchdogTimeout, func(w *Watchdog) {
			w.Rank, w.Seq, w.OpType, w.NumelIn, w.NumelOut, w.TimeoutMs, w.RanForMs = 4, 9141, "_ALLGATHER_BASE", 19008, 152064, 600000, 600071
			w.Glog = glog1016
		})),
	},
	{
		// built: an older build without NumelIn/NumelOut, glog head without date and time.
		name: "timeout_old_no_numel",
		in:   "[rank1]:[E ProcessGroupNCCL.cpp:574] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800017 milliseconds before timing out.",
		want: wdLine(1, wd(WatchdogTimeout, func(w *Watchdog) {
			w.Rank, w.Seq, w.OpType, w.TimeoutMs, w.RanForMs = 1, 7, "ALLREDUCE", 1800000, 1800017
			w.Glog = GlogHead{Level: 'E', Nanos: -1, File: "ProcessGroupNCCL.cpp", FileLine: 574}
		})),
	},
	{
		// built: the timeout without "ran for" (the exception text torch raises) under srun.
		name: "timeout_no_ran_for_srun",
		in:   "3: [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=167, OpType=BROADCAST, NumelIn=1, NumelOut=1, Timeout(ms)=600000)",
		want: wdLine(3, wd(WatchdogTimeout, func(w *Watchdog) {
			w.Rank, w.Seq, w.OpType, w.NumelIn, w.NumelOut, w.TimeoutMs = 3, 167, "BROADCAST", 1, 1, 600000
		})),
	},
	// --- Exception ... detected by watchdog ---
	{
		name: "exception_pg_rank",
		in:   "[PG 1 Rank 0] Exception (either an error or timeout) detected by watchdog at work: 1580, last enqueued NCCL work: 1582, last completed NCCL work: 1579.",
		want: wdLine(-1, wd(WatchdogException, func(w *Watchdog) {
			w.Rank, w.PG, w.Seq, w.LastEnqueued, w.LastCompleted = 0, 1, 1580, 1582, 1579
		})),
	},
	{
		name: "exception_pg_id_guid",
		time: wall(StampGlog, "2000-10-16T03:31:38.928019586Z", false),
		in:   "[rank4]:[E1016 03:31:38.928019586 ProcessGroupNCCL.cpp:607] [PG ID 2 PG GUID 9 Rank 4] Exception (either an error or timeout) detected by watchdog at work: 610, last enqueued NCCL work: 616, last completed NCCL work: 609.",
		want: wdLine(4, wd(WatchdogException, func(w *Watchdog) {
			w.Rank, w.PG, w.PGGUID, w.Seq, w.LastEnqueued, w.LastCompleted = 4, 2, "9", 610, 616, 609
			w.Glog = glog1016
		})),
	},
	{
		// built: the PG name form of some builds, `[PG 0 (default_pg) Rank 1]`.
		name: "exception_pg_name",
		time: wall(StampGlog, "2000-10-03T18:37:01.833575187Z", false),
		in:   "[rank1]:[E1003 18:37:01.833575187 ProcessGroupNCCL.cpp:1664] [PG 0 (default_pg) Rank 1] Exception (either an error or timeout) detected by watchdog at work: 6463, last enqueued NCCL work: 6463, last completed NCCL work: 6462.",
		want: wdLine(1, wd(WatchdogException, func(w *Watchdog) {
			w.Rank, w.PG, w.PGName, w.Seq, w.LastEnqueued, w.LastCompleted = 1, 0, "default_pg", 6463, 6463, 6462
			w.Glog = GlogHead{Level: 'E', Month: 10, Day: 3, Nanos: (18*3600+37*60+1)*1e9 + 833575187, File: "ProcessGroupNCCL.cpp", FileLine: 1664}
		})),
	},
	// --- failure detected by watchdog at work sequence id ---
	{
		name: "failure_framework_lines",
		in:   "[PG ID 0 PG GUID 0(default_pg) Rank 118]  failure detected by watchdog at work sequence id: 2398459 PG status: last enqueued work: 2398578, last completed work: 2398458",
		want: wdLine(-1, wd(WatchdogFailure, func(w *Watchdog) {
			w.Rank, w.PG, w.PGGUID, w.PGName, w.Seq, w.LastEnqueued, w.LastCompleted = 118, 0, "0", "default_pg", 2398459, 2398578, 2398458
		})),
	},
	{
		// built: a recent build with the last started work and its name.
		name: "failure_last_started",
		time: wall(StampGlog, "2000-05-19T11:02:44.120000001Z", false),
		in:   "[rank6]:[E0519 11:02:44.120000001 ProcessGroupNCCL.cpp:2168] [PG ID 1 PG GUID 1 Rank 6]  failure detected by watchdog at work sequence id: 18 PG status: last enqueued work: 39, last started work: 19 (_ALLGATHER_BASE), last completed work: 17",
		want: wdLine(6, wd(WatchdogFailure, func(w *Watchdog) {
			w.Rank, w.PG, w.PGGUID, w.Seq, w.LastEnqueued, w.LastStarted, w.StartedOp, w.LastCompleted = 6, 1, "1", 18, 39, 19, "_ALLGATHER_BASE", 17
			w.Glog = GlogHead{Level: 'E', Month: 5, Day: 19, Nanos: (11*3600+2*60+44)*1e9 + 120000001, File: "ProcessGroupNCCL.cpp", FileLine: 2168}
		})),
	},
	{
		// built: nothing completed yet (-1) and nothing started; no tag.
		name: "failure_minus_one",
		in:   "[rank14]: failure detected by watchdog at work sequence id: 1 PG status: last enqueued work: 1, last started work: -1, last completed work: -1",
		want: wdLine(14, wd(WatchdogFailure, func(w *Watchdog) {
			w.Seq, w.LastEnqueued, w.LastStarted, w.LastCompleted = 1, 1, -1, -1
		})),
	},
	// --- Timeout at NCCL work ---
	{
		name: "timeout_at_framework_lines",
		in:   "[PG 3 Rank 4] Timeout at NCCL work: 9141, last enqueued NCCL work: 9141, last completed NCCL work: 9140.",
		want: wdLine(-1, wd(WatchdogTimeoutAt, func(w *Watchdog) {
			w.Rank, w.PG, w.Seq, w.LastEnqueued, w.LastCompleted = 4, 3, 9141, 9141, 9140
		})),
	},
	{
		name: "timeout_at_old_glog",
		in:   "[rank2]:[E ProcessGroupNCCL.cpp:1537] [PG 0 Rank 2] Timeout at NCCL work: 1, last enqueued NCCL work: 1, last completed NCCL work: 0.",
		want: wdLine(2, wd(WatchdogTimeoutAt, func(w *Watchdog) {
			w.Rank, w.PG, w.Seq, w.LastEnqueued, w.LastCompleted = 2, 0, 1, 1, 0
			w.Glog = GlogHead{Level: 'E', Nanos: -1, File: "ProcessGroupNCCL.cpp", FileLine: 1537}
		})),
	},
	// --- flight recorder signals ---
	{
		name: "dump_first",
		in:   "[PG ID 0 PG GUID 0(default_pg) Rank 3] First PG on this rank to signal dumping.",
		want: wdLine(-1, wd(WatchdogDumpFirst, func(w *Watchdog) { w.Rank, w.PG, w.PGGUID, w.PGName = 3, 0, "0", "default_pg" })),
	},
	{
		name: "dump_first_torchrun_glog",
		time: wall(StampGlog, "2000-10-16T03:31:38.928019586Z", false),
		in:   "[rank3]:[E1016 03:31:38.928019586 ProcessGroupNCCL.cpp:607] [PG ID 0 PG GUID 0(default_pg) Rank 3] First PG on this rank to signal dumping.",
		want: wdLine(3, wd(WatchdogDumpFirst, func(w *Watchdog) {
			w.Rank, w.PG, w.PGGUID, w.PGName, w.Glog = 3, 0, "0", "default_pg", glog1016
		})),
	},
	{
		name: "dump_observed",
		in:   "[PG ID 0 PG GUID 0(default_pg) Rank 5] Observed flight recorder dump signal from another rank via TCPStore.",
		want: wdLine(-1, wd(WatchdogDumpObserved, func(w *Watchdog) { w.Rank, w.PG, w.PGGUID, w.PGName = 5, 0, "0", "default_pg" })),
	},
	{
		name: "dump_observed_torchrun_glog",
		time: wall(StampGlog, "2000-10-16T03:31:38.928019586Z", false),
		in:   "[rank5]:[E1016 03:31:38.928019586 ProcessGroupNCCL.cpp:607] [PG ID 0 PG GUID 0(default_pg) Rank 5] Observed flight recorder dump signal from another rank via TCPStore.",
		want: wdLine(5, wd(WatchdogDumpObserved, func(w *Watchdog) {
			w.Rank, w.PG, w.PGGUID, w.PGName, w.Glog = 5, 0, "0", "default_pg", glog1016
		})),
	},
	{
		// built: the dump signal a rank receives, with its queue (`Last` capitalised, the
		// full stop run into the next sentence).
		name: "dump_received",
		time: wall(StampGlog, "2000-10-16T03:31:38.928019586Z", false),
		in:   "[rank4]:[E1016 03:31:38.928019586 ProcessGroupNCCL.cpp:607] [PG ID 0 PG GUID 0(default_pg) Rank 4] Received a dump signal due to a collective timeout from  rank 7 and we will try our best to dump the debug info. Last enqueued NCCL work: 56118, last completed NCCL work: 56118.This is most likely caused by incorrect usages of collectives.",
		want: wdLine(4, wd(WatchdogDumpReceived, func(w *Watchdog) {
			w.Rank, w.PG, w.PGGUID, w.PGName, w.FromRank, w.LastEnqueued, w.LastCompleted, w.Glog = 4, 0, "0", "default_pg", 7, 56118, 56118, glog1016
		})),
	},
	{
		// built: Ray's prefix before torchrun's; the month of the glog head is not padded.
		name: "failure_ray_prefix_unpadded_month",
		time: wall(StampGlog, "2000-08-08T04:21:41.161005534Z", false),
		in:   "(WorkerDict pid=3490362) [rank1]:[E808 04:21:41.161005534 ProcessGroupNCCL.cpp:2299] [PG ID 0 PG GUID 0(default_pg) Rank 1]  failure detected by watchdog at work sequence id: 5 PG status: last enqueued work: 5, last completed work: 4",
		want: wdLine(1, wd(WatchdogFailure, func(w *Watchdog) {
			w.Rank, w.PG, w.PGGUID, w.PGName, w.Seq, w.LastEnqueued, w.LastCompleted = 1, 0, "0", "default_pg", 5, 5, 4
			w.Glog = GlogHead{Level: 'E', Month: 8, Day: 8, Nanos: (4*3600+21*60+41)*1e9 + 161005534, File: "ProcessGroupNCCL.cpp", FileLine: 2299}
		})),
	},
	{
		// built: a collector's timestamp in front; torchrun's label after it is skipped with
		// the timestamp (as for NCCL lines), the tag still names the rank.
		name: "exception_collector_stamp",
		time: wall(StampGlog, "2000-02-27T16:30:43.526290891Z", false),
		in:   "[2025-02-27T16:30:43.48675097Z] [rank3]:[E227 16:30:43.526290891 ProcessGroupNCCL.cpp:1785] [PG ID 2 PG GUID 3 Rank 3] Exception (either an error or timeout) detected by watchdog at work: 32, last enqueued NCCL work: 32, last completed NCCL work: 31.",
		want: wdLine(-1, wd(WatchdogException, func(w *Watchdog) {
			w.Rank, w.PG, w.PGGUID, w.Seq, w.LastEnqueued, w.LastCompleted = 3, 2, "3", 32, 32, 31
			w.Glog = GlogHead{Level: 'E', Month: 2, Day: 27, Nanos: (16*3600+30*60+43)*1e9 + 526290891, File: "ProcessGroupNCCL.cpp", FileLine: 1785}
		})),
	},
	{
		// built: a dump signal that names no rank, with nothing completed yet.
		name: "dump_received_no_rank",
		time: wall(StampGlog, "2000-07-03T15:37:17.178360488Z", false),
		in:   "[rank2]:[E703 15:37:17.178360488 ProcessGroupNCCL.cpp:1987] [PG ID 0 PG GUID 0(default_pg) Rank 2] Received a dump signal from this local rank and will start to dump the debug info. Last enqueued NCCL work: 1, last completed NCCL work: -1.",
		want: wdLine(2, wd(WatchdogDumpReceived, func(w *Watchdog) {
			w.Rank, w.PG, w.PGGUID, w.PGName, w.LastEnqueued, w.LastCompleted = 2, 0, "0", "default_pg", 1, -1
			w.Glog = GlogHead{Level: 'E', Month: 7, Day: 3, Nanos: (15*3600+37*60+17)*1e9 + 178360488, File: "ProcessGroupNCCL.cpp", FileLine: 1987}
		})),
	},
	{
		// built: the exception message without "(either an error or timeout)", no glog head.
		name: "exception_short_form",
		in:   "[Rank 5] Exception detected by watchdog at work: 18421, last enqueued NCCL work: 18421, last completed NCCL work: 18420.",
		want: wdLine(-1, wd(WatchdogException, func(w *Watchdog) {
			w.Rank, w.Seq, w.LastEnqueued, w.LastCompleted = 5, 18421, 18421, 18420
		})),
	},
	// --- negatives: the noise around them, and damaged records ---
	{
		name: "noise_some_operations_failed",
		time: wall(StampGlog, "2000-10-16T03:31:38.928019586Z", false),
		in:   "[rank4]:[E1016 03:31:38.928019586 ProcessGroupNCCL.cpp:621] [Rank 4] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.",
		want: Line{Kind: KindOther, Rank: 4},
	},
	{
		name: "noise_taking_process_down",
		time: wall(StampGlog, "2000-10-16T03:31:38.928019586Z", false),
		in:   "[rank4]:[E1016 03:31:38.928019586 ProcessGroupNCCL.cpp:627] [Rank 4] To avoid data inconsistency, we are taking the entire process down.",
		want: Line{Kind: KindOther, Rank: 4},
	},
	{
		name: "noise_stack_frame",
		in:   "frame #2: <unknown function> + 0xcf2d40 (0x15325cea6d40 in /usr/lib/python3/site-packages/torch/lib/libtorch_cuda.so)",
		want: Line{Kind: KindOther, Rank: -1},
	},
	{
		name: "timeout_seq_not_a_number",
		in:   "[Rank 4] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=91x1, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600071 milliseconds before timing out.",
		want: Line{Kind: KindOther, Rank: -1},
	},
	{
		name: "exception_cut_before_completed",
		in:   "[PG 1 Rank 0] Exception (either an error or timeout) detected by watchdog at work: 1580, last enqueued NCCL work: 1582",
		want: Line{Kind: KindOther, Rank: -1},
	},
	{
		// a glog head with month 13 is no glog head: the line is not read as a record.
		name: "glog_bad_date",
		in:   "[E1316 03:31:38.928019586 ProcessGroupNCCL.cpp:607] [PG 3 Rank 4] Timeout at NCCL work: 9141, last enqueued NCCL work: 9141, last completed NCCL work: 9140.",
		want: Line{Kind: KindOther, Rank: -1},
	},
	{
		name: "dump_word_elsewhere",
		in:   "[rank0]: saving a heap dump to /tmp/dump.pickle",
		want: Line{Kind: KindOther, Rank: 0},
	},
}

func TestWatchdogLines(t *testing.T) { checkLines(t, watchdogCases) }

// TestScannerKeepsLinesThatAreNoWatchdog: only lines holding a watchdog phrase are left to
// the grammar; other lines that mention a dump or the watchdog are read by the scanner.
func TestScannerKeepsLinesThatAreNoWatchdog(t *testing.T) {
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"[rank0]: saving a heap dump to /tmp/dump.pickle",
		"[rank0]: the watchdog heartbeat monitor is enabled",
	} {
		var l Line
		if !p.Scan([]byte(line), &l) {
			t.Errorf("the scanner leaves %q to the grammar", line)
		}
	}
	for _, c := range watchdogCases {
		var l Line
		if c.want.Kind == KindWatchdog && p.Scan([]byte(c.in), &l) {
			t.Errorf("the scanner reads watchdog line %q itself, as %v", c.in, l.Kind)
		}
	}
}
