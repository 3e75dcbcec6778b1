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
		fmt.Fprintf(&b, "  %-8s %s\n", c.name, c.summary)
	}
	b.WriteString(metaHelp())
	b.WriteString(`
Run 'nccllog COMMAND --help' for a command's flags.
` + sharedHelp + `
Examples:
  nccllog report nccl.log
  nccllog split --steps 45-50 nccl.log > steps45-50.log
  cat nccl.log | nccllog stats -
  nccllog hist --format json < nccl.log
  nccllog agg --steps 45-50 --boundary start --format awk nccl.log.gz
  nccllog hang logs/                      (a directory of nccl.%h.%p files)
  nccllog check --format json 'job-1234/nccl.*.log'
`)
	return b.String()
}

const sharedHelp = `
Steps: training frameworks print a progress line per step (NeMo "Training epoch E, iteration N/M
| ...", Megatron-LM "iteration N/ M | ...", torchtitan "step: N ..."). They print it when the
step ends, so by default (--boundary end) step N is every line after the progress line of
step N-1 up to and including that of step N. --boundary start makes step N begin at its own
progress line and run up to the next one, which is what the old AWK chain did. Lines that no
progress line bounds belong to no step and are left out when --steps is given. With --steps,
report, stats, hist, agg and calls read only the lines of the selected steps and the progress
lines, and count the others as unread (report lists them); --strict reads and classes every
line. steps and split read only the progress lines.

Input: plain text, gzip or zstd (told by the first bytes, not the name); any launcher or
timestamp prefixes (srun -l, mpirun --tag-output, torchrun, Ray, collectors). No line-length
limit. Every line is counted in one class; malformed NCCL lines are reported on stderr with
their file and line.

Inputs: files, directories (every file below them), globs, or - (standard input); per-process
files (NCCL_DEBUG_FILE=nccl.%h.%p) and interleaved launcher output alike. Files are read in
parallel where the output does not need their order.

Exit status: 0 success (also when the reader of the output goes away, as with | head);
1 the input could not be read (missing file, corrupt or truncated archive), or --strict met a
malformed line; 2 usage error; 3 hang found a suspect or check found a disagreement;
130 interrupted.
`

func commandHelp(c *command, fs *pflag.FlagSet) string {
	var b strings.Builder
	fmt.Fprintf(&b, "nccllog %s: %s\n\nUsage:\n  nccllog %s [flags] [FILE ...]\n\n", c.name, c.summary, c.name)
	b.WriteString(commandDetail[c.name])
	b.WriteString("\nFlags:\n")
	b.WriteString(fs.FlagUsages())
	b.WriteString(sharedHelp)
	return b.String()
}

var commandDetail = map[string]string{
	"report": `Prints, for every input, how many lines fell into each class (collective, comm, progress,
info, warn, trace, version, blank, other, malformed), then per-op stats, the size histogram,
the (op, count, datatype) aggregation and the step averages, all from one pass.
--html FILE writes it instead as one self-contained HTML page (opens offline; light and dark):
hang and check findings first, then the summary, per-op sizes, the histogram, per-step volume
beside step time and TFLOP/s, and per-rank volume, as charts and tables.
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
step (every rank printing it), their values are averaged into one.
`,
	"calls": `Every collective and point-to-point call line in log order, with its line number, step,
process, op, opCount (hex, as NCCL prints it), count, datatype, bytes, nranks and comm.
--format ndjson and parquet write one row per call with its file, line, host, pid, launcher
rank, comm, step, op, opcount, count, dtype, bytes, redop, root (the peer of Send/Recv),
nranks, stream and counted (false for calls the analyses leave out). -o FILE writes any format
to FILE, whole or not at all; parquet needs it. Read it with DuckDB:
  duckdb -c "select op, count(*) from 'calls.parquet' group by op"
`,
	"ranks": `Per communicator, each rank: calls, message bytes and bus volume by op, first and last
step, how its communicator ended, and the bus bandwidth a step would need to move its volume
in the step's time (where progress lines give step times). A rank is a process's communicator
from its Init line to its Destroy/Abort ([dev] is the CUDA device, not the rank); ranks of one
communicator are grouped by commId, by parent and split color, or, without Init lines, by
communicator size and order of first use (shown as inferred).
`,
	"comms": `Per communicator: size, ranks seen, how they were grouped, calls per rank, total bytes and
bus volume, steps and ops.
`,
	"hang": `Per communicator, where each rank stopped: ranks that issued fewer calls than the others
(with their last call and the call they never made), ranks whose communicator ends in Abort or
that ended it early, logs that end in a WARN, and ranks that should exist but have no lines
(a missing file or a dead process), ranked by how likely each is the culprit. Calls are aligned
by their position in each rank's sequence, not by opCount. Exit status 3 when a rank stands out.
`,
	"check": `Per communicator, compares every call position across ranks (op, count, datatype, reduction
op and root; the peer of Send/Recv is left out) and reports the first divergence with both
sides, and sequences of different lengths. Exit status 3 when it finds one.
`,
	"split": `Writes the lines of the selected steps exactly as they were read (CRLF, trailing spaces
and all). Without --steps it writes every line.
`,
}
