package diagnose_test

import (
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestSwallowedChain: a chain without its WARN whose thread goes on with an INFO line was
// taken by NCCL (a probe that falls back: the network device's sysfs path on a VM, RCCL's
// net_ib.cc probe) and proves nothing; the same chain as its thread's last line is still the
// failed connection it was, and a chain that returned through NCCL's API on the main thread
// is still the program's error whatever the thread printed next.
func TestSwallowedChain(t *testing.T) {
	const probe = "pod:435:783 [0] NCCL INFO Could not find real path of /sys/class/net/eth0/device\n" +
		"pod:435:783 [0] NCCL INFO include/net.h:19 -> 2\n"
	const goesOn = "pod:435:783 [0] NCCL INFO Ring 00 : 0 -> 8 [receive] via NET/Socket/0\n"
	const other = "pod:436:784 [1] NCCL INFO Ring 00 : 1 -> 0 [send] via NET/Socket/0\n"
	for name, log := range map[string]string{
		"sysfs probe":          probe + goesOn,
		"other thread between": probe + other + goesOn,
		"rccl probe": "node:2664391:2666940 [5] NCCL INFO /long_pathname_so_that_rpms_can_package_the_debug_info/src/rccl/build/hipify/src/transport/net_ib.cc:652 -> 2\n" +
			"node:2664391:2666940 [5] NCCL INFO Using non-device net plugin version 0\n",
	} {
		if r := diagnoseBytes(t, name, []byte(log), 0); r.Status != diagnose.StatusHealthy {
			t.Errorf("%s: status %s, want healthy:\n%s", name, r.Status, js(r))
		}
	}
	for name, log := range map[string]string{
		"open":            probe,
		"other thread on": probe + other,
		"warn after":      probe + "pod:435:783 [0] transport/net.cc:1024 NCCL WARN [Proxy Service 0] Failed to execute operation Connect from rank 0, retcode 2\n" + goesOn,
	} {
		if r := diagnoseBytes(t, name, []byte(log), 0); r.Status != diagnose.StatusFault {
			t.Errorf("%s: status %s, want fault:\n%s", name, r.Status, js(r))
		}
	}
	api := chainOnly("500", "2") + "nd1:500:500 [0] NCCL INFO Using network Socket\n"
	if _, ok := firstFault(t, api, diagnose.KindNetworkError); !ok {
		t.Errorf("a chain through the API on the main thread, then an INFO line of it: want the call's failure")
	}
}
