package parser

// WatchdogEvent is what a PyTorch ProcessGroupNCCL watchdog or flight-recorder line reports.
type WatchdogEvent uint8

const (
	// WatchdogNone: the line is no watchdog line.
	WatchdogNone WatchdogEvent = iota
	// WatchdogTimeout: `Watchdog caught collective operation timeout: WorkNCCL(SeqNum=S,
	// OpType=..., NumelIn=.., NumelOut=.., Timeout(ms)=..) ran for .. milliseconds ...`.
	WatchdogTimeout
	// WatchdogException: `Exception (either an error or timeout) detected by watchdog at work:
	// S, last enqueued NCCL work: E, last completed NCCL work: C.`
	WatchdogException
	// WatchdogFailure: `failure detected by watchdog at work sequence id: S PG status: last
	// enqueued work: E, [last started work: T (NAME),] last completed work: C`.
	WatchdogFailure
	// WatchdogTimeoutAt: `Timeout at NCCL work: S, last enqueued NCCL work: E, last completed
	// NCCL work: C.`
	WatchdogTimeoutAt
	// WatchdogDumpFirst: `First PG on this rank to signal dumping.`: the timeout was detected
	// here first.
	WatchdogDumpFirst
	// WatchdogDumpObserved: `Observed flight recorder dump signal from another rank ...`.
	WatchdogDumpObserved
	// WatchdogDumpReceived: `Received a dump signal due to a collective timeout from rank R
	// ... Last enqueued NCCL work: E, last completed NCCL work: C.`
	WatchdogDumpReceived
	numWatchdogEvents
)

var watchdogEventNames = [numWatchdogEvents]string{
	WatchdogNone: "", WatchdogTimeout: "timeout", WatchdogException: "exception",
	WatchdogFailure: "failure", WatchdogTimeoutAt: "timeout_at", WatchdogDumpFirst: "dump_first",
	WatchdogDumpObserved: "dump_observed", WatchdogDumpReceived: "dump_received",
}

func (e WatchdogEvent) String() string {
	if int(e) < len(watchdogEventNames) {
		return watchdogEventNames[e]
	}
	return "unknown"
}

// Watchdog is one watchdog or flight-recorder line. Numbers the line does not print are -1
// (a printed -1, "nothing yet", reads the same). Sequence numbers count the work items of one
// process group on one rank; they are not NCCL's opCount.
type Watchdog struct {
	Event WatchdogEvent
	// Rank is the rank in the tag (`[Rank 4]`, `[PG 1 Rank 0]`, `[PG ID 2 PG GUID 9 Rank 4]`);
	// for WatchdogDumpReceived FromRank is the rank that signalled.
	Rank     int64
	FromRank int64
	// PG is the process group id of the tag; PGGUID its GUID (`9`, `0` of `0(default_pg)`)
	// and PGName the description in parentheses (`default_pg`); "" when absent.
	PG     int64
	PGGUID string
	PGName string
	// Seq is the work the event is about: SeqNum, `at work`, `sequence id`, `Timeout at NCCL
	// work`.
	Seq       int64
	OpType    string // _ALLGATHER_BASE, ALLREDUCE, ...; "" when absent
	NumelIn   int64
	NumelOut  int64
	TimeoutMs int64
	RanForMs  int64
	// The queue of the process group on this rank: the last work enqueued, started (with its
	// op name, recent builds) and completed.
	LastEnqueued  int64
	LastStarted   int64
	StartedOp     string
	LastCompleted int64
	Glog          GlogHead
}

// GlogHead is the `[E1016 03:31:38.928019586 ProcessGroupNCCL.cpp:607]` head c10 puts in
// front of a line, or `[E ProcessGroupNCCL.cpp:574]` in older builds.
type GlogHead struct {
	Level byte // 'I', 'W', 'E' or 'F'; 0 when the line has no head
	// Month and Day are 0 and Nanos (the time of day in nanoseconds) -1 where the head
	// prints no date and time; the year is never printed.
	Month, Day int64
	Nanos      int64
	File       string
	FileLine   int64
}
