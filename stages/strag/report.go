package strag

import (
	"errors"
	"fmt"
)

// Kind is how a straggler is late: on most steps, or on a few.
type Kind uint8

const (
	Chronic Kind = iota // late on half of its steps or more
	OneOff              // late on a few steps only
)

var kindNames = [...]string{Chronic: "chronic", OneOff: "one-off"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

func (k Kind) MarshalText() ([]byte, error) {
	if int(k) >= len(kindNames) {
		return nil, fmt.Errorf("no straggler kind %d", int(k))
	}
	return []byte(k.String()), nil
}

func (k *Kind) UnmarshalText(b []byte) error {
	for i, n := range kindNames {
		if n == string(b) {
			*k = Kind(i)
			return nil
		}
	}
	return errors.New("unknown straggler kind " + string(b))
}

// StepLag is a straggler's lag on one of its late steps: the median over the step's calls.
type StepLag struct {
	Step  int64   `json:"step"`
	LagMs float64 `json:"lag_ms"`
}

// Straggler is one rank whose calls arrive late against the ranks of its host.
type Straggler struct {
	Rank        int64     `json:"rank"` // its rank in the largest communicator compared
	Host        string    `json:"host"`
	Pid         int64     `json:"pid"`
	Dev         int64     `json:"cuda_dev"` // its CUDA device (-1 where no init line printed one)
	Comm        string    `json:"comm"`     // that communicator's commId
	Kind        Kind      `json:"kind"`
	LastShare   float64   `json:"last_share"` // share of its compared calls where it came last on its host
	MedianLagMs float64   `json:"median_lag_ms"`
	P95LagMs    float64   `json:"p95_lag_ms"`
	LateSteps   int       `json:"late_steps"`
	TimedSteps  int       `json:"timed_steps"`
	Steps       []StepLag `json:"steps"` // its late steps, in step order (at most MaxSteps)
}

// MaxSteps is how many late steps a straggler lists.
const MaxSteps = 20

// StragglersReport is what the stragglers command prints.
type StragglersReport struct {
	Stragglers []Straggler `json:"stragglers"`
	// ThresholdMs is the lag a step's median must pass to count as late.
	ThresholdMs float64 `json:"threshold_ms"`
	// Compared is how many call positions were compared; TimedCalls and UntimedCalls how
	// many calls carried a usable time and how many did not.
	Compared     int    `json:"compared"`
	TimedCalls   int64  `json:"timed_calls"`
	UntimedCalls int64  `json:"untimed_calls"`
	Note         string `json:"note,omitempty"`
}
