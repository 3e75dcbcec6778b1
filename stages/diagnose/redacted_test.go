package diagnose_test

import (
	"slices"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestRedactedPid: a head whose pid (and tid) a user redacted names its host, not the
// redaction the parser reads as one; a head that names a host alone keeps it.
func TestRedactedPid(t *testing.T) {
	const warn = " ibvwrap.c:262 NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx_x:1, curr state INIT, next state RTR\n"
	for head, host := range map[string]string{
		"host-01.example.com:XXXXXX [5]":                       "host-01.example.com",
		"[2026-03-13 22:26:02] host-01.example.com:XXXXXX [5]": "host-01.example.com",
		"node3:XXXX:XXXX [5]":                                  "node3",
		"gpu7 [5]":                                             "gpu7",
	} {
		r := diagnoseBytes(t, "redacted.log", []byte(head+warn), 0)
		if r.Status != diagnose.StatusFault || !slices.Equal(r.Findings[0].Hosts, []string{host}) {
			t.Errorf("%q: want host %s:\n%s", head, host, js(r))
		}
	}
}
