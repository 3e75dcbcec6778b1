package diagnose

import (
	"strings"
	"testing"
)

// TestGlobalLabel: the last `[rankN]:` directly before a bracket, within maxLabelAt bytes.
func TestGlobalLabel(t *testing.T) {
	for _, c := range []struct {
		text string
		want int64
	}{
		{"", -1},
		{"[rank13]:[E218 04:54:22.864467604 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog", 13},
		{" 2025-02-18 12:54 [rank13]:[E218 04:54:22", 13},
		{"[rank3]:[W218 cut[rank13]:[E218 04:54:22", 13}, // glued: the second process's
		{"[rank13]: [E218", -1}, // the label and the head touch
		{"[rank]:[E218", -1},
		{"[rank1234567890]:[E218", -1}, // ten digits: no rank
		{"[rank7]:", -1},
		{strings.Repeat("x", maxLabelAt) + "[rank13]:[E218", -1},
		{"[Rank 1] Watchdog caught [rank2]:[x", 2},
	} {
		if got := globalLabel([]byte(c.text)); got != c.want {
			t.Errorf("globalLabel(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}
