package diff

import (
	"github.com/nccllog/nccllog/stages/agg"
	"github.com/nccllog/nccllog/stages/diagnose"
	"github.com/nccllog/nccllog/stages/info"
	"github.com/nccllog/nccllog/stages/ranks"
	"github.com/nccllog/nccllog/stages/steps"
)

// Side is one run's Reports.
type Side struct {
	Info     *info.InfoReport
	Stats    agg.StatsReport
	Hist     agg.HistReport
	Groups   agg.Report
	Steps    steps.Report
	Diagnose diagnose.Report
	Ranks    ranks.RanksReport
}

// Difference is one thing that differs: what it is, its value on each side ("absent" where
// a side lacks it) and, for numbers, B/A.
type Difference struct {
	Section Section  `json:"section"`
	What    string   `json:"what"`
	A       string   `json:"a"`
	B       string   `json:"b"`
	Ratio   *float64 `json:"ratio,omitempty"`
}

// Diff is every difference, most consequential first (see the package's doc), and the
// sections where the runs are the same.
type Diff struct {
	Differences []Difference `json:"differences"`
	Same        []Section    `json:"same"`
}

// Absent is the value of a fact on the side that lacks it.
const Absent = "absent"

// Tolerance is how far a measured time may move (as a ratio, either way) and still be the
// same: init timings, step time and TFLOP/s.
const Tolerance = 0.05

// Compare lists what differs between a and b.
func Compare(a, b *Side) Diff {
	d := Diff{Differences: []Difference{}, Same: []Section{}}
	for _, s := range Sections() {
		l := &list{section: s}
		sectionFuncs[s](l, a, b)
		if len(l.out) == 0 {
			d.Same = append(d.Same, s)
		}
		d.Differences = append(d.Differences, l.out...)
	}
	return d
}

// Differ reports whether d holds any difference.
func (d Diff) Differ() bool { return len(d.Differences) > 0 }

var sectionFuncs = [numSections]func(l *list, a, b *Side){
	identity, findings, environment, network, tuning, initTimings, collectives, stepsSection,
}

// list collects one section's differences.
type list struct {
	section Section
	out     []Difference
}

// text adds a difference between two values, if they differ.
func (l *list) text(what, a, b string) {
	if a != b {
		l.out = append(l.out, Difference{Section: l.section, What: what, A: a, B: b})
	}
}

// count adds a difference between two exact numbers, with their ratio.
func (l *list) count(what string, a, b int64) {
	if a != b {
		l.out = append(l.out, Difference{Section: l.section, What: what, A: formatInt(a), B: formatInt(b), Ratio: ratio(float64(a), float64(b))})
	}
}

// measure adds a difference between two measured values when they move by more than
// Tolerance; unit is appended to both.
func (l *list) measure(what string, a, b float64, unit string) {
	r := ratio(a, b)
	if a == b || (r != nil && *r >= 1-Tolerance && *r <= 1+Tolerance) {
		return
	}
	l.out = append(l.out, Difference{Section: l.section, What: what, A: formatFloat(a) + unit, B: formatFloat(b) + unit, Ratio: r})
}

func ratio(a, b float64) *float64 {
	if a == 0 {
		return nil
	}
	r := b / a
	return &r
}
