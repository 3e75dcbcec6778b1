package diff

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

func formatInt(n int64) string { return strconv.FormatInt(n, 10) }

// formatFloat writes a measured value with 4 significant digits.
func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', 4, 64) }

// maxListed is how many names a set's difference lists before "and N more".
const maxListed = 6

// joinSet writes a set's members sorted, joined by ", "; Absent where it is empty.
func joinSet(s map[string]struct{}) string {
	if len(s) == 0 {
		return Absent
	}
	return strings.Join(slices.Sorted(maps.Keys(s)), ", ")
}

// shortList writes names, at most maxListed of them, then how many more.
func shortList(names []string) string {
	if len(names) <= maxListed {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:maxListed], ", ") + ", and " + strconv.Itoa(len(names)-maxListed) + " more"
}

// onlyIn is the sorted members of a not in b.
func onlyIn(a, b map[string]struct{}) []string {
	var out []string
	for k := range a {
		if _, ok := b[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// setDiff adds what's added and removed between two sets of names, as lists.
func (l *list) setDiff(what string, a, b map[string]struct{}) {
	if gone := onlyIn(a, b); len(gone) > 0 {
		l.text(what+" removed", shortList(gone), Absent)
	}
	if added := onlyIn(b, a); len(added) > 0 {
		l.text(what+" added", Absent, shortList(added))
	}
}

// keyedDiff compares two maps of name to value: each name whose value differs, in name
// order, with Absent for a side without it.
func (l *list) keyedDiff(prefix string, a, b map[string]string) {
	keys := map[string]struct{}{}
	for k := range a {
		keys[k] = struct{}{}
	}
	for k := range b {
		keys[k] = struct{}{}
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		va, oka := a[k]
		vb, okb := b[k]
		if !oka {
			va = Absent
		}
		if !okb {
			vb = Absent
		}
		l.text(prefix+k, va, vb)
	}
}

// RatioText is B/A as a difference shows it, "×1.25", or "" where there is none.
func (d Difference) RatioText() string {
	if d.Ratio == nil {
		return ""
	}
	return "×" + strconv.FormatFloat(*d.Ratio, 'g', 3, 64)
}
