package diagnose

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestFindingTimeKey: every finding has the `time` key the README lists, null where its
// evidence carries no time, the time as printed where it does.
func TestFindingTimeKey(t *testing.T) {
	for _, c := range []struct {
		time NullText
		want string
	}{{"", `"time":null`}, {"2026-03-01T12:00:07Z", `"time":"2026-03-01T12:00:07Z"`}} {
		b, err := json.Marshal(Finding{Kind: KindCrash, Time: c.time})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), c.want) {
			t.Errorf("time %q: %s, want %s in it", c.time, b, c.want)
		}
	}
}
