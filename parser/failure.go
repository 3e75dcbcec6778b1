package parser

// FailureEvent is what a line of a job's failure evidence reports: the launcher's word on a
// process that ended, the process's own last words (a Python exception, a C++ terminate, a
// signal), or a line of an NCCL RAS report. These lines are not NCCL's envelope lines; they
// are how a job's output names the process that failed first (../shared/framework-lines.md,
// "Failure evidence").
type FailureEvent uint8

const (
	// FailureNone: the line is no failure evidence.
	FailureNone FailureEvent = iota
	// FailureTaskExit is Slurm's `srun: error: <node>: task <N>: Exited with exit code <C>`
	// (also `tasks 0-3: Killed`, `task 5: Segmentation fault (core dumped)`): Host, Task
	// (TaskLast for a range), ExitCode or Signal.
	FailureTaskExit
	// FailureStepCancelled is `slurmstepd: error: *** STEP <job>.<step> ON <node> CANCELLED AT
	// <time> [DUE TO TIME LIMIT] ***` (or JOB): Host, Text (the reason, "" for none).
	FailureStepCancelled
	// FailureStepAborted is `srun: Job step aborted: Waiting up to N seconds for job step to
	// finish.`: the launcher is taking the job down.
	FailureStepAborted
	// FailureRootCause is torchrun's `Root Cause (first observed failure):` head; the fields
	// of the failure follow on lines of their own (FailureRootField).
	FailureRootCause
	// FailureOtherFailures is torchrun's `Other Failures:` head: the fields that follow are
	// consequences.
	FailureOtherFailures
	// FailureRootField is one `  <name> : <value>` line of torchrun's failure block: Field is
	// the name (time, host, rank, exitcode, error_file, traceback), with Host, Task (rank),
	// LocalRank, ExitCode, Pid or Text filled as the field says.
	FailureRootField
	// FailureMPIExit is Open MPI's `mpirun detected that one or more processes exited with
	// non-zero status` or `Primary job terminated normally, but 1 process returned a non-zero
	// exit code.`: the process is named on the lines that follow (FailureMPIProcess).
	FailureMPIExit
	// FailureMPIProcess is Open MPI's `  Process name: [[<jobid>,1],<rank>]` (Task) or
	// `  Exit code: <C>` (ExitCode) line, or its launcher's word on a process a signal
	// killed, `mpirun noticed that process rank <r> with PID <pid> on node <node> exited on
	// signal <n> (<name>).` (also mpiexec, orterun, prterun, oshrun): Task, Pid (-1 for
	// Open MPI's 0, a PID it did not know), Host, Signal (`signal 11 (Segmentation fault)`),
	// Text (the line's words).
	FailureMPIProcess
	// FailureTraceback is Python's `Traceback (most recent call last):`.
	FailureTraceback
	// FailureException is the last line of a Python traceback, `<dotted.Name>: <message>`
	// where the name ends in Error or Exception (torch.OutOfMemoryError: CUDA out of memory,
	// RuntimeError: CUDA error: ..., torch.distributed.DistBackendError: ...): Exception is the
	// name, Text the message.
	//
	// TensorFlow's `OP_REQUIRES failed at nccl_ops.cc:104 : UNKNOWN: unhandled cuda error` (an
	// NCCL op's, or one whose message opens with `NCCL`) is one too: Exception is
	// `OP_REQUIRES failed at <file>:<line>`, Text the status (`UNKNOWN: unhandled cuda
	// error`), Result the ncclResult its message names by ncclGetErrorString's words.
	FailureException
	// FailureTerminate is `terminate called after throwing an instance of '<type>'`
	// (Exception) and its `  what():  <message>` line (Text).
	FailureTerminate
	// FailureSignal is a process killed by a signal in its own words: `Segmentation fault
	// (core dumped)`, `Fatal Python error: Segmentation fault`, `*** SIGSEGV ...`, `Aborted
	// (core dumped)`: Signal.
	FailureSignal
	// FailureRAS is a line of an NCCL RAS report (`ncclras`, NCCL 2.24+): RAS says which part
	// (RASEvent) and its fields.
	FailureRAS
	// FailureNCCLResult is the line PyTorch prints under an NCCL exception, an ncclResult's
	// name and its description: `ncclRemoteError: A call failed possibly due to a network
	// error or a remote process exiting prematurely.`: Result, Text.
	FailureNCCLResult
	// FailureLastError is the `Last error:` line under it: LastError is NCCL's last WARN
	// message where the line holds it, "" where it follows on the next line.
	FailureLastError
	// FailureAgentExit is torchrun's elastic agent on the first child it saw fail: `failed
	// (exitcode: -6) local_rank: 3 (pid: 26026) of binary: /usr/bin/python`, after the agent's
	// log head (glog `E1106 04:43:02.651000 26021 .../api.py:869] `, Python logging's
	// `ERROR:torch.distributed.elastic.multiprocessing.api:`, or a bracketed time and
	// `torch.distributed.elastic.multiprocessing.api: [ERROR] `): LocalRank, Pid, ExitCode,
	// and Signal for a negative exit code (the signal that killed the child, -6 is SIGABRT).
	// The local rank is the child's index on its node, not its global rank.
	FailureAgentExit
	numFailureEvents
)

var failureEventNames = [numFailureEvents]string{
	FailureNone: "", FailureTaskExit: "task_exit", FailureStepCancelled: "step_cancelled",
	FailureStepAborted: "step_aborted", FailureRootCause: "root_cause",
	FailureOtherFailures: "other_failures", FailureRootField: "root_field", FailureMPIExit: "mpi_exit",
	FailureMPIProcess: "mpi_process", FailureTraceback: "traceback", FailureException: "exception",
	FailureTerminate: "terminate", FailureSignal: "signal", FailureRAS: "ras",
	FailureNCCLResult: "nccl_result", FailureLastError: "last_error", FailureAgentExit: "agent_exit",
}

func (e FailureEvent) String() string {
	if int(e) < len(failureEventNames) {
		return failureEventNames[e]
	}
	return "unknown"
}

// MarshalText writes the event's name.
func (e FailureEvent) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// RASEvent is which part of an NCCL RAS report a line is.
type RASEvent uint8

const (
	// RASNone: no RAS line.
	RASNone RASEvent = iota
	// RASHeader is the report's banner or a section head (`Job summary`, `Communicators`,
	// `Errors`, `Warnings`).
	RASHeader
	// RASCommStatus is a row of the communicators table: Comm (the group's hash or index),
	// Text (its status and errors, e.g. "RUNNING MISMATCH").
	RASCommStatus
	// RASFinding is an entry of the Errors or Warnings section about a communicator: Text
	// (what differs: "ranks have different AllReduce operation counts", "2 ranks have
	// launched up to operation 38").
	RASFinding
	// RASRank names an outlier rank: `Rank <r> -- GPU <g> managed by process <pid> on node
	// <addr>`: Task (the rank), GPU, Pid, Host (the address).
	RASRank
	// RASDead names a process or node RAS could not reach (dead peers).
	RASDead
	// RASField is one `"<key>": <value>` line of the JSON form of the report (`ncclras -f
	// json`, NCCL 2.28.7+, rasDumpCommsToJSON), which prints each field on a line of its own:
	// Field is the key (rasJSONKeys, or a collective's name for its operation count), Text
	// the value as printed, without its quotes and the comma after it. The report's verdicts
	// are not printed in that form: diagnose folds the fields back into communicators.
	RASField
	numRASEvents
)

var rasEventNames = [numRASEvents]string{
	RASNone: "", RASHeader: "header", RASCommStatus: "comm_status", RASFinding: "finding",
	RASRank: "rank", RASDead: "dead", RASField: "field",
}

func (e RASEvent) String() string {
	if int(e) < len(rasEventNames) {
		return rasEventNames[e]
	}
	return "unknown"
}

// MarshalText writes the event's name.
func (e RASEvent) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// Failure is one line of failure evidence (KindFailure). Numbers the line does not print are
// -1; strings it does not print are "". Text is at most MaxFailureText bytes of the line's
// message.
type Failure struct {
	Event FailureEvent
	RAS   RASEvent
	// Host is the node the line names (Slurm's node, torchrun's host, RAS's node address).
	Host string
	// Task is the process the line names: Slurm's task id (SLURM_PROCID, usually the global
	// rank), torchrun's global rank, Open MPI's rank, RAS's rank, the rank an NCCL exception's
	// message opens with (`[PG 0 Rank 3] NCCL error: ...`); TaskLast ends a range (`tasks
	// 0-3`), equal to Task for one.
	Task, TaskLast int64
	LocalRank      int64
	Pid            int64
	GPU            int64
	// ExitCode is the exit status printed (negative: torchrun's -signal); HasExit says
	// whether one was.
	ExitCode int64
	HasExit  bool
	// Signal is how the process was killed, as printed ("Killed", "Segmentation fault",
	// "SIGABRT"); "" where the line gives an exit code or nothing.
	Signal string
	// Exception is the exception's (or thrown type's) name: "torch.OutOfMemoryError",
	// "RuntimeError", "c10::DistBackendError".
	Exception string
	// Field is a torchrun failure field's name (FailureRootField), or a RAS JSON key
	// (RASField).
	Field string
	// Comm is the communicator a RAS line names, as printed.
	Comm string
	// Text is the message (the exception's, the cancel reason, the RAS finding).
	Text string
	// Result is the ncclResult an NCCL exception's lines name (`ncclRemoteError`, or
	// PyTorch's wording of it, `remote process exited or there was a network error`).
	Result NCCLResult
	// LastError is the text after `Last error:` on the line (NCCL's last WARN message, which
	// PyTorch repeats in its exception), at most MaxFailureText bytes; "" where none.
	LastError string
	// Watchdog is the watchdog timeout that a terminate's what() or an exception's message
	// reports (`[PG 3 Rank 5] Process group watchdog thread terminated with exception: [Rank
	// 5] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9141, ...)`), read as
	// the watchdog line would be (Event WatchdogTimeout; Rank is the message's, else Task);
	// nil where the message reports none.
	Watchdog *Watchdog
}

// MaxFailureText is how much of a failure line's message Failure.Text keeps.
const MaxFailureText = 512
