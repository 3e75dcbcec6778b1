package parser

import "strings"

// NCCLResult is an ncclResult_t an NCCL exception names; its value is NCCL's code.
type NCCLResult uint8

const (
	// ResultNone: the line names no error result.
	ResultNone NCCLResult = iota
	ResultUnhandledCuda
	ResultSystem
	ResultInternal
	ResultInvalidArgument
	ResultInvalidUsage
	ResultRemote
	numResults
)

// resultNames are NCCL's names of its results (nccl.h).
var resultNames = [numResults]string{
	ResultNone: "", ResultUnhandledCuda: "ncclUnhandledCudaError", ResultSystem: "ncclSystemError",
	ResultInternal: "ncclInternalError", ResultInvalidArgument: "ncclInvalidArgument",
	ResultInvalidUsage: "ncclInvalidUsage", ResultRemote: "ncclRemoteError",
}

// resultWords are ncclGetErrorString's words for each result, which PyTorch's exceptions
// print after `NCCL error` (`..., unhandled system error, NCCL version 2.19.3`).
var resultWords = [numResults]string{
	ResultUnhandledCuda: "unhandled cuda error", ResultSystem: "unhandled system error",
	ResultInternal: "internal error", ResultInvalidArgument: "invalid argument",
	ResultInvalidUsage: "invalid usage", ResultRemote: "remote process exited or there was a network error",
}

func (r NCCLResult) String() string {
	if r < numResults {
		return resultNames[r]
	}
	return "unknown"
}

// MarshalText writes the result's name.
func (r NCCLResult) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// resultNamed is the result whose name s is, or ResultNone.
func resultNamed(s string) NCCLResult {
	if !strings.HasPrefix(s, "nccl") {
		return ResultNone
	}
	for r := ResultUnhandledCuda; r < numResults; r++ {
		if s == resultNames[r] {
			return r
		}
	}
	return ResultNone
}

// ResultIn is the result an error message names (resultIn): nccl-tests' `Test NCCL failure
// common.cu:961 'unhandled system error ...'` is read by diagnose, not the parser.
func ResultIn(msg string) NCCLResult { return resultIn(msg) }

// resultIn is the first result msg names by its name, else by NCCL's words after `NCCL
// error`; ResultNone where it names none.
func resultIn(msg string) NCCLResult {
	best, at := ResultNone, len(msg)
	for r := ResultUnhandledCuda; r < numResults; r++ {
		if i := strings.Index(msg, resultNames[r]); i >= 0 && i < at {
			best, at = r, i
		}
	}
	if best != ResultNone {
		return best
	}
	i := strings.Index(msg, "NCCL error")
	if i < 0 {
		// An NCCLCHECK that throws: `NCCL failure: unhandled cuda error in <file> at line: N
		// rank: R` (MPI examples, benchmarks).
		if i = strings.Index(msg, "NCCL failure"); i < 0 {
			return ResultNone
		}
	}
	for r := ResultUnhandledCuda; r < numResults; r++ {
		if j := strings.Index(msg[i:], resultWords[r]); j >= 0 && j < at {
			best, at = r, j
		}
	}
	return best
}

// lastErrorHead opens NCCL's last WARN in a PyTorch exception's text.
const lastErrorHead = "Last error:"

// ncclDetail fills what an exception's (or terminate's, or ncclResult line's) message msg
// says of NCCL: its result, its `Last error:` text, and the rank its `[PG n Rank r]` (or
// `[Rank r]`) head names where the line names no task. The scanner and the grammar both read
// a message through it.
func ncclDetail(f *Failure, msg string) {
	msg = trimLexSp(msg)
	if f.Result == ResultNone {
		f.Result = resultIn(msg)
	}
	if i := strings.LastIndex(msg, lastErrorHead); i >= 0 {
		f.LastError = failureText(msg[i+len(lastErrorHead):])
	}
	if r := headRank(msg); r >= 0 && f.Task < 0 {
		f.Task, f.TaskLast = r, r
	}
	if r := failureRank(msg); r >= 0 && f.Task < 0 {
		f.Task, f.TaskLast = r, r
	}
}

// maxRankHead bounds the bracketed head headRank reads: PyTorch's longest,
// `[PG ID 0 PG GUID 0(default_pg) Rank 3]`, is 39 bytes.
const maxRankHead = 128

// headRank is the rank of a message's bracketed head `[PG 0 Rank 3]` or `[Rank 3]`, or -1.
func headRank(msg string) int64 {
	if !strings.HasPrefix(msg, "[") {
		return -1
	}
	end := strings.IndexByte(msg[:min(len(msg), maxRankHead)], ']')
	if end < 0 {
		return -1
	}
	head := msg[1:end]
	i := strings.LastIndex(head, "Rank ")
	if i < 0 || (i > 0 && head[i-1] != ' ') {
		return -1
	}
	v, err := parseDec(head[i+len("Rank "):])
	if err != nil || v < 0 {
		return -1
	}
	return v
}

// Unprefixed is line's text after its launcher prefixes (`[rank3]: `, `3: `, ...) and a time
// before it: what diagnose reads of the line that follows `Last error:`, NCCL's last WARN
// message as PyTorch repeats it.
func Unprefixed(line []byte) []byte {
	start, _ := scanPrefixes(line)
	return line[stampedStart(line, start):]
}

// failureRank is the rank that ends an NCCLCHECK's `NCCL failure: ... at line: N rank: R`,
// or -1.
func failureRank(msg string) int64 {
	i := strings.LastIndex(msg, " rank: ")
	if i < 0 || !strings.HasPrefix(msg, "NCCL failure") {
		return -1
	}
	v, err := parseDec(msg[i+len(" rank: "):])
	if err != nil || v < 0 {
		return -1
	}
	return v
}
