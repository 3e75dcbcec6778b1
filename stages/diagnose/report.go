package diagnose

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/nccllog/nccllog/parser"
)

// Status is diagnose's verdict on a job.
type Status uint8

const (
	// StatusHealthy: nothing wrong was seen.
	StatusHealthy Status = iota
	// StatusFault: the evidence proves a fault; Findings[0] is the first.
	StatusFault
	// StatusUnknown: the log is too thin to tell (Reason says why).
	StatusUnknown
)

var statusNames = [...]string{"healthy", "fault", "unknown"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "unknown"
}

// MarshalText writes the status's name.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Kind is what a finding is.
type Kind uint8

const (
	KindProcessExit      Kind = iota // a process exited (the launcher names it)
	KindOOM                          // a process ran out of GPU memory
	KindCudaError                    // a CUDA error
	KindCrash                        // a process's own exception, terminate or signal
	KindInitFailure                  // a communicator's init never completed, with an error
	KindNetworkError                 // a NIC, link, socket or bootstrap failure
	KindInvalidUsage                 // NCCL refused a call (invalid root, type, ...)
	KindAbort                        // a process aborted its communicators alone
	KindBehind                       // a rank issued fewer calls than the others, which waited
	KindMismatch                     // ranks issued different calls at one position
	KindWatchdogTimeout              // PyTorch's watchdog timed out a collective
	KindRASReport                    // an NCCL RAS report names outlier ranks
	KindConnectionClosed             // peers logged that a host's process closed its connections
	KindRemoteError                  // a process failed because another did (ncclRemoteError, ...)
	KindSystemError                  // a system call or resource failed (ncclSystemError)
	KindInternalError                // a check inside NCCL failed (ncclInternalError)
	KindShm                          // a shared memory segment (/dev/shm) could not be made or attached
	KindTopology                     // NCCL could not read the machine's topology (sysfs, NVML, a topology or graph file)
	numKinds
)

var kindNames = [numKinds]string{"process-exit", "oom", "cuda-error", "crash", "init-failure",
	"network-error", "invalid-usage", "abort", "behind", "mismatch", "watchdog-timeout", "ras-report",
	"connection-closed", "remote-error", "system-error", "internal-error", "shm-error", "topology-error"}

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "unknown"
}

// MarshalText writes the kind's name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Ref is one line of evidence.
type Ref struct {
	File string `json:"file"`
	Line int64  `json:"line"`
	Text string `json:"text"`
}

func (r Ref) String() string { return fmt.Sprintf("%s:%d", r.File, r.Line) }

// Finding is one fault, or one consequence of a fault.
type Finding struct {
	Kind      Kind     `json:"kind"`
	Ranks     []int64  `json:"ranks"`
	Hosts     []string `json:"hosts"`
	Processes []string `json:"processes"`
	// GPUs are the devices (CUDA device indexes) its evidence lines name, where they name one
	// (the `[3]` of an NCCL line's envelope).
	GPUs []int64 `json:"gpus,omitempty"`
	Comm string  `json:"comm,omitempty"`
	// Peer is the other end the finding's lines name (`Got completion from peer X`), where the
	// log does not say whose it is; a connection-closed finding's peer is its subject, in Hosts.
	Peer string `json:"peer,omitempty"`
	// Time is the earliest time of the finding's evidence as printed (RFC 3339 to the digits
	// printed); TimeNote says what the log's time leaves open ("local": no zone; "no year").
	Time     NullText `json:"time"`
	TimeNote string   `json:"time_note,omitempty"`
	// Follows is the index of the finding this one is a consequence of.
	Follows  *int   `json:"follows,omitempty"`
	Shared   bool   `json:"shared"`
	Summary  string `json:"summary"`
	Evidence []Ref  `json:"evidence"`
}

// NullText is a text JSON writes as null where it is empty: a key every finding has (as
// `calls` has `time`), whose absence would read as a schema change.
type NullText string

// MarshalJSON writes t, or null where it is empty.
func (t NullText) MarshalJSON() ([]byte, error) {
	if t == "" {
		return []byte("null"), nil
	}
	return json.Marshal(string(t))
}

// Report is diagnose's answer: the status, why, and the findings, the first fault first.
type Report struct {
	Status   Status    `json:"status"`
	Reason   string    `json:"reason"`
	Findings []Finding `json:"findings"`
	// Left is how many evidence lines were not kept (beyond the caps); More how many
	// findings were not listed (past 256).
	Left int64 `json:"left,omitempty"`
	More int   `json:"more,omitempty"`
}

// FormatTime writes a line's time as printed: RFC 3339 to the digits printed, with a note
// where the log leaves the zone or the year open. Zero and TRACE times give "".
func FormatTime(s parser.Stamp) (string, string) {
	if s.IsZero() || s.Form == parser.StampTrace {
		return "", ""
	}
	t := time.Unix(0, s.Nanos).UTC()
	frac := ""
	if s.Digits > 0 {
		frac = "." + strings.Repeat("0", int(s.Digits))
	}
	switch {
	case !s.HasYear():
		return t.Format("Jan _2 15:04:05" + frac), "no year"
	case s.Zoned:
		return t.Format("2006-01-02T15:04:05" + frac + "Z07:00"), ""
	}
	return t.Format("2006-01-02T15:04:05" + frac), "local"
}

// comparable reports whether a and b can be ordered: both timed by a wall clock, with the
// same zone and year knowledge (parser/doc.go).
func comparable(a, b parser.Stamp) bool {
	return !a.IsZero() && !b.IsZero() && a.Form != parser.StampTrace && b.Form != parser.StampTrace &&
		a.Zoned == b.Zoned && a.HasYear() == b.HasYear()
}

// Facts is a finding's kind and what its evidence gives, as diagnose prints them in brackets
// ("shared": one cause every process that shows evidence met, which on an excerpt need not
// be every rank of the job):
// "oom, shared, at 2026-03-01T12:00:07Z, comm 0x1f".
func (f *Finding) Facts() string {
	facts := []string{f.Kind.String()}
	if f.Shared {
		facts = append(facts, "shared")
	}
	if f.Time != "" {
		t := "at " + string(f.Time)
		if f.TimeNote != "" {
			t += " (" + f.TimeNote + ")"
		}
		facts = append(facts, t)
	}
	switch len(f.GPUs) {
	case 0:
	case 1:
		facts = append(facts, "GPU "+rankList(f.GPUs))
	default:
		facts = append(facts, "GPUs "+rankList(f.GPUs))
	}
	if f.Comm != "" {
		facts = append(facts, "comm "+f.Comm)
	}
	return strings.Join(facts, ", ")
}

// Chain splits a fault's findings as diagnose prints them: the first fault, the findings that
// follow from it, and the others; all nil unless the status is fault.
func (r *Report) Chain() (first *Finding, then, others []*Finding) {
	if r.Status != StatusFault || len(r.Findings) == 0 {
		return nil, nil, nil
	}
	for i := 1; i < len(r.Findings); i++ {
		if f := &r.Findings[i]; f.Follows != nil {
			then = append(then, f)
		} else {
			others = append(others, f)
		}
	}
	return &r.Findings[0], then, others
}
