// Package parser knows the text of NCCL and RCCL debug logs: it turns one line into a typed
// record (collective call, communicator event, training progress, other NCCL output or not NCCL).
//
// The participle grammar in grammar*.go is the parser of record. A hand-written scanner
// (scan*.go) reads the hot line shapes far faster; Parser checks it against the grammar on the
// first line of every shape it meets and falls back to the grammar wherever the two disagree.
// Times too have a grammar of record (grammar_stamp.go) and a hand-written reader
// (stamp_read.go); Parser checks the reader on the first line of every shape, and elsewhere,
// the lines it leaves to the grammar among them, takes the reader's times.
//
// # Line model
//
// Every line gives a Line: its Kind, the launcher's Rank label, and the part that matches its
// Kind (Env for NCCL lines, Coll, Comm, Prog, Watchdog; Reason for malformed ones). An NCCL
// line whose envelope names no pid:tid (`host [dev] NCCL INFO`) has Env.Pid and Env.Tid -1: the
// host's process, its pid unknown.
//
// Line.Time is the time the line carries, a Stamp; its zero value (Form StampNone) is an
// untimed line, and nothing is ever interpolated. A line's time is the one nearest its NCCL
// envelope: the last time in the run of launcher prefixes, times and white space that opens
// the line (a collector's `2025-06-11T14:03:27.512Z `, srun's `3: `, then NCCL's own
// `[2025-06-11 14:03:27] `: NCCL's is kept). A time after other text, or in a message, is not
// read. The forms (StampForm) are NCCL's `[%F %T]` with or without `.%Nf`, ISO 8601 (`T` or a
// space, a fraction, `Z` or ±hh:mm, also NCCL's custom `%F %T`), `YYYY/MM/DD HH:MM:SS`, other
// bracketed ones, syslog/ts `Mon DD HH:MM:SS`, glog heads `E1016 03:31:38.928019` (PyTorch's
// `E227` is Feb 27), Python logging's `YYYY-MM-DD HH:MM:SS,mmm`, torchrun's failure block
// `time : YYYY-MM-DD_HH:MM:SS` (that field line's own time), and a TRACE line's
// milliseconds since init (where a TRACE line has no wall time). A date that does not exist
// (month 13, Feb 30, hour 24) is no time, nor is a bare number (epoch seconds, `%s`, cannot be
// told from a job's own numbers, so it is not read).
//
// Stamp.Nanos is the reading as printed, in nanoseconds since 1970: the host's local clock
// read as if UTC where no zone was printed (Zoned false), normalised to UTC where one was;
// for forms without a year (HasYear false) it is read in the year 2000, a leap year; for
// StampTrace it is the time since the process's debug init. Digits is the precision printed.
//
// For the stages: compare Nanos only between lines whose Zoned and HasYear agree, and only
// across hosts where nothing says their clocks or zones differ; put a year on syslog and glog
// times from a timed line of the same process (or file) that has one, minding a year's turn;
// anchor a process's TRACE times where one of its lines carries both (a TRACE line under NCCL's
// ALL-levels time reads as its wall time) or where its wall-timed lines bracket them; and
// report times with the Digits the log printed.
package parser
