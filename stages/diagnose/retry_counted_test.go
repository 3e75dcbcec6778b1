package diagnose_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestConnectRetriesCounted: NCCL's counted retries (`retrying (26/34) after sleep for ...`,
// with or without the address) read as the first form's: retries alone make the log
// unknown; a process that reached the last retry NCCL allows, with no Init COMPLETE after it
// and no call in the log, is a network fault of its own; one that completed its init after
// it is healthy.
func TestConnectRetriesCounted(t *testing.T) {
	const head = "zgiot:1183664:1184669 [0] NCCL INFO "
	forms := []string{
		"socketPollConnect: connect returned No route to host, retrying (%d/34) after sleep for %d00 msec\n",
		"socketPollConnect: connect to 10.0.0.7<29500> returned Connection refused, retrying (%d/34) after sleep for %d00 msec\n",
	}
	for _, form := range forms {
		tries := func(from, to int) string {
			var b strings.Builder
			for i := from; i <= to; i++ {
				b.WriteString(head + fmt.Sprintf(form, i, i))
			}
			return b.String()
		}
		r := diagnoseBytes(t, "retry.log", []byte(tries(3, 20)), 0)
		if r.Status != diagnose.StatusUnknown || len(r.Findings) != 1 || !slices.Equal(r.Findings[0].Processes, []string{"zgiot:1183664"}) {
			t.Errorf("%q, retries 3-20: want unknown naming zgiot:1183664:\n%s", form, js(r))
		}
		r = diagnoseBytes(t, "retry.log", []byte(tries(26, 34)), 0)
		if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindNetworkError ||
			!slices.Equal(r.Findings[0].Processes, []string{"zgiot:1183664"}) ||
			!strings.Contains(r.Findings[0].Summary, "reached the last of the connect retries NCCL allows") {
			t.Errorf("%q, retries to 34/34: want zgiot:1183664's network fault:\n%s", form, js(r))
		}
		done := tries(26, 34) + head + "comm 0x11 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE\n"
		if r := diagnoseBytes(t, "retry.log", []byte(done), 0); r.Status != diagnose.StatusHealthy {
			t.Errorf("%q, the last retry, then Init COMPLETE: status %s, want healthy:\n%s", form, r.Status, js(r))
		}
		call := head + "AllReduce: opCount 0 sendbuff 0x7f00 recvbuff 0x7f00 count 1024 datatype 7 op 0 root 0 comm 0x11 [nranks=2] stream 0x5\n"
		if r := diagnoseBytes(t, "retry.log", []byte(tries(26, 34)+call), 0); r.Status == diagnose.StatusFault {
			t.Errorf("%q, the last retry, then a call: status fault, want none:\n%s", form, js(r))
		}
	}
	for _, near := range []string{
		"socketPollConnect: connect returned No route to host, retrying (35/34) after sleep for 100 msec\n",
		"socketPollConnect: connect returned No route to host, retrying after sleep for 100 msec\n",
		"bootstrap: connect returned Connection refused\n",
	} {
		if r := diagnoseBytes(t, "retry.log", []byte(head+near), 0); r.Status != diagnose.StatusHealthy {
			t.Errorf("%q: status %s, want healthy", near, r.Status)
		}
	}
}

// TestConnectRetriesUncounted: the first form's lines are counted on their thread: a
// timed-out connect's second retry is the last NCCL prints before it gives up; one, or one
// on each of two threads, stays unknown, and so do refused connects, however many.
func TestConnectRetriesUncounted(t *testing.T) {
	line := func(tid, err string) string {
		return "worker:101542:" + tid + " [0] NCCL INFO Call to connect returned " + err + ", retrying\n"
	}
	cases := []struct {
		name  string
		log   string
		fault bool
	}{
		{"timed out twice", line("101934", "Connection timed out") + line("101934", "Connection timed out"), true},
		{"timed out once", line("101934", "Connection timed out"), false},
		{"timed out once on two threads", line("101934", "Connection timed out") + line("101935", "Connection timed out"), false},
		{"refused 19 times", strings.Repeat(line("101934", "Connection refused"), 19), false},
	}
	for _, c := range cases {
		r := diagnoseBytes(t, "retry.log", []byte(c.log), 0)
		if got := r.Status == diagnose.StatusFault; got != c.fault ||
			c.fault && !slices.Equal(r.Findings[0].Processes, []string{"worker:101542"}) {
			t.Errorf("%s: status %s, want fault %v naming worker:101542:\n%s", c.name, r.Status, c.fault, js(r))
		}
	}
}
