package main

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
)

func mainHelp() string {
	var b strings.Builder
	b.WriteString(`nccllog reads NCCL debug logs (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS including COLL) and
says what the collectives did: which ops, how many, how big, in which datatypes and steps.

Usage:
  nccllog COMMAND [flags] [FILE ...]     (no FILE, or -, reads standard input)

Commands:
`)
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-11s %s\n", c.name, c.summary)
	}
	b.WriteString(metaHelp())
	b.WriteString(`
Topics:
`)
	for _, t := range helpTopics {
		fmt.Fprintf(&b, "  %-11s %s\n", t.name, t.summary)
	}
	b.WriteString(`
Run 'nccllog help COMMAND' (or 'nccllog COMMAND --help') for a command's flags, and
'nccllog help TOPIC' for a topic.

Examples:
  nccllog report nccl.log
  nccllog split --steps 45-50 nccl.log > steps45-50.log
  cat nccl.log | nccllog stats -
  nccllog hist --format json < nccl.log
  nccllog agg --steps 45-50 --boundary start --format awk nccl.log.gz
  nccllog hang logs/                      (a directory of nccl.%h.%p files)
  nccllog check --format json 'job-1234/nccl.*.log'
  nccllog info --format json job-1234.out
`)
	return b.String()
}

// helpTopics are the parts of the help that hold for every command, printed by "nccllog
// help TOPIC" rather than in each command's help; each command's help ends with a line that
// names them.
var helpTopics = []struct{ name, summary, text string }{
	{"boundary", "steps: the progress lines read, --steps and --boundary", `Steps: training frameworks print a progress line per step (NeMo "Training epoch E, iteration N/M
| ...", Megatron-LM "iteration N/ M | ...", torchtitan "step: N ..."). They print it when the
step ends, so by default (--boundary end) step N is every line after the progress line of
step N-1 up to and including that of step N. --boundary start makes step N begin at its own
progress line and run up to the next one, which is what the old AWK chain did. Lines that no
progress line bounds belong to no step and are left out when --steps is given. However long a
step, its lines keep its number without being held in memory: past 2 MiB of input waiting for
the progress line that ends it, a file is read ahead to that line, and standard input or a pipe
goes to a temporary file in $TMPDIR (removed at once) and is read again. With --steps,
report, stats, hist, agg and calls read only the lines of the selected steps and the progress
lines, and count the others as unread (report lists them); --strict reads and classes every
line. steps and split read only the progress lines.
`},
	{"input", "compression, prefixes, line lengths; files, directories, globs, partial results", `Input: plain text, gzip, zstd, bzip2 or xz (told by the first bytes, not the name); any launcher or
timestamp prefixes (srun -l, mpirun --tag-output, torchrun, a [name|index]: label such as
[trainer0|0]: (its index is not read as a rank), Ray, collectors); NCCL 2.2's envelope without
"NCCL" (host:pid:tid [dev] INFO ..., host:pid:tid [dev] file:line WARN ...) as INFO or WARN
only. xz dictionaries up
to 64 MiB (xz -9) and zstd windows up to 128 MiB (zstd --long) are read; a larger one is an
error naming the file (decompress it first: zstd -dc --long=31 x.zst | nccllog report -).
Lines of any length in plain files; up to 64 MiB from stdin, pipes and compressed data (a
longer line ends that input with an error naming its file and line). An envelope without
pid:tid (host [dev] NCCL WARN ...) is read as that host's process, its pid unknown, named by
the host alone. Every line is counted in one class; malformed NCCL lines are reported on
stderr with their file and line.

Inputs: files, directories (every file below them, links followed), globs, or - (standard
input, read once); per-process files (NCCL_DEBUG_FILE=nccl.%h.%p) and interleaved launcher
output alike, and partial results written by nccllog summarize. A FIFO is read where it is
named, and left out where only a directory holds it or a pattern matches it; a dangling link
found there is skipped with a warning on stderr. Files are read in parallel where the output
does not need their order.
`},
	{"output", "how bytes from the logs are escaped in text output", `Output: table, awk and stderr show control bytes from the logs escaped (ESC as \e, tab \t,
newline \n, CR \r, others and bytes that are not UTF-8 as \xNN), so that a log cannot drive
the terminal; json, csv, ndjson, parquet and split keep every byte.
`},
	{"exit", "the exit statuses", `Exit status: 0 success (also when the reader of the output goes away, as with | head);
1 the input could not be read (missing file, corrupt or truncated archive), or --strict met a
malformed line, or diff --exit-code found the runs differ; 2 usage error; 3 hang found a
suspect or check found a disagreement; 130 interrupted (SIGINT); 143 terminated (SIGTERM). A
signal ends the run at once, also while it waits on an idle pipe or a FIFO.
`},
}

// topicsLine is the last line of every command's help.
const topicsLine = "\nTopics: nccllog help boundary|input|output|exit (steps and --boundary, inputs, escaping, exit status)\n"

// findTopic returns the text of the help topic named name, and false where there is none.
func findTopic(name string) (string, bool) {
	for _, t := range helpTopics {
		if t.name == name {
			return t.text, true
		}
	}
	return "", false
}

// runHelp runs "nccllog help [WORD]": the main help (no word, or -h/--help), a topic, or the
// help of the command WORD (as "WORD --help"; words after it are ignored). A word that is
// neither is a usage error.
func runHelp(words []string, e env) int {
	if len(words) == 0 || words[0] == "-h" || words[0] == "--help" {
		fmt.Fprint(e.stdout, mainHelp())
		return exitOK
	}
	if text, ok := findTopic(words[0]); ok {
		fmt.Fprint(e.stdout, text)
		return exitOK
	}
	if findCommand(words[0]) != nil || isMeta(words[0]) {
		return run([]string{words[0], "--help"}, e)
	}
	return usageError(e, fmt.Errorf("help: no command or topic %q (see nccllog help)", words[0]))
}

func commandHelp(c *command, fs *pflag.FlagSet) string {
	var b strings.Builder
	usage := "[flags] [FILE ...]"
	if c.sides {
		usage = "[flags] A B\n  nccllog " + c.name + " [flags] --a A [--a A2 ...] --b B [--b B2 ...]"
	}
	fmt.Fprintf(&b, "nccllog %s: %s\n\nUsage:\n  nccllog %s %s\n\n", c.name, c.summary, c.name, usage)
	b.WriteString(commandDetail[c.name])
	if ex := commandExamples[c.name]; ex != "" {
		b.WriteString("\nExamples:\n" + ex)
	}
	b.WriteString("\nFlags:\n")
	b.WriteString(fs.FlagUsages())
	b.WriteString(topicsLine)
	return b.String()
}

var commandDetail = map[string]string{
	"report": `Prints, for every input, how many lines fell into each class (collective, comm, progress,
info, warn, trace, version, watchdog (PyTorch's NCCL watchdog and flight recorder), blank,
other, malformed), then per-op stats, the size histogram, the (op, count, datatype)
aggregation and the step averages, all from one pass. A collective line with a "key value"
field nccllog does not know (RCCL 2.27's "acc") is read past, its call counted, and the line
counted again under "(unknown key)".
--html FILE writes it instead as one self-contained HTML page (opens offline; light and dark):
diagnose's first fault and what follows from it first, then hang's and check's verdicts, in
their words, then the summary, the set-up and the WARNs
by template (as info reports them), per-op sizes, the histogram, per-step volume beside step
time and TFLOP/s, per-rank volume, and each rank's arrival lag per step (as stragglers
compares them; at most 64 ranks and 200 columns), as charts and tables.
`,
	"stats": `Per op: calls, and the minimum, average, maximum and total message bytes, where a call's
bytes are count × element size. Calls with a count of 0 or a datatype NCCL does not define are
left out (as the AWK chain did) and listed apart. --format awk prints the AWK chain's text.
`,
	"hist": `Per op, the calls whose message bytes fall in [0, 64 KiB), [64 KiB, 1 MiB), [1 MiB, 16 MiB)
and [16 MiB, ∞). JSON gives each bucket's byte edges (hi_bytes null for the last).
`,
	"agg": `Calls per distinct (op, count, datatype), with bytes per call. Datatypes are named int8
uint8 int32 uint32 int64 uint64 fp16 fp32 fp64 bf16 fp8_e4m3 fp8_e5m2.
`,
	"steps": `Step time (seconds) and TFLOP/s per GPU from the progress lines whose step number is in
--steps (not bounded by --boundary), and their averages. Where several lines name the same
step (every rank printing it), their values are averaged into one. torchtitan's coloured
lines and thousands separators (1,339.16) are read; milliseconds are converted in decimal.
A value printed as inf, -inf or nan prints so (null in JSON) and is left out of the averages,
which say how many steps they left out ("note: the TFLOP/s/GPU average leaves out 1 step whose
value is inf, -inf or nan"; JSON: time_s_left_out, tflops_per_gpu_left_out). --format awk
counts it as 0, as the AWK chain's steps.awk does.

Without progress lines (nccl-tests, inference servers, custom loops) and without --steps, the
steps are inferred from the calls where their lines are timed to the millisecond or finer
(NCCL_DEBUG_TIMESTAMP_LEVELS=ALL with a fraction, or a collector's or logger's times): on each
process's main communicator (the one it issued most calls on), the run of 3 calls that recurs
regularly at least 4 times over most of its calls, most often (then farthest apart), starts
each step (a call made every 10 steps is not the step); a step's
time is the median over the processes of its start to the next step's start. The pattern is
found in each process's first 2048 calls; past them only its steps' start times are kept, up
to 100,000 steps per process (a note says where later steps are not listed). The table is headed
  steps inferred from the call pattern: 27 calls per step on comm 0x55d0f1e93c70 of gpu-node-00:34919 (no progress lines)
  after 1 warm-up calls; time (s) is the median over 8 processes of each step's first call to the next step's; no TFLOP/s (no model FLOPs)
and JSON adds "inferred": true and "inferred_from" (calls_per_step, comm, process, processes,
warmup_calls, truncated); a step's lines are its processes. Where nothing is inferred a note on
stderr says why: untimed calls, TRACE times, whole seconds, or no recurring pattern (nccl-tests'
size sweep repeats each size, not a step: nothing is reported for it).

The inputs are read for their progress lines only, which is quick; only where no progress line
is found (and no --steps is given) are they read a second time, for their calls, which takes
as long as reading every call line. That needs inputs that can be read again: files, plain or
compressed, named, in a directory or matched by a glob, and partial results of summarize
(they keep each process's first calls and later steps' times). Standard input and pipes are read once: their steps
are not inferred, and stderr says
  nccllog: note: no progress lines; steps are inferred from the call pattern only where the input can be read again (a file, not standard input or a pipe)
`,
	"stragglers": `Which rank is slow: per communicator and call position (opCount), each rank's call time
against the median of the ranks of its own host (one clock, whatever the hosts' clocks say of
each other; a position needs 3 ranks of a host there). A step is late for a rank where its
median lag over the step's calls passes the threshold (10 ms, or 10 times the typical lag where
that is more) and it came last on its host in most of them. Listed, worst first: ranks late on
half of their steps or more (chronic, 3 steps at least) and ranks late on fewer (one-off, out of
5 steps or more), with their rank in the largest communicator compared, host, pid, commId, share
of calls where they came last, median and p95 lag (ms) and their late steps (the table's
lines below it, "rank 45 late on steps 0 (39.9 ms), ...", name the first 5). Nothing is listed,
exit 0, where no rank stands out, where the calls are untimed, timed to the second (NCCL's
default [%F %T]) or only since init (TRACE), or where no communicator's init lines name its
ranks; a note says why ("hosts' clocks disagree by up to ... ms ..." where they do). Memory
stays flat: the call positions whose keys hash lowest are compared, 262,144 calls of them at
most (the same whatever the chunking: on a long log, a sample that may miss a one-off).
--steps compares only the call positions of those steps (every line is still read: a position
takes the least step its ranks' calls have, so per-process files take it from the one with the
progress lines). A partial result holds
no stragglers analysis: give the logs themselves.
`,
	"calls": `Every collective and point-to-point call line in log order, with its line number, step,
process, op, opCount (hex as NCCL prints it, marked 0x: 0x352), count, datatype, bytes, nranks
and comm. --format ndjson and parquet write one row per call with its file, line, host, pid,
launcher rank, comm, step, op, opcount, count, dtype, bytes, redop, root (the peer of
Send/Recv), nranks, stream and counted (false for calls the analyses leave out). csv, json,
ndjson and parquet write opcount as a decimal integer (850 for NCCL's opCount 352).
time is the time the call's line carries (when NCCL enqueued it), in RFC 3339 with the digits
the log printed, Z only where the log printed a zone; without one it is the logging host's
local clock, with no offset. Forms without a year (syslog, glog) go in time_no_year instead
(06-11T14:03:27.928019), NCCL TRACE's time since init in since_init_ms; all are empty or null
for an untimed line. --format trace writes a Chrome Trace Event file (chrome://tracing,
ui.perfetto.dev, Catapult's trace viewer): one process per host:pid, a thread per
communicator, each call an instant event on it at its time, named by its op, with opCount
(decimal) and bytes, and each step a slice on the steps process's thread of its input. Untimed calls are refused ("the log's lines carry no
time; --format trace needs NCCL_DEBUG_TIMESTAMP_LEVELS=ALL or a collector's timestamps").
-o FILE writes any format to FILE, whole or not at all (a link's target is replaced; a FIFO or
a device such as /dev/stdout is written into as calls come); parquet needs it. Read it with
DuckDB:
  duckdb -c "select op, count(*) from 'calls.parquet' group by op"
A call pasted without its host:pid:tid envelope belongs to no known process: its process is ?
in the table, its host "" and its pid null (empty in CSV) elsewhere. A comm or stream pointer
the log does not show (redacted as <PTR>, 0x..., or no stream printed) is ? in the table and
"" elsewhere. Such calls count here and in stats, hist and agg, never in ranks, comms, hang
or check.
Where --steps selects nothing, one line on stderr says why, and the exit status stays 0:
"nccllog: note: --steps 45-50 selected nothing: the input has no progress line (...)", or
"... the input's progress lines are of steps 0-25".
`,
	"ranks": `Per communicator, each rank: calls, message bytes and bus volume by op, first and last
step, how its communicator ended, and the bus bandwidth a step would need to move its volume
in the step's time (where progress lines give step times). A rank is a process's communicator
from its Init line to its Destroy/Abort ([dev] is the CUDA device, not the rank); ranks of one
communicator are grouped by commId, by parent and split color, or, without Init lines, by
communicator size and order of first use (shown as inferred). At most 16,384 communicators
are kept in detail: past that, closed ones (every rank ended after the same calls) are folded
into totals first, then later ones are counted in totals only; one line on stderr says so, and
the JSON has "overflow" (totals stay exact).
`,
	"comms": `Per communicator: size, ranks seen, how they were grouped, calls per rank, total bytes and
bus volume, steps and ops. Past 16,384 communicators (see ranks) the last row sums the others.
`,
	"hang": `Per communicator, first what the input covers (ranks with lines, nodes, the first and last
call seen, whether it is an excerpt), then where each rank stopped: ranks behind the others
(with their last call and the call they never made), ranks whose communicator ends in Abort or
Destroy while another rank that still has it went further, logs that end in a WARN that names a
fault (not a notice such as NUMA balancing or an IB port event), and ranks without lines where
the ranks that got furthest stopped together (not where ranks of its size, or of it, have calls
but no Init line, nor in an excerpt that shows a rank with lines for fewer than 16
calls), ranked by score: the sum of the weights of a rank's evidence (no lines 100; behind
50-90, the further the more; Abort 60; log ends in a WARN 40; Destroy early 30; with these,
any WARN +15; where the lines carry times, calls stalled +30), which only orders the suspects. Where the lines carry
times that compare (one clock: a host's, or hosts whose first calls agree within 10 s), a rank
behind whose calls stopped long before the log's later lines (its own INFO, WARN and
communicator lines, its host's, watchdog and failure lines; more than 30 s and 10 of its
usual gaps) is a stall, said with its times; one whose calls run to within 10 of its usual
gaps of the log's end is not a suspect: the log looks cut while the job still ran. Evidence every rank shares (Abort everywhere, as PyTorch's destroy_process_group
leaves a healthy job) counts against none. A log of some nodes judges only their ranks
("covers 1 of 2 nodes"). Calls are aligned by position, and an excerpt's ranks by opCount where
it goes up; ranks an excerpt cuts at different calls are not suspects. Nor are ranks a few
calls apart (three or more end points, no wide gap) where a log ends while its job still issues
calls: still running, stopped by a time limit, or cut with head; then neither are the ranks of
their processes' other communicators. Ranks far behind such a pack are; and ranks at two end
points, the culprits behind and the others at the furthest call, look the same whether the job
hung or the log was cut there, and are reported. PyTorch watchdog lines (with or without NCCL lines): per
process group, each rank's last enqueued/started/completed work, the work most ranks timed
out on and when it started; a rank whose queue stops below that work never reached the
collective (the likely straggler), ranks that enqueued it are victims, and where two or more
timed out, ranks without a watchdog line are suspects too. Ranks that all entered the work
give no suspect (the job hung on something they share: diagnose reads its cause); dump
signals are no evidence. Their scores: never reached the work 90, no
watchdog line 70, NCCL calls behind +10. The default group joins the world
communicator (host:pid, NCCL calls). Communicators past the 16,384 kept in detail (see ranks)
are not judged. Exit status 3 when a rank stands out.
`,
	"check": `Per communicator, first what the input covers (as hang), then compares every call position
across ranks (op, count, datatype, reduction op and root; the peer of Send/Recv is left out)
and reports the first divergence with both sides and every field that differs, and sequences
of different lengths (not where the input's end explains them, as for hang). A group of more
processes than ranks (two jobs in one directory) gets no verdict, nor do communicators past the
16,384 kept in detail (see ranks). Exit status 3 when it finds one.
`,
	"diagnose": `What went wrong first, where, and which errors only follow from it. It reads every kind of
failure evidence: the launcher's word on the process that ended first (Slurm "srun: error:
... task N: Exited"; a line of a range, "tasks 2-7: Exited", names a set in no order, none of
it first: "tasks 2-15 on 2 nodes exited with exit code 1" where nothing else says; torchrun's "Root Cause (first observed failure)" block, its agent's
"failed (exitcode: -6) local_rank: 3 (pid: 26026)" ("local rank 3 (pid 26026) exited first
with exit code -6 (SIGABRT)", on the log's one host where it shows one; the root cause block is
preferred where both name it), Open MPI's first
process ("Process name: [[j,1],R]", or "mpirun noticed that process rank 3 with PID 1167 on node n7
exited on signal 11 (Segmentation fault)." from mpirun, mpiexec, orterun, prterun or oshrun: "rank 3
(n7:1167) was killed by signal 11 (Segmentation fault) first, as the launcher reports"; its
"Primary job terminated normally, but 1 process returned a non-zero exit code" alone is a
process-exit that names none; a rank the block names alone is the process the NCCL lines show,
where they show one whose rank no line gives and that failed on its own; Ray's raylet on a worker that died, "A worker died or was killed
... Worker IP address: A ... Worker PID: P Worker exit type: SYSTEM_ERROR", and Ray's memory
monitor on the node whose workers it killed, "N Workers (tasks / actors) killed due to memory
pressure (OOM)"; DeepSpeed's launcher's "['python', ..., '--local_rank=3'] exits with return code
= -9"; a shell's "slurm_script: line 12: 45678 Killed   python train.py"; srun's "task 3: Out Of
Memory", the host's memory), that process's own last words (a Python exception such as torch.OutOfMemoryError or
"CUDA error", "terminate called" with its what() message from the line below, a signal: "Segmentation fault (core dumped)" alone is "a process
was killed by a signal first: Segmentation fault", and a crash handler's "[host:pid] Signal:
Segmentation fault (11)" (Open MPI) or "[host:pid:...] Caught signal 11" (UCX) names the process),
PyTorch's NCCL exceptions (their ncclResult and the WARN they repeat after "Last error:", the
origin where the log holds no NCCL line naming one; unprefixed lines under a "[rankN]:" "watchdog
thread terminated with exception:" header are rank N's; a collective's "Collective WorkNCCL(...)
raised the following async exception: NCCL error: ..." is its rank's; "[3] is setting up NCCL
communicator and retrieving ncclUniqueId from [0] via c10d key-value store ... got error: ..."
points at rank 0, which went away or never made the communicator; "DistStoreError: Timed out after
901 seconds waiting for clients. 3/4 clients joined." is an init-failure (a process never joined); the
store's "[c10d] The client socket has timed out after 1800s while trying to connect to (A, P)" and
"The server socket has failed to listen on any local network address" (also as DistNetworkError)
are the process's own init-failure; "NCCL communicator was
aborted on rank 1. Original reason for failure was: Process Group destroyed on rank 1" is work
a destroyed process group aborted, a follow-on of what ended the process; a line under a Ray worker's
"(Name pid=N, ip=A)" prefix is that worker's, and one behind pdsh's "host: " label that host's), TensorFlow's "OP_REQUIRES failed at
nccl_ops.cc:104 : UNKNOWN: unhandled cuda error" on an NCCL op (the process's own ncclResult:
unhandled cuda error is a cuda-error, unhandled system error a system-error; on the log's one
process), NCCL WARNs (NET/IB completion errors, an IB async event of a queue pair, completion
queue or device ("Got async event : local access violation work queue error"), a "port error" that no
"port active" of its host follows and after which its process issued no call (the host's link lost),
NET/OFI and NET/Socket failures
(a plugin's own "NET/OFI aws-ofi-nccl initialization failed" with no chain after it is a notice: NCCL
goes on with its own network; so is "NET/OFI Could not find ncclGetVersion symbol"), libmlx5's
"mlx5: host: got completion with error:" (evidence of that host's NET/IB error where one is logged), libfabric's
"libfabric:PID:...::efa:cq:...<warn> err: N, message: ..." (a network error of process PID), bootstrap, Cuda
failure (oom where it says 'out of memory'), "Failed to CUDA calloc", NVLS's "Failed to bind
NVLink SHARP (NVLS) Multicast memory", a CUDA or HIP call
"failed" ("cudaIpcGetMemHandle failed : ...", "hipIpcGetMemHandle failed"), a connect refused (the
peer was not listening: it likely died or never started), a failed ibv_create_qp, ibv_create_cq,
ibv_modify_qp or ibv_alloc_pd, and the socket layer's "Call to bind failed" (a network error without
its chain; RAS's client socket's is a notice), a socket-layer WARN
("socketFinalizeAccept: ...", "ncclSocketInit: ...": a network error where its chain or an
exception proves it; "socketPollConnect: Connect to A returned 113(No route to host)" and
"socketPollConnect: exceeded timeouts" are one alone), invalid usage (also "comm 0x... has already been destroyed", "Duplicate GPU detected : rank 1 and rank 0 ..." of both ranks, NCCL's "Mismatched
collective detected" and "Your program may be hanging, this may be caused by a collective mismatch
around rank N", a mismatch of rank N, NET/IB's "collective mismatch error, local size N remote size
M", a mismatch of its process, and "Bootstrap Root : rank N of M ranks has already checked in":
two processes claimed rank N), "Error : no algorithm/protocol available" (an internal-error: NCCL_ALGO
or NCCL_PROTO set to ones it cannot run) and "Attribute arch of node cpu not found" (an internal-error
of a topology file), "DOCA failure N" (a network error), /dev/shm segments
that could not be made or attached (a shm-error, with what the errno points to; one made
for want of room ranks before a CUDA error printed after it), a WARN of NCCL's topology
detection whose chain returns a system error ("Could not find real path of /sys/...",
"nvmlDeviceGetHandleByPciBusId() failed", "XML Import Channel : dev 1 not found.": a
topology-error; NVML's "Driver/library version mismatch" is a system-error), a proxy's "[Service thread] Connection closed by localRank 7" from three or
more processes of a host that name no other local rank (that local rank went away), a peer
on the loopback that closed the connection of the log's one process (its own network error), a
connection reset or closed by a peer the line does not name ("Connection reset by peer",
"[Service thread] Error encountered progressing ...") where the log shows no other fault (the
processes that printed it lost a peer first);
any WARN that starts a "file:line -> N" return-code
chain, of the kind its ncclResult names (3, ncclInternalError, an internal-error: "Error : ring 0
does not loop back to start"); a service thread's Connect failed with "res=2" or
"retcode 2" after the process's own "misc/socket.cc:N -> 2" chain (or with a chain that
begins in "transport/net_ib.cc") is its network error; a WARN
after the process's own "Abort COMPLETE" folds under the cause it named before), "Abort COMPLETE" and "Init START"
without "Init COMPLETE" per process and communicator, PyTorch watchdog timeouts (on the global
rank of PyTorch's "[rank13]:" label, whatever group the message's "[Rank 1]" is of; also glued
into other lines, or cut inside their WorkNCCL tuple: "WorkNCCL(SeqNum=4, OpTy", or wrapped after
"timeout:" with the tuple on the next line; PyTorch 1.x's "RuntimeError: [Rank 1] Caught collective
operation timeout: WorkNCCL(...)" is one too), PyTorch's heartbeat monitor on a stuck watchdog
("ProcessGroupNCCL's watchdog got stuck for 480 seconds ...", "Heartbeat monitor timed out!":
a fault alone, else after the first), PyTorch's "Some NCCL operations have failed or timed out"
or "we are taking the entire process down" (the rank's watchdog finding where its timeout's line
is missing; a line Ray folded, "[repeated 3x across cluster]", is that many more workers'; a
rank's "Received a dump signal due to a collective timeout from rank 13" is rank 13's timeout; a
terminate after the watchdog took its process down, or "Fatal Python error: Aborted" right after
the what() that carries the timeout, is the timeout's, not a crash), the watchdog's exception
that re-raises a timeout (after any head, or in a what() under "terminate called"; one glued
behind pytest's "FAILED" is read too), PyTorch's desync report (TORCH_NCCL_DESYNC_DEBUG=1: "[1]
finished collective #2, but didn't join collective #3", "[0, 1] joined but didn't finish
collective #41", "ranks [5, 6] are the lagging ranks that caused this timeout": the ranks it
names are behind, the first fault, the timeouts after them), nccl-tests' "node1: Test NCCL failure common.cu:961
'unhandled system error ...'" (or "Test CUDA failure") on the process its " .. node1 pid N: Test
failure" line names (else the one pid its header's "#  Rank  0 Group  0 Pid P on host device
0" lines list on that host), with that process's "-> N" chain where NCCL printed no WARN, NCCL RAS reports (text, or JSON from "ncclras -f json", NCCL 2.28.7+,
whose raw data it judges as NCCL's text form does), and the ranks' call sequences (a mismatch,
a rank that aborted alone or stopped behind; where the call lines carry times, a rank behind
whose calls stopped long before the log's later lines is a stall, and one whose calls run to
the log's end is a cut, not a fault); where nothing else is a fault, a chain without its WARN
returning an error through NCCL's API (group.cc, init.cc) on the process's main thread or
from an asynchronous init ("group.cc:72 -> 3 [Async thread]"), or a system error from the
network transport's set-up of a connection ("transport/net.cc:515 -> 2"): its call failed (a
chain whose thread goes on with an INFO line below NCCL's API was taken by NCCL, as a probe's
is, and counts for nothing). All of it is read behind a collector's or logger's time
on every line ("kubectl logs --timestamps", Python logging, syslog), a host's label (pdsh's
"worker-1: ", DeepSpeed's multi-node launcher) or a Markdown quote's "> ". Each finding names the ranks, hosts and processes
(host:pid), the communicator, the time where the lines carry one, and its file:line evidence.
Follow-on errors are folded under the finding they follow from: "Connection closed by remote
peer X", a send or receive that failed with "Broken pipe" or a reset, under the finding on
host X (or, where X shows nothing, a finding that the peer at X went away first; where X is
the logging process's own host, or its address on a fast network, "host-ib0", another
process of that host); a peer named
by its address alone is named by the process that printed that address as its own at init
("NET/IB : Using ... ; OOB", "NET/Socket : Using", "Bootstrap : Using"): "host:pid (10.1.2.3)"
where one process did, "host (10.1.2.3)" where several of one host did (none where two hosts
did; the first 4096 addresses are kept); other ranks' aborts, watchdog timeouts, ncclRemoteError
and service-thread WARNs under the first fault; another process's "-> N" chain whose WARN the
log lacks is "printed an error chain without its WARN", under the first fault only where it
comes after it. A fault every rank shares (every rank times out
with no other error, every rank's init fails the same way) is one shared finding; it says "the
same collective" only where the timeouts name one work (SeqNum, and process group and op where
named), else how many works timed out, each rank's SeqNums and the first to time out; ranks
whose timeouts name one work but another op or other element counts (NumelIn, NumelOut) called
different collectives there: a mismatch of the ranks on the smaller side; where two or more
ranks' timeouts of one work leave out at most a quarter of the job's ranks, those did not wait
in it: "behind", the likely ones the others waited for; ranks of the default group that timed
out at an earlier work than the others (at most half of them) stopped at a collective the
others had finished: "behind". An NCCL exception whose "Last error:" says "Connection closed by
remote peer X" names X as the one that went away first, the exception after it, as gloo's
"Connection closed by peer [A]:P" names A. An error
of finding no interface, device or network ("Bootstrap : no socket interface found", "NET/Socket
: no interface found", "NET/IB : No IP interface found.", "... is neither AF_INET(2) nor
AF_INET6(10)", "Error: network IB not found.") after the setting that selects them
("NCCL_SOCKET_IFNAME set by environment to eth2", NCCL_NET, NCCL_IB_HCA) names it: "... could
not start NCCL: no network interface matches NCCL_SOCKET_IFNAME=eth2 (set by the environment):
..." (finding no interface at all is an init-failure, not a link's network error); "XML Import Channel : dev 3 not found." after NCCL_GRAPH_FILE names the
graph file; a setting alone is no evidence. WARNs and chains of heads with a host the parser
does not read are the pid's: ":4410:4410 [0]" (a machine whose host name NCCL read as empty)
and "-:4410:4410 [0]" are pid 4410's, "<cluster_name>:922:1158 [3]" (redacted) is
<cluster_name>:922's, "host-01:XXXXXX [5]" (pid redacted) is host-01's, "[Node-A]:[PID]:[Thread]
[0]" (all three masked) is Node-A's; a head cut to its
device, "[1] misc/shmutils.cc:103 NCCL WARN ...", is the process on GPU 1's. A chain without
its WARN proves a fault where it returns through NCCL's API (group.cc, init.cc, enqueue.cc,
collectives.cc) on the process's main thread. Behind a collector's or logger's time, a host's
label or a quote, mpirun's "[1,2]<stdout>:" still gives a line's rank and Ray's "(pid=N)" its
worker; so do vLLM's logger head ("(RayWorkerVllm pid=7602) ERROR 04-07 00:57:46
ray_utils.py:45] torch.distributed.DistBackendError: ...", the worker kept), glog's ("E0407
00:57:46.123456 12345 engine.cc:45] "), pytest's "FAILED tests/test_x.py::test - ", and a paste indented as a block ("    [rank1]:[E1113 ...]").
Origins are ordered by time where their lines carry comparable times, else by the
launcher's word, else a process's own error before a network error, invalid usage, an init
failure, a rank behind or a mismatch, an abort, a watchdog timeout.
The first line is the status: "fault" when the evidence proves one (then "first fault:" and its
sentence, its consequences indented under "then:", the other findings last); "unknown" with a
reason where the log is too thin to tell (no NCCL lines, or only malformed ones; ranks that stopped at different calls
with nothing else wrong, as where a log was cut or a job hangs; processes still retrying a
refused connect, "Call to connect returned ..., retrying" or "connect returned ..., retrying
(3/34)", with no Init COMPLETE after it; one that reached the last retry, "(34/34)" or a
thread's second "Connection timed out, retrying", with no Init COMPLETE or call after it, is a
network fault; error chains "file:line -> N" whose WARN the log does not show, with nothing
that proves a fault; a log that ends inside a Python traceback, before its exception's line;
only errors that pass on a fault met elsewhere, the proxy's "[Proxy Service 9] Failed to execute
operation Connect from rank 15, retcode 3" or "[Service thread] Could not receive type from
localRank 7", a WARN whose chain returns ncclRemoteError),
with what made it so listed under it; "healthy" otherwise. Excerpts
of running jobs, one node's lines, clean shutdowns and one process driving several GPUs are
healthy. The JSON is {"status", "reason", "findings": [{"kind", "ranks", "hosts", "processes",
"comm", "time", "time_note", "follows", "shared", "summary", "evidence": [{"file", "line",
"text"}]}], "left", "more"} ("time" null where no line gives one; "comm", "time_note",
"follows" only where set), findings[0] the first fault; at most 256 findings are listed. Exit status 3 when the status is fault.
`,
	"info": `The job's set-up, from the INFO lines every rank prints at init, and what differs between
ranks. First the outliers: every per-rank fact (NCCL/RCCL version, environment variables and
their values, NICs, network, transport per link, GDR, channel counts, number of
communicators) compared across ranks, listing only the ranks and hosts off the majority, with
the line that shows it; "none" on a uniform job. A fact a rank does not print is not a
difference (TUNING and ring dumps come from rank 0 only, and before 2.22 so does the version
line), nor are some of the lines of a fact that takes several (NET/OFI's platform, then its
provider), except an environment variable among processes whose set-up the log holds whole (from
cudaDriverVersion or their version line, 2.13+, or before that another variable in a log
with its version line, to an Init COMPLETE), shown as "(not printed)" where unset. The number
of communicators per process is compared only where the log shows the job past its init: it
holds collective calls, and every communicator holds all its ranks, each with Init COMPLETE
(not so in an excerpt, one node's log, or a log that ends during init). Then:
versions, hosts and GPUs (cudaDev/nvmlDev/busId), communicators (size, layout, channels and a
transport verdict such as "inter-node NET/IB/GDRDMA on all 64 links; intra-node P2P/CUMEM on
all 112 links"), network and NICs, environment, the algorithm and protocol per op and size
range (TUNING), init timings slowest first, WARNs grouped by template (numbers and addresses
masked) with count, first and last line and ranks, error backtraces ("file.cc:NNN -> R")
folded into root causes with the ncclResult name, the first WARN in NCCL's own time (2.26+),
and which NCCL_DEBUG_SUBSYS sections are missing and what that hides. Table cells name at
most eight runs of ranks and four hosts, then how many in all; --format json lists every
one. Lists at most 16,384 communicators (JSON comms_not_listed counts the Init lines of the
others). On a terminal, a table's last column of free text (evidence, GPUs, transport, WARN)
is cut with … where a row is wider than the terminal; --wide, a pipe or a file keep it whole.
Reads every line; --steps does not apply.
`,
	"split": `Writes the lines of the selected steps exactly as they were read (CRLF, trailing spaces
and all). Without --steps it writes every line.
Where --steps selects nothing, one line on stderr says why, and the exit status stays 0:
"nccllog: note: --steps 45-50 selected nothing: the input has no progress line (...)", or
"... the input's progress lines are of steps 0-25".
`,
	"diff": `Compares two runs (a good one and a bad one: another NCCL or driver, another cluster, one
more node, a changed variable) and prints only what differs, most consequential first:
identity (NCCL/RCCL and CUDA driver versions, processes, hosts, GPUs per host, communicators
and their sizes), findings (diagnose's status and first fault, WARN templates new or gone),
environment (variables added, removed, changed), transports (NICs, IB or Socket, transports,
channels, rings with PXN and GDR), tuning (algorithm/protocol per op where both runs sent the
same sizes), init (median and slowest init time per rank), collectives (per op calls and bytes,
the share of calls per size bucket, (op, count, datatype) groups added or removed, the spread
of bus volume over the ranks of the largest communicator, max/min), steps
(step count, step time and TFLOP/s per GPU, median and p95). A section without a difference is
one line ("transports: same"). Numbers print as A -> B with B/A; facts as absent where a side
lacks them. Where the runs have different numbers of ranks, calls and bytes are compared per
rank; init times are per rank and step times per step in every case. Measured values (init,
step time, TFLOP/s, bus volume spread) moving by 5% or less count as the same; counts differ
when they differ.
A and B are each one input (a log, a directory, a glob or a partial result from summarize);
--a and --b, each repeated, give a side several. Both sides are read at once. --steps and
--boundary apply to both. JSON: {"differences": [{"section", "what", "a", "b", "ratio"?}, ...],
"same": [sections]}, differences empty when the runs match. Exit status 0, or with
--exit-code 1 when the runs differ (as git diff --exit-code); 2 for usage errors.
--html FILE writes, in place of the table, one self-contained HTML page (opens offline; light
and dark): the differences first, in the table's words, then both runs drawn together, A in
blue and B in orange: per-op calls and bytes, each op's size histogram, step time, TFLOP/s per
GPU and bytes per rank by step number, and the median init time per kind of init line. A
section only one run has says so in one sentence ("Only A has steps: B has no progress line
and no step of calls."). It takes no --format; --exit-code applies as to the table.
`,
	"summarize": `Runs every analysis a partial result can hold (line accounting, per-op sizes and
aggregation, steps, ranks and communicators for ranks, comms, hang and check, and the set-up
lines info reads, diagnose's failure evidence) and writes it as one small versioned file (zstd-compressed JSON). Every
command reads such a file as an input, by its first bytes, and merges it with other partial
results and with logs: report, stats, hist, agg, steps, ranks, comms, hang, check, info and
diagnose over the partial results print what they print over the logs, file names and line numbers
included. Use it to parse a job's logs where they are (one run per node) and
move the small results. split and calls need the lines themselves; a partial result made with
another --steps or --boundary is refused. A failed run writes no file; the same logs give the
same bytes. Without -o (or with -o -) it writes to standard output, which must be a pipe or a
file: on a terminal it refuses ("summarize writes binary data: give -o FILE or redirect
standard output", exit 2). A partial result records each log's size and a CRC-32C of its first and last MiB:
a log read twice through partial results (one given twice, two of one log, one beside its own
log) is an error naming both files ("the same log twice: ..."), exit 1. A partial result is
untrusted input: it is read within limits set by its size (its JSON at most 32 times its size
and at least 4 MiB, strings up to 1 MiB, call sequences up to 1,048,576 calls plus 4 a byte),
and what it declares is checked (counts, sums, ranks); either failing is one line naming it.
`,
}

// commandExamples are the examples each command's help ends its description with.
var commandExamples = map[string]string{
	"report":     "  nccllog report nccl.log\n  nccllog report --html report.html logs/\n",
	"stats":      "  cat nccl.log | nccllog stats -\n  nccllog stats --steps 45-50 --format json nccl.log.gz\n",
	"hist":       "  nccllog hist < nccl.log\n",
	"agg":        "  nccllog agg --steps 45-50 --boundary start --format awk nccl.log\n",
	"steps":      "  nccllog steps --steps 45-49 --format json job-1234.out\n",
	"calls":      "  nccllog calls --steps 47 nccl.log | less\n  nccllog calls --format parquet -o calls.parquet logs/\n",
	"split":      "  nccllog split --steps 45-50 nccl.log > steps45-50.log\n",
	"ranks":      "  nccllog ranks --steps 10-19 logs/\n",
	"comms":      "  nccllog comms --format json job.log\n",
	"hang":       "  nccllog hang logs/        (a directory of nccl.%h.%p files)\n",
	"check":      "  nccllog check --format json 'job-1234/nccl.*.log'\n",
	"diagnose":   "  nccllog diagnose job-1234.out\n  nccllog diagnose --format json logs/ | jq '.findings[0]'\n",
	"info":       "  nccllog info job-1234.out\n  nccllog info --format json logs/ | jq .outliers\n",
	"summarize":  "  nccllog summarize -o parts/$(hostname).part /tmp/nccl.*.log\n  nccllog report parts/*.part\n",
	"stragglers": "  nccllog stragglers --format json job-1234.out\n",
	"diff":       "  nccllog diff good.log bad.log\n  nccllog diff --exit-code --format json --a 'good/nccl.*.log' --b bad.part\n  nccllog diff --html diff.html good.log bad.log\n",
}
