package ranks

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// loneTopLog is an excerpt of a communicator of nranks ranks (no Init line, opCounts from
// 1607 on) holding the calls of the ranks in ends: rank rk prints ends[rk] calls, a round at
// a time, and a rank of ends -1 prints nothing.
func loneTopLog(nranks int, ends []int) string {
	var b strings.Builder
	for k := 0; k < slices.Max(ends); k++ {
		for rk, n := range ends {
			if k < n {
				fmt.Fprintf(&b, "%s NCCL INFO AllGather: opCount %x sendbuff 0x940645200 recvbuff 0x96d44e200 count 2359808 datatype 7 op 0 root 0 comm 0x%x [nranks=%d] stream 0x555e2b3a4370\n",
					procHead(rk), 1607+k, worldPtr(rk), nranks)
			}
		}
	}
	return b.String()
}

// TestExcerptLoneTop: an excerpt that ends as one rank printed the next round's first call,
// with ranks of the communicator missing from it, is cut (a pasted piece of a running job);
// a hang leaves every rank but the culprit waiting at one call, which the excerpt shows where
// two ranks got there, or where every rank is in it. Check agrees.
func TestExcerptLoneTop(t *testing.T) {
	for _, c := range []struct {
		name   string
		nranks int
		ends   []int
		want   []string
	}{
		{name: "two of four ranks, one a call ahead", nranks: 4, ends: []int{2, 1}},
		{name: "three of four, one ahead", nranks: 4, ends: []int{3, 2, 2}},
		{name: "two of two, one behind", nranks: 2, ends: []int{3, 2}, want: []string{"gpu-node-00:4101"}},
		{name: "four of four, one behind", nranks: 4, ends: []int{3, 3, 2, 3}, want: []string{"gpu-node-01:4102"}},
		{name: "three of four, two waiting", nranks: 4, ends: []int{3, 3, 2}, want: []string{"gpu-node-01:4102"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := ranksOf(t, writeLog(t, loneTopLog(c.nranks, c.ends)))
			var got []string
			for _, f := range r.Hang() {
				got = append(got, suspectLabels(f)...)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("suspects %v, want %v (%s)", got, c.want, verdicts(r))
			}
			if v := verdicts(r); c.want == nil && v != "" {
				t.Errorf("a cut excerpt gets %s", v) // check's too
			}
		})
	}
}
