package diagnose_test

import (
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestWatchEnded: a terminate whose what() the excerpt cut, after the watchdog's timeout and
// its "taking the entire process down", is how the watchdog ended the process: one finding,
// the timeout's; a crash printed before the timeout is still the first fault.
func TestWatchEnded(t *testing.T) {
	const dog = "2023-12-28T13:17:07.318704498Z [E ProcessGroupNCCL.cpp:828] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, Timeout(ms)=60000) ran for 69662 milliseconds before timing out.\n" +
		"2023-12-28T13:17:07.318732015Z [E ProcessGroupNCCL.cpp:460] To avoid data inconsistency, we are taking the entire process down.\n"
	const term = "2023-12-28T13:17:07.318739139Z terminate called after throwing an instance of 'std::runtime_error'\n"
	r := diagnoseBytes(t, "job.log", []byte(dog+term), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || len(f) != 1 || f[0].Kind != diagnose.KindWatchdogTimeout {
		t.Errorf("the watchdog's ending: want one watchdog finding:\n%s", js(r))
	}
	const segv = "2023-12-28T13:10:00.000000000Z Segmentation fault (core dumped)\n"
	firstFault(t, segv+dog, diagnose.KindCrash)
}
