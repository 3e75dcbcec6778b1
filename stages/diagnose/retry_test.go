package diagnose_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestConnectRetries: processes whose connect NCCL kept retrying, with no Init COMPLETE of
// theirs after it, make the log unknown (a peer that never listened, or a log cut while the
// job waited), naming them; a process that completed its init after retrying is healthy,
// and a fault the log proves stays the first finding.
func TestConnectRetries(t *testing.T) {
	const retry = "NCCL INFO Call to connect returned Connection refused, retrying\n"
	a, b := "gpu-7:310:355 [0] ", "gpu-7:311:356 [1] "
	waiting := a + retry + b + retry + a + retry + b + retry
	r := diagnoseBytes(t, "job.log", []byte(waiting), 0)
	if r.Status != diagnose.StatusUnknown || len(r.Findings) != 1 || r.Findings[0].Kind != diagnose.KindNetworkError ||
		!slices.Equal(r.Findings[0].Processes, []string{"gpu-7:310", "gpu-7:311"}) ||
		!strings.Contains(r.Findings[0].Summary, "kept retrying a connect (Connection refused)") {
		t.Errorf("retries alone: want unknown naming both processes:\n%s", js(r))
	}
	done := waiting + a + "NCCL INFO comm 0x11 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE\n" +
		b + "NCCL INFO comm 0x12 rank 1 nranks 2 cudaDev 1 busId 2000 - Init COMPLETE\n"
	if r := diagnoseBytes(t, "job.log", []byte(done), 0); r.Status != diagnose.StatusHealthy {
		t.Errorf("retries, then every init completed: status %s, want healthy:\n%s", r.Status, js(r))
	}
	half := waiting + a + "NCCL INFO comm 0x11 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE\n"
	if r := diagnoseBytes(t, "job.log", []byte(half), 0); r.Status != diagnose.StatusUnknown ||
		!slices.Equal(r.Findings[0].Processes, []string{"gpu-7:311"}) {
		t.Errorf("one init completed: want unknown naming gpu-7:311 alone:\n%s", js(r))
	}
	fault := waiting + b + "misc/socket.cc:484 NCCL WARN Net : Connect to 10.0.0.9<29500> failed : Connection refused\n" +
		b + "NCCL INFO bootstrap.cc:78 -> 2\n"
	if r := diagnoseBytes(t, "job.log", []byte(fault), 0); r.Status != diagnose.StatusFault ||
		!slices.Equal(r.Findings[0].Processes, []string{"gpu-7:311"}) {
		t.Errorf("retries, then the WARN of giving up: want gpu-7:311's fault first:\n%s", js(r))
	}
	for _, near := range []string{"NCCL INFO Call to connect returned Connection refused\n", "NCCL INFO Calling connect, retrying\n"} {
		if r := diagnoseBytes(t, "job.log", []byte(a+near), 0); r.Status != diagnose.StatusHealthy {
			t.Errorf("%q: status %s, want healthy", near, r.Status)
		}
	}
}

// TestConnectRetriesThenCalls: a log without Init COMPLETE lines (NCCL_DEBUG_SUBSYS=COLL) whose
// processes retried a connect and then issued calls is healthy: its job got past its set-up.
func TestConnectRetriesThenCalls(t *testing.T) {
	const retry = "NCCL INFO Call to connect returned Connection refused, retrying\n"
	call := func(head string, op int) string {
		return head + "NCCL INFO AllReduce: opCount " + strconv.Itoa(op) + " sendbuff 0x7f00 recvbuff 0x7f00 count 1024 datatype 7 op 0 root 0 comm 0x11 [nranks=2] stream 0x5\n"
	}
	a, b := "gpu-7:310:310 [0] ", "gpu-8:410:410 [0] "
	log := a + retry + b + retry + call(a, 0) + call(b, 0) + call(a, 1) + call(b, 1)
	if r := diagnoseBytes(t, "job.log", []byte(log), 0); r.Status != diagnose.StatusHealthy {
		t.Errorf("retries, then calls: status %s, want healthy:\n%s", r.Status, js(r))
	}
}
