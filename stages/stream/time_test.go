package stream_test

import (
	"testing"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages/stream"
)

// TestTimeOf: each form's rendering, with its digits; TRACE's since-init time is not a wall time.
func TestTimeOf(t *testing.T) {
	const at = 1749650607512034123    // 2025-06-11T14:03:27.512034123
	const noYear = 960732207000000000 // 2000-06-11T14:03:27
	for _, c := range []struct {
		s    parser.Stamp
		want string
	}{
		{parser.Stamp{}, ""},
		{parser.Stamp{Nanos: at, Form: parser.StampNCCL, Digits: 6}, "2025-06-11T14:03:27.512034"},
		{parser.Stamp{Nanos: at, Form: parser.StampISO, Digits: 9, Zoned: true}, "2025-06-11T14:03:27.512034123Z"},
		{parser.Stamp{Nanos: at - 512034123, Form: parser.StampISO, Zoned: true}, "2025-06-11T14:03:27Z"},
		{parser.Stamp{Nanos: at, Form: parser.StampPylog, Digits: 3}, "2025-06-11T14:03:27.512"},
		{parser.Stamp{Nanos: noYear, Form: parser.StampSyslog}, "06-11T14:03:27"},
		{parser.Stamp{Nanos: noYear + 928019000, Form: parser.StampGlog, Digits: 6}, "06-11T14:03:27.928019"},
		{parser.Stamp{Nanos: 1843225104, Form: parser.StampTrace, Digits: 6}, "init+1843.225104ms"},
	} {
		ct := stream.TimeOf(c.s)
		if got := ct.Text(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
		if (ct.Time != nil) != (c.s.HasYear() && !c.s.IsZero()) {
			t.Errorf("%+v: time %v", c.s, ct.Time)
		}
	}
}
