package ranks

import (
	"strings"
	"testing"
)

// TestInternHostStaleSlots holds internHost to the string table: a slot left by a table
// emptied since, or by other bytes of the same text, never names another string.
func TestInternHostStaleSlots(t *testing.T) {
	var l events
	hosts := []string{"gpu-node-1", "gpu-node-2", "gpu-node-3"}
	for _, h := range hosts {
		if i := l.internHost(h); l.strs[i] != h {
			t.Fatalf("internHost(%q) names %q", h, l.strs[i])
		}
	}
	l.forget()
	l.intern("other") // takes an index the old slots hold
	for _, h := range append(hosts, strings.Clone(hosts[0])) {
		if i := l.internHost(h); l.strs[i] != h {
			t.Fatalf("after forget, internHost(%q) names %q", h, l.strs[i])
		}
	}
	if a, b := l.internHost(hosts[0]), l.internHost(strings.Clone(hosts[0])); a != b {
		t.Fatalf("one host, two indexes: %d and %d", a, b)
	}
}
