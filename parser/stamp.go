package parser

// StampForm is the way a line's time was printed.
type StampForm uint8

const (
	// StampNone: the line carries no time.
	StampNone StampForm = iota
	// StampNCCL is NCCL's default `[%F %T] ` (2.26.2+), with or without `.%Nf`:
	// `[2025-06-11 14:03:27]`, `[2025-06-11 14:03:27.512034]`. Local time, no zone.
	StampNCCL
	// StampISO is ISO 8601 with `T` or a space, an optional fraction and an optional `Z` or
	// ±hh:mm (±hhmm) zone: collectors (Kubernetes, Docker `2025-06-11T14:03:27.512034123Z `),
	// and NCCL's custom `%F %T` without brackets.
	StampISO
	// StampSlash is `2025/06/11 14:03:27` (Go's log package), with an optional fraction.
	StampSlash
	// StampBracketed is any other of these forms in brackets: `[2025-06-11T14:03:27Z]`,
	// `[2025/06/11 14:03:27]`, `[2025-06-11 14:03:27,512]`.
	StampBracketed
	// StampSyslog is syslog's and ts's `Jun 11 14:03:27` (no year; ts may add a fraction).
	StampSyslog
	// StampGlog is a glog head's `E1016 03:31:38.928019` (PyTorch's watchdog; no year).
	StampGlog
	// StampPylog is Python logging's `2025-06-11 14:03:27,512`.
	StampPylog
	// StampTrace is an NCCL TRACE line's milliseconds since the process's debug init
	// (`[0] 1843.225104 func:line NCCL TRACE`): not a wall-clock time.
	StampTrace
	// StampTorchrun is torchrun's failure block time `2024-07-10_14:44:36` (its `time :`
	// field). Local time, no zone.
	StampTorchrun
	numStampForms
)

var stampFormNames = [numStampForms]string{
	StampNone: "none", StampNCCL: "nccl", StampISO: "iso", StampSlash: "slash",
	StampBracketed: "bracketed", StampSyslog: "syslog", StampGlog: "glog", StampPylog: "pylog",
	StampTrace: "trace", StampTorchrun: "torchrun",
}

func (f StampForm) String() string {
	if f < numStampForms {
		return stampFormNames[f]
	}
	return "unknown"
}

// MarshalText writes the form's name.
func (f StampForm) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// Stamp is the time a line carries, as printed. Its zero value is an untimed line.
//
// Nanos is the reading in nanoseconds since 1970-01-01 00:00:00, taken as printed: a form
// without a zone is the host's local wall clock read as if it were UTC (nothing says which
// zone it was; lines of hosts in different zones do not compare), and one with a zone
// (Zoned) is normalised to UTC. A form without a year (HasYear false: syslog, glog) is read
// as if in the year 2000, a leap year, so that Feb 29 reads; whoever knows the year puts the
// month, day and time into it. StampTrace holds the milliseconds since init as nanoseconds
// (Nanos 1843225104 for `1843.225104`), which are anchored per process later, where another
// line gives that process's wall time.
//
// Digits is how many fraction digits were printed (0 to 9): the reading's precision.
type Stamp struct {
	Nanos  int64
	Form   StampForm
	Digits uint8
	Zoned  bool
}

// HasYear reports whether the form printed a year (false for syslog, glog and untimed lines;
// a TRACE time has none to print).
func (s Stamp) HasYear() bool {
	switch s.Form {
	case StampNone, StampSyslog, StampGlog, StampTrace:
		return false
	}
	return true
}

// IsZero reports whether the line is untimed.
func (s Stamp) IsZero() bool { return s.Form == StampNone }

// noYear is the year a form without one is read in.
const noYear = 2000
