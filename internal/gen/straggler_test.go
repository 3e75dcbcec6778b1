package gen

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

func stragglerJob(kind string, lag time.Duration) Config {
	return Config{Seed: 5, Ranks: 16, Steps: 20, Timestamps: "iso", Stragglers: []Straggler{{Rank: 9, Kind: kind, Lag: lag}}}
}

// TestStragglerTruth: Truth names the straggler, its process, its lag and its late steps.
func TestStragglerTruth(t *testing.T) {
	for _, c := range []struct {
		kind  string
		lag   time.Duration
		steps []int
	}{{StragglerChronic, 0, nil}, {StragglerOneOff, 300 * time.Millisecond, []int{10, 11}}} {
		s, err := Write(&bytes.Buffer{}, stragglerJob(c.kind, c.lag))
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Truth.Stragglers) != 1 {
			t.Fatalf("%s: truth %+v", c.kind, s.Truth.Stragglers)
		}
		st := &s.Truth.Stragglers[0]
		wantSteps, wantLag := c.steps, c.lag
		if c.kind == StragglerChronic {
			wantSteps, wantLag = make([]int, 20), DefaultStragglerLag
			for i := range wantSteps {
				wantSteps[i] = i
			}
		}
		if st.Rank != 9 || st.Host != "gpu-node-01" || st.Kind != c.kind || st.Lag != wantLag || !slices.Equal(st.Steps, wantSteps) {
			t.Fatalf("%s: truth %+v", c.kind, st)
		}
		if s.Truth.Scenario != "" || s.Truth.Rank != -1 {
			t.Fatalf("%s: a straggler alone is no failure: %+v", c.kind, s.Truth)
		}
	}
}

var isoHead = regexp.MustCompile(`^(\S+)Z (\S+?):(\d+):`)

// TestArrivalKeepsLinesAndOrder: the arrival model and a straggler change the lines' times
// only, and every process's times keep increasing (a one-off's late step is caught up).
func TestArrivalKeepsLinesAndOrder(t *testing.T) {
	var plain, late bytes.Buffer
	base := stragglerJob(StragglerOneOff, 500*time.Millisecond)
	base.Stragglers = nil
	if _, err := Write(&plain, base); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(&late, stragglerJob(StragglerOneOff, 500*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	pl, ll := strings.Split(plain.String(), "\n"), strings.Split(late.String(), "\n")
	if len(pl) != len(ll) {
		t.Fatalf("%d lines, want %d", len(ll), len(pl))
	}
	last := map[string]string{}
	for i, l := range ll {
		if l == "" {
			continue
		}
		if pl[i][strings.IndexByte(pl[i], ' '):] != l[strings.IndexByte(l, ' '):] {
			t.Fatalf("line %d: %q, want %q after the time", i+1, l, pl[i])
		}
		m := isoHead.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		proc := m[2] + ":" + m[3]
		if m[1] <= last[proc] {
			t.Fatalf("line %d: %s's time %s is not after its last, %s", i+1, proc, m[1], last[proc])
		}
		last[proc] = m[1]
	}
}

func TestStragglerRefused(t *testing.T) {
	for name, c := range map[string]Config{
		"untimed": {Ranks: 16, Steps: 2, Stragglers: []Straggler{{Rank: 1, Kind: StragglerChronic}}},
		"kind":    {Ranks: 16, Steps: 2, Timestamps: "iso", Stragglers: []Straggler{{Rank: 1, Kind: "sometimes"}}},
		"rank":    {Ranks: 16, Steps: 2, Timestamps: "iso", Stragglers: []Straggler{{Rank: 16, Kind: StragglerChronic}}},
		"twice":   {Ranks: 16, Steps: 2, Timestamps: "iso", Stragglers: []Straggler{{Rank: 1, Kind: StragglerChronic}, {Rank: 1, Kind: StragglerOneOff}}},
		"lag":     {Ranks: 16, Steps: 2, Timestamps: "iso", Stragglers: []Straggler{{Rank: 1, Kind: StragglerChronic, Lag: -time.Second}}},
		"gpus":    {Ranks: 16, Steps: 2, Timestamps: "iso", GPUsPerProcess: 2, Stragglers: []Straggler{{Rank: 1, Kind: StragglerChronic}}},
		"jitter":  {Ranks: 16, Steps: 2, ArrivalJitter: time.Millisecond},
	} {
		if _, err := Write(&bytes.Buffer{}, c); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
