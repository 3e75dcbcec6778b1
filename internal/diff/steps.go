package diff

import (
	"maps"
	"slices"

	"github.com/nccllog/nccllog/stages/steps"
)

// stepsSection compares the number of steps, then step time and TFLOP/s per GPU, median
// and p95 over the steps: per step, so that a longer run is not slower by its length.
func stepsSection(l *list, a, b *Side) {
	l.count("steps", int64(a.Steps.N), int64(b.Steps.N))
	for _, m := range []struct {
		name, unit string
		get        func(steps.StepRow) *float64
	}{
		{"step time", " s", func(r steps.StepRow) *float64 { return r.TimeS }},
		{"TFLOP/s per GPU", "", func(r steps.StepRow) *float64 { return r.TFLOPs }},
	} {
		va, vb := values(a.Steps, m.get), values(b.Steps, m.get)
		if len(va) == 0 || len(vb) == 0 {
			continue
		}
		l.measure(m.name+" median", quantile(va, 0.5), quantile(vb, 0.5), m.unit)
		l.measure(m.name+" p95", quantile(va, 0.95), quantile(vb, 0.95), m.unit)
	}
}

func values(r steps.Report, get func(steps.StepRow) *float64) []float64 {
	var out []float64
	for _, s := range r.Steps {
		if v := get(s); v != nil {
			out = append(out, *v)
		}
	}
	slices.Sort(out)
	return out
}

// quantile is the nearest-rank q-quantile of sorted v.
func quantile(v []float64, q float64) float64 {
	i := int(q*float64(len(v))+0.999999) - 1
	return v[min(max(i, 0), len(v)-1)]
}

// unionKeys is the keys of a and b, sorted.
func unionKeys[V any](a, b map[string]V) []string {
	ks := map[string]struct{}{}
	for k := range a {
		ks[k] = struct{}{}
	}
	for k := range b {
		ks[k] = struct{}{}
	}
	return slices.Sorted(maps.Keys(ks))
}
