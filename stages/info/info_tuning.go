package info

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/nccllog/nccllog/parser"
)

// tuneKey is one TUNING decision: an op of a size went to an algorithm and protocol.
type tuneKey struct {
	Op          string
	Bytes       int64
	Algo, Proto string
}

// maxTuneKeys bounds the distinct decisions kept; TUNING prints one line per op, and a job's
// sizes are few, but a hostile log must not grow the map without end.
const maxTuneKeys = 1 << 14

func (in *Info) addTuning(t *parser.Tuning) {
	in.addTuneKey(tuneKey{t.Op, t.Bytes, t.Algo, t.Proto}, 1)
}

func (in *Info) addTuneKey(k tuneKey, n int64) {
	if _, ok := in.tuning[k]; !ok && len(in.tuning) >= maxTuneKeys {
		k = tuneKey{Op: k.Op, Bytes: -1, Algo: "(more sizes)", Proto: ""}
	}
	in.tuning[k] += n
}

// TuneRow is a range of sizes of one op that NCCL ran with one algorithm and protocol.
type TuneRow struct {
	Op      string `json:"op"` // "" before 2.23, whose lines do not name the op (see OpLabel)
	LoBytes int64  `json:"lo_bytes"`
	HiBytes int64  `json:"hi_bytes"`
	Algo    string `json:"algo"`
	Proto   string `json:"proto"`
	Sizes   int    `json:"sizes"` // distinct sizes in the range
	Lines   int64  `json:"lines"`
}

// tuneRows folds the decisions into ranges: per op, by size, neighbouring sizes with the same
// algorithm and protocol make one range.
func (in *Info) tuneRows() []TuneRow {
	keys := make([]tuneKey, 0, len(in.tuning))
	for k := range in.tuning {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b tuneKey) int {
		return cmp.Or(cmp.Compare(a.Op, b.Op), cmp.Compare(a.Bytes, b.Bytes), cmp.Compare(a.Algo, b.Algo), cmp.Compare(a.Proto, b.Proto))
	})
	var rows []TuneRow
	for _, k := range keys {
		n := in.tuning[k]
		if last := len(rows) - 1; last >= 0 && rows[last].Op == k.Op && rows[last].Algo == k.Algo && rows[last].Proto == k.Proto {
			r := &rows[last]
			if r.HiBytes != k.Bytes {
				r.Sizes++
			}
			r.HiBytes, r.Lines = k.Bytes, r.Lines+n
			continue
		}
		rows = append(rows, TuneRow{Op: k.Op, LoBytes: k.Bytes, HiBytes: k.Bytes, Algo: k.Algo, Proto: k.Proto, Sizes: 1, Lines: n})
	}
	return rows
}

// TimingKind says which timings line a TimingRow is; JSON spells it init or bootstrap.
type TimingKind uint8

const (
	TimingInit      TimingKind = iota // an Init timings line
	TimingBootstrap                   // a Bootstrap timings line
)

func (k TimingKind) String() string { return [...]string{"init", "bootstrap"}[k] }

// MarshalText spells k as String does.
func (k TimingKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads the words MarshalText writes.
func (k *TimingKind) UnmarshalText(b []byte) error {
	switch string(b) {
	case "init":
		*k = TimingInit
	case "bootstrap":
		*k = TimingBootstrap
	default:
		return fmt.Errorf("a timings line is init or bootstrap, not %q", b)
	}
	return nil
}

// TimingRow is one Init timings or Bootstrap timings line (seconds).
type TimingRow struct {
	What     TimingKind `json:"what"`
	API      string     `json:"api,omitempty"`
	Host     string     `json:"host"`
	Pid      int64      `json:"pid"`
	Rank     int64      `json:"rank"`
	NRanks   int64      `json:"nranks"`
	TotalS   float64    `json:"total_s"`
	Parts    string     `json:"parts"`
	Evidence Evidence   `json:"evidence"`
}

// maxTimings bounds the timing lines kept: a few per communicator per rank.
const maxTimings = 1 << 16

func (in *Info) addTiming(p *procInfo, s *parser.Setup, ev Evidence) {
	if s.Kind == parser.SetupTimings {
		// The Init line may be missing (another subsystem mask, a cut log); the timing line
		// names the rank too.
		p.addRank(s.Timing.Rank, s.Timing.NRanks)
	}
	if len(in.timings) >= maxTimings {
		return
	}
	r := TimingRow{What: TimingInit, API: s.Timing.API, Host: p.key.Host, Pid: p.key.Pid, Rank: s.Timing.Rank,
		NRanks: s.Timing.NRanks, TotalS: s.Timing.Total, Parts: s.Timing.Parts, Evidence: ev}
	if s.Kind == parser.SetupBootTimings {
		r.What = TimingBootstrap
	}
	in.timings = append(in.timings, r)
}

// slowest returns the timing rows, slowest first; ties by where they were logged, so that
// the order does not depend on the order the inputs were named in.
func (in *Info) slowest() []TimingRow {
	rows := slices.Clone(in.timings)
	slices.SortFunc(rows, func(a, b TimingRow) int {
		return cmp.Or(cmp.Compare(b.TotalS, a.TotalS), cmp.Compare(a.Evidence.File, b.Evidence.File),
			cmp.Compare(a.Evidence.Line, b.Evidence.Line))
	})
	return rows
}

// Label is what the timing line was of: its kind, and the API that ran the init where the
// line names it.
func (r TimingRow) Label() string {
	if r.API == "" {
		return r.What.String()
	}
	return r.What.String() + " " + r.API
}

// OpLabel is the row's op, or (any) where the line does not name it (before 2.23).
func (r TuneRow) OpLabel() string {
	if r.Op == "" {
		return "(any)"
	}
	return r.Op
}
