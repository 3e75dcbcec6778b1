package parser

// Kind is the class every input line falls into. Each line has exactly one.
type Kind uint8

const (
	// KindOther is a line that is not NCCL output and not a progress line.
	KindOther Kind = iota
	// KindBlank is an empty line (or one holding only white space and launcher prefixes).
	KindBlank
	// KindCollective is a collective or point-to-point enqueue line (`AllReduce: opCount ...`).
	KindCollective
	// KindComm is a communicator lifecycle line: Init START/COMPLETE, the node layout line,
	// Destroy/Abort/Revoke.
	KindComm
	// KindProgress is a training progress line (NeMo, Megatron-LM, torchtitan).
	KindProgress
	// KindVersion is the bare `NCCL version X+cudaY` line (or RCCL's version block head).
	KindVersion
	// KindInfo is any other NCCL INFO line (also ABORT-level lines, which act like INFO).
	KindInfo
	// KindWarn is an NCCL WARN line.
	KindWarn
	// KindTrace is an NCCL TRACE or CALL line.
	KindTrace
	// KindMalformed looks like NCCL output but cannot be read; Line.Reason says why.
	KindMalformed
	// KindWatchdog is a line of PyTorch's ProcessGroupNCCL watchdog or flight recorder
	// (timeouts, where each rank's work queue stood, dump signals); Line.Watchdog holds it.
	KindWatchdog
	// KindFailure is a line of a job's failure evidence that is not NCCL's: a launcher's word
	// on a process that ended, a Python exception, a C++ terminate, a signal, an NCCL RAS
	// report line; Line.Fail holds it.
	KindFailure
	numKinds
)

// NumKinds is the number of line classes, for tables indexed by Kind.
const NumKinds = int(numKinds)

var kindNames = [numKinds]string{
	KindOther: "other", KindBlank: "blank", KindCollective: "collective", KindComm: "comm",
	KindProgress: "progress", KindVersion: "version", KindInfo: "info", KindWarn: "warn",
	KindTrace: "trace", KindMalformed: "malformed", KindWatchdog: "watchdog", KindFailure: "failure",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Level is the NCCL debug level printed in the envelope.
type Level uint8

const (
	LevelNone Level = iota
	LevelInfo
	LevelWarn
	LevelTrace
	LevelAbort
	LevelCall
)

var levelNames = [...]string{"", "INFO", "WARN", "TRACE", "ABORT", "CALL"}

func (l Level) String() string { return levelNames[l] }

func levelFromWord(w string) Level {
	for i, n := range levelNames {
		if i > 0 && n == w {
			return Level(i)
		}
	}
	return LevelNone
}

// Envelope is the `host:pid:tid [dev] NCCL LEVEL` head of an NCCL line.
type Envelope struct {
	Host string
	// Pid and Tid are -1 where the envelope names the host and device but no pid:tid
	// (`host [dev] NCCL INFO`): the host's process, its pid unknown.
	Pid   int64
	Tid   int64
	Dev   int64 // the CUDA device of the logging thread, not the rank; -1 when absent (CALL)
	Level Level
}

// Line is one parsed input line. Only the part that matches Kind is filled in.
type Line struct {
	Kind Kind
	// Rank is the launcher's rank label (srun -l `3: `, mpirun `[1,3]<stdout>:`, torchrun
	// `[rank3]:`), or -1 when the line carries none.
	Rank int64
	Env  Envelope
	Coll Collective
	Comm CommEvent
	Prog Progress
	// Watchdog is what a KindWatchdog line says; nil for every other line. (A pointer: the
	// scanner clears a Line for every line it reads, and most lines are no watchdog line.)
	Watchdog *Watchdog
	// Fail is what a KindFailure line says; nil for every other line.
	Fail *Failure
	// Spliced is set when the line holds the cut-off start of another process's output
	// before the record that was read (unflushed stdout of several processes in one pipe).
	Spliced bool
	// Reason says why a KindMalformed line could not be read.
	Reason string
	// Time is the time the line carries (the one nearest its envelope); zero where it has
	// none. Nothing is interpolated: an untimed line stays untimed.
	Time Stamp
	// UnknownKey is the first `key value` field of a collective line that nccllog does not
	// know (RCCL 2.27's `acc`), read past so that the call is kept; "" when there is none.
	UnknownKey string
}

// Collective is one collective or point-to-point call as NCCL logs it when it is enqueued.
type Collective struct {
	Op       Op
	OpCount  uint64 // hexadecimal in the log
	SendBuff uint64 // 0 for (nil)
	RecvBuff uint64
	Count    int64
	Datatype Datatype
	RedOp    RedOp
	Root     int64 // the peer for Send/Recv
	Comm     uint64
	NRanks   int64
	Stream   uint64
	// Task and GlobalRank are RCCL's suffix; -1 when absent.
	Task       int64
	GlobalRank int64
	// Unread names the pointer fields that hold no pointer: redacted by whoever pasted the log
	// (`<PTR>`, `0x...`, `XXX`), or, for the stream, not printed (test harnesses). Their value
	// is 0, which does not mean (nil).
	Unread PtrFields
}

// PtrFields is a set of a collective line's pointer fields.
type PtrFields uint8

const (
	PtrSend PtrFields = 1 << iota
	PtrRecv
	PtrComm
	PtrStream
)

// HasEnvelope reports whether the line was printed with its `host:pid:tid [dev] NCCL LEVEL`
// head. A collective record pasted without it (or run on from other text without one of its
// own) is read with Level LevelNone and no host or pid: it belongs to no known process.
func (e *Envelope) HasEnvelope() bool { return e.Level != LevelNone }

// CommEvent is a communicator lifecycle line.
type CommEvent struct {
	Event    string // "Init START", "Init COMPLETE", "Destroy COMPLETE", "Abort COMPLETE", "Layout", ...
	API      string // ncclCommInitRank, ncclCommSplit, ... when printed
	Comm     uint64
	Rank     int64
	NRanks   int64
	CudaDev  int64  // -1 when absent
	NvmlDev  int64  // -1 when absent
	BusID    uint64 // hexadecimal in the log
	CommID   uint64 // 0 when absent
	Parent   uint64 // split parent comm pointer, 0 when absent
	Color    int64
	Key      int64
	Split    int64 // splitCount / childCount, -1 when absent
	NNodes   int64 // layout line only, else -1
	LocalRks int64 // layout line only, else -1
	LocalRk  int64 // layout line only, else -1
}

// Progress is a training framework's end-of-step line.
type Progress struct {
	Framework string // "nemo", "megatron", "torchtitan"
	Step      int64
	// TimeS is the step time in seconds and TFLOPs the TFLOP/s per GPU; HasTime/HasTFLOPs say
	// whether the line printed them. Where it printed inf, -inf or nan, TimeNF/TFLOPsNF say
	// which and the float is 0 (NaN would make Lines unequal to themselves).
	TimeS     float64
	TFLOPs    float64
	HasTime   bool
	HasTFLOPs bool
	TimeNF    NonFinite
	TFLOPsNF  NonFinite
}
