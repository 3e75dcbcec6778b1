package info

import (
	"fmt"
	"strings"
	"testing"
)

// ofiLog is four processes' NET/OFI lines, the platform line then the provider line, as
// aws-ofi-nccl prints them; skip leaves out rank 3's provider line (first: its platform
// line), as a piece of the log that ends, or starts, between them holds it. odd gives rank 3
// another provider.
func ofiLog(skipLast, skipFirst bool, odd string) []byte {
	var b strings.Builder
	for r := range 4 {
		prov := "efa"
		if r == 3 && odd != "" {
			prov = odd
		}
		if !(r == 3 && skipFirst) {
			fmt.Fprintf(&b, "[1,%d]<stdout>:node-0:%d:%d [%d] NCCL INFO NET/OFI Running on P4d platform, Setting NCCL_TOPO_FILE environment variable to /opt/topo.xml\n", r, 20+r, 20+r, r)
		}
		if !(r == 3 && skipLast) {
			fmt.Fprintf(&b, "[1,%d]<stdout>:node-0:%d:%d [%d] NCCL INFO NET/OFI Selected Provider is %s\n", r, 20+r, 20+r, r, prov)
		}
	}
	return []byte(b.String())
}

// TestInfoFactLinesCut: a process whose lines of a fact that takes several (NET/OFI's) are
// some of the majority's, as a piece cut between them holds, is no outlier; one that printed
// another value is.
func TestInfoFactLinesCut(t *testing.T) {
	for _, c := range []struct {
		name                string
		skipLast, skipFirst bool
		odd                 string
		want                int
	}{{"head-cut", true, false, "", 0}, {"tail-cut", false, true, "", 0}, {"other-provider", false, false, "sockets", 1},
		{"other-provider-tail-cut", false, true, "sockets", 1}} {
		t.Run(c.name, func(t *testing.T) {
			r := infoReport(t, ofiLog(c.skipLast, c.skipFirst, c.odd), 0)
			if len(r.Outliers) != c.want {
				t.Errorf("%d outliers, want %d: %s", len(r.Outliers), c.want, describe(r.Outliers))
			}
		})
	}
}
