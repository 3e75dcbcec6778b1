package diagnose

import "testing"

// TestFactsShared: a shared finding is one cause every process that showed evidence met; on
// an excerpt that is not every rank of the job, so the bracket says "shared" and no more.
func TestFactsShared(t *testing.T) {
	f := Finding{Kind: KindNetworkError, Shared: true, Comm: "0x1f"}
	if got, want := f.Facts(), "network-error, shared, comm 0x1f"; got != want {
		t.Errorf("Facts = %q, want %q", got, want)
	}
}
