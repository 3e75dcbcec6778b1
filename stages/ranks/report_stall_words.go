package ranks

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nccllog/nccllog/parser"
)

// clockText is a time of day as the log printed it, to its digits (at most 6): "12:00:13.170".
func clockText(s parser.Stamp) string {
	layout := "15:04:05"
	if d := min(int(s.Digits), 6); d > 0 {
		layout += "." + strings.Repeat("0", d)
	}
	return time.Unix(0, s.Nanos).UTC().Format(layout)
}

// spanText is a length of time in a unit that reads easily: "0.08 s", "42 s", "10 min", "3 h".
func spanText(ns int64) string {
	s := float64(ns) / 1e9
	switch {
	case s < 10:
		return strconv.FormatFloat(s, 'g', 2, 64) + " s"
	case s < 120:
		return strconv.FormatFloat(s, 'f', 0, 64) + " s"
	case s < 2*3600:
		return strconv.FormatFloat(s/60, 'f', 0, 64) + " min"
	}
	return strconv.FormatFloat(s/3600, 'f', 0, 64) + " h"
}

// everyText says how often a process's calls came: ", where its calls had come every 0.08 s",
// or "" where it had fewer than two timed calls.
func everyText(s Stall, had bool) string {
	switch {
	case s.Gap <= 0:
		return "" // whole seconds, or too few calls: no gap to tell
	case had:
		return ", where its calls had come every " + spanText(s.Gap)
	}
	return ", where its calls come every " + spanText(s.Gap)
}

// stalledText says when a stalled rank's calls stopped and the later line they are held
// against.
func stalledText(s Stall) string {
	return fmt.Sprintf("its calls stopped at %s, %s before the log's later line at %s%s",
		clockText(s.LastCall), spanText(s.Since()), clockText(s.End), everyText(s, true))
}

// cutText says why a rank behind is not called hung: its calls run to the log's end.
func cutText(c CutRank) string {
	s := c.Stall
	return fmt.Sprintf("rank %s stops %s behind, but its last call (%s) is %s before the log's last line (%s)%s: the log looks cut while the job still ran; a hung rank's calls stop long before the log's later lines",
		c.Member.Label(), calls(c.Behind), clockText(s.LastCall), spanText(max(s.Since(), 0)), clockText(s.End), everyText(s, false))
}

// stallIn is the stall of m, a suspect of f.
func stallIn(f HangFinding, m *Member) (Stall, bool) {
	for _, s := range f.Suspects {
		if s.Member == m && s.Stall.Kind == Stalled {
			return s.Stall, true
		}
	}
	return Stall{}, false
}

// Evidence says in words what a stall is ("its calls stopped at ..."), none where it is not
// one.
func (s Stall) Evidence() []string {
	if s.Kind != Stalled {
		return nil
	}
	return []string{stalledText(s)}
}
