package diagnose

import (
	"strings"

	"github.com/nccllog/nccllog/stages/ranks"
)

// stallNote adds to a rank-behind finding what hang's times say: where its calls stopped
// long before the log's later lines (a stall), the finding says when, and carries that time.
// (A rank whose calls run to the log's end is no suspect of hang's, so no finding at all.)
func stallNote(c *cand, s *ranks.Suspect) {
	if s.Stall.Kind != ranks.Stalled {
		return
	}
	for _, e := range s.Stall.Evidence() {
		c.summary = strings.TrimSuffix(c.summary, ".") + "; " + e + "."
	}
	if c.at.IsZero() {
		c.at = s.Stall.LastCall
	}
}
