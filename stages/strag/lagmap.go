package strag

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/nccllog/nccllog/stages"
)

// MaxMapRows is how many ranks the lag map shows at most: the stragglers first, then the
// ranks of largest median lag.
const MaxMapRows = 64

// MaxMapColumns is how many columns the lag map has at most: past it, neighbouring steps (or
// call positions) share a column.
const MaxMapColumns = 200

// Axis is what the lag map's columns are.
type Axis uint8

const (
	AxisSteps     Axis = iota // training steps, from the progress lines
	AxisPositions             // call positions (opCount), where the compared calls have fewer than 2 steps
)

var axisNames = [...]string{AxisSteps: "steps", AxisPositions: "positions"}

func (a Axis) String() string {
	if int(a) < len(axisNames) {
		return axisNames[a]
	}
	return fmt.Sprintf("Axis(%d)", int(a))
}

func (a Axis) MarshalText() ([]byte, error) {
	if int(a) >= len(axisNames) {
		return nil, fmt.Errorf("no lag map axis %d", int(a))
	}
	return []byte(a.String()), nil
}

func (a *Axis) UnmarshalText(b []byte) error {
	for i, n := range axisNames {
		if n == string(b) {
			*a = Axis(i)
			return nil
		}
	}
	return errors.New("unknown lag map axis " + string(b))
}

// LagColumn is one column of the lag map: the steps (or opCounts) From to To, both included.
type LagColumn struct {
	From uint64 `json:"from"`
	To   uint64 `json:"to"`
}

// LagCell is a rank's median lag over its compared calls in one column.
type LagCell struct {
	Col   int     `json:"col"`
	LagMs float64 `json:"lag_ms"`
}

// LagRow is one rank of the lag map: who it is, whether it is a straggler and of which kind,
// its median lag over all its compared calls, and its cells (columns without a compared call
// of it have none).
type LagRow struct {
	Rank        int64     `json:"rank"`
	Host        string    `json:"host"`
	Pid         int64     `json:"pid"`
	Dev         int64     `json:"cuda_dev"`
	Straggler   bool      `json:"straggler"`
	Kind        Kind      `json:"kind"` // meaningful where Straggler is set
	MedianLagMs float64   `json:"median_lag_ms"`
	Cells       []LagCell `json:"cells"`
}

// LagMap is each rank's arrival lag (against the median of its host's ranks) per step, or per
// call position where the compared calls have fewer than two steps: at most MaxMapRows rows
// of at most MaxMapColumns columns. Rows are in rank order.
type LagMap struct {
	Axis    Axis        `json:"axis"`
	Columns []LagColumn `json:"columns"`
	Rows    []LagRow    `json:"rows"`
	// Ranks is how many ranks were compared; Rows shows MaxMapRows of them at most.
	Ranks int `json:"ranks"`
	// Unplaced is how many compared calls have no step where the columns are steps.
	Unplaced int64 `json:"unplaced"`
	// PerColumn is how many steps (or opCounts) share a column: 1 unless there are more than
	// MaxMapColumns.
	PerColumn int `json:"per_column"`
}

// lagMap lays the compared calls of stats out by rank and column; ss are the stragglers.
func lagMap(stats map[procKey]*procStats, ss []Straggler) LagMap {
	m := LagMap{Axis: axisOf(stats), Ranks: len(stats)}
	keys, unplaced := columnKeys(stats, m.Axis)
	m.Unplaced = unplaced
	m.PerColumn = max(1, (len(keys)+MaxMapColumns-1)/MaxMapColumns)
	col := make(map[uint64]int, len(keys))
	for i, k := range keys {
		c := i / m.PerColumn
		if c == len(m.Columns) {
			m.Columns = append(m.Columns, LagColumn{From: k})
		}
		m.Columns[c].To = k
		col[k] = c
	}
	for _, k := range mapRanks(stats, ss) {
		row := lagRow(stats[k], m.Axis, col)
		row.Host, row.Pid, row.Dev = k.Host, k.Pid, k.Dev
		if i := slices.IndexFunc(ss, func(s Straggler) bool { return procKey{s.Host, s.Pid, s.Dev} == k }); i >= 0 {
			row.Straggler, row.Kind = true, ss[i].Kind
		}
		m.Rows = append(m.Rows, row)
	}
	slices.SortFunc(m.Rows, func(a, b LagRow) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), cmp.Compare(a.Host, b.Host), cmp.Compare(a.Pid, b.Pid), cmp.Compare(a.Dev, b.Dev))
	})
	return m
}

// axisOf is AxisSteps where the compared calls have two steps or more.
func axisOf(stats map[procKey]*procStats) Axis {
	first := int64(-1)
	for _, st := range stats {
		for _, s := range st.samples {
			switch {
			case s.step < 0:
			case first < 0:
				first = s.step
			case s.step != first:
				return AxisSteps
			}
		}
	}
	return AxisPositions
}

// key is where a sample goes on axis a, or false (a call with no step on a steps axis).
func key(s sample, a Axis) (uint64, bool) {
	if a == AxisPositions {
		return s.op, true
	}
	return uint64(s.step), s.step >= 0
}

// columnKeys are the distinct steps (or opCounts) of the compared calls, in order, and how
// many calls have none.
func columnKeys(stats map[procKey]*procStats, a Axis) ([]uint64, int64) {
	seen := map[uint64]bool{}
	var unplaced int64
	for _, st := range stats {
		for _, s := range st.samples {
			if k, ok := key(s, a); ok {
				seen[k] = true
			} else {
				unplaced++
			}
		}
	}
	keys := make([]uint64, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys, unplaced
}

// mapRanks are the ranks the map shows: the stragglers in their order, then the others of
// largest median lag, MaxMapRows in all.
func mapRanks(stats map[procKey]*procStats, ss []Straggler) []procKey {
	var out []procKey
	named := map[procKey]bool{}
	for _, s := range ss {
		k := procKey{s.Host, s.Pid, s.Dev}
		out = append(out, k)
		named[k] = true
	}
	med := map[procKey]int64{}
	var rest []procKey
	for k, st := range stats {
		if !named[k] {
			rest = append(rest, k)
			med[k] = medianLag(st.samples)
		}
	}
	slices.SortFunc(rest, func(a, b procKey) int {
		return cmp.Or(-cmp.Compare(med[a], med[b]), cmp.Compare(a.Host, b.Host), cmp.Compare(a.Pid, b.Pid), cmp.Compare(a.Dev, b.Dev))
	})
	out = append(out, rest...)
	return out[:min(len(out), MaxMapRows)]
}

func medianLag(ss []sample) int64 {
	lags := make([]int64, len(ss))
	for i, s := range ss {
		lags[i] = s.lagNs
	}
	return median(lags)
}

// lagRow is a rank's median lag per column (its calls with no column left out).
func lagRow(st *procStats, a Axis, col map[uint64]int) LagRow {
	row := LagRow{Rank: st.rank, MedianLagMs: ms(medianLag(st.samples)), Cells: []LagCell{}}
	by := map[int][]int64{}
	for _, s := range st.samples {
		k, ok := key(s, a)
		if !ok {
			continue
		}
		by[col[k]] = append(by[col[k]], s.lagNs)
	}
	for c, lags := range by {
		row.Cells = append(row.Cells, LagCell{Col: c, LagMs: ms(median(lags))})
	}
	slices.SortFunc(row.Cells, func(a, b LagCell) int { return cmp.Compare(a.Col, b.Col) })
	return row
}

// Lags is the stragglers report of s and its lag map (empty where the run had no stragglers
// stage).
func Lags(s *stages.Set) (StragglersReport, LagMap) {
	if p := StragOf(s); p != nil {
		return p.ReportAndMap()
	}
	return StragglersReport{Stragglers: []Straggler{}}, LagMap{}
}
