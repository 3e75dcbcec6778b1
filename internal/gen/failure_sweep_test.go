package gen

import (
	"bytes"
	"strings"
	"testing"
)

// TestFailureSweep: every scenario on small and odd layouts, versions and
// prefixes ends, names a process that printed lines, and stops every rank.
func TestFailureSweep(t *testing.T) {
	for _, s := range Failures {
		for li, layout := range [][2]int{{2, 2}, {3, 2}, {8, 8}, {24, 8}, {12, 4}} {
			for vi, v := range []string{"2.18.3", "2.24.3", "2.29.7"} {
				for pi, prefix := range []string{"", "srun", "timestamp"} {
					if testing.Short() && (li+vi+pi)%3 != 0 {
						continue // -short: one prefix for each layout and version, in turn (go test ./... writes all three)
					}
					c := Config{Seed: 7, Ranks: layout[0], RanksPerHost: layout[1], Steps: 1, Failure: s, NCCLVersion: v, Prefix: prefix}
					if c.Validate() != nil {
						continue
					}
					var b bytes.Buffer
					sum, err := Write(&b, c)
					if err != nil || sum.Truth == nil {
						t.Fatalf("%+v: %v", c, err)
					}
					tr := *sum.Truth
					if !tr.Shared && (tr.Rank < 0 || !strings.Contains(b.String(), tr.Host+":")) {
						t.Errorf("%+v: truth %+v names no process of the log", c, tr)
					}
					if s != "init-fail" && tr.Seq < 2 {
						t.Errorf("%+v: no stall (seq %d)", c, tr.Seq)
					}
				}
			}
		}
	}
}
