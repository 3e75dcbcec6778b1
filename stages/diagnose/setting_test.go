package diagnose_test

import (
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestSettingCause: an error of finding no interface, device or network that follows a
// setting that selects them names the setting and its value, and the process that printed
// it where that is not the finding's own; the kind stays what the error says (no interface
// at all: an init that cannot start). Read whole and in small chunks, which split the setting
// from the error.
func TestSettingCause(t *testing.T) {
	cases := []struct {
		name, log string
		kind      diagnose.Kind
		want      string
	}{
		{"own process, bootstrap",
			"gpu-a:100:100 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth9\n" +
				"gpu-a:100:100 [0] bootstrap.cc:45 NCCL WARN Bootstrap : no socket interface found\n" +
				"gpu-a:100:100 [0] NCCL INFO init.cc:128 -> 5\n",
			diagnose.KindInitFailure,
			"gpu-a:100 could not start NCCL: no network interface matches NCCL_SOCKET_IFNAME=eth9 (set by the environment): Bootstrap : no socket interface found"},
		{"another process, last error",
			"gpu-b:7:7 [1] NCCL INFO NCCL_SOCKET_IFNAME set by environment to ib7\n" +
				"torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1207, internal error, NCCL version 2.18.1\n" +
				"ncclInternalError: Internal check failed.\n" +
				"Last error:\n" +
				"ncclSocketInit: connecting to address  with family 4242 is neither AF_INET(2) nor AF_INET6(10)\n",
			diagnose.KindNetworkError,
			"no network interface matches NCCL_SOCKET_IFNAME=ib7 (set by the environment, as gpu-b:7 logged): ncclSocketInit: connecting to address  with family 4242"},
		{"socket transport",
			"gpu-c:5:5 [2] NCCL INFO NCCL_SOCKET_IFNAME set to =bond3\n" +
				"gpu-c:5:5 [2] transport/net_socket.cc:46 NCCL WARN NET/Socket : no interface found\n" +
				"gpu-c:5:5 [2] NCCL INFO net.cc:90 -> 3\n",
			diagnose.KindInitFailure,
			"gpu-c:5 could not start NCCL: no network interface matches NCCL_SOCKET_IFNAME==bond3 (set by the environment): NET/Socket : no interface found"},
		{"network",
			"gpu-d:9:9 [0] NCCL INFO NCCL_NET set by environment to IB\n" +
				"gpu-d:9:9 [0] net.cc:285 NCCL WARN Error: network IB not found.\n" +
				"gpu-d:9:9 [0] NCCL INFO init.cc:1100 -> 5\n",
			diagnose.KindInvalidUsage,
			"gpu-d:9 made an invalid NCCL call: no network NCCL can load matches NCCL_NET=IB (set by the environment): Error: network IB not found."},
	}
	for _, tc := range cases {
		for _, chunk := range []int{0, 80} {
			r := diagnoseBytes(t, "job.log", []byte(tc.log), chunk)
			if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
				t.Fatalf("%s/%d: status %s, want fault:\n%s", tc.name, chunk, r.Status, js(r))
			}
			f := r.Findings[0]
			if !strings.Contains(f.Summary, tc.want) || f.Kind != tc.kind {
				t.Errorf("%s/%d: first finding %s: %q\nwant %s containing %q", tc.name, chunk, f.Kind, f.Summary, tc.kind, tc.want)
			}
		}
	}
}

// TestSettingAlone: a setting that selects interfaces is no evidence by itself: a healthy job
// that prints it stays healthy, and an error it does not explain keeps its own sentence.
func TestSettingAlone(t *testing.T) {
	const set = "n1:100:100 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0\n" +
		"n1:100:100 [0] NCCL INFO NCCL_IB_HCA set to mlx5_0\n"
	healthy := "n1:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.1.2.3<0>\n" +
		"n1:100:100 [0] NCCL INFO comm 0xa rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE\n" +
		"n1:101:101 [1] NCCL INFO comm 0xa rank 1 nranks 2 cudaDev 1 busId 2000 - Init COMPLETE\n"
	want := diagnoseBytes(t, "job.log", []byte(healthy), 0)
	got := diagnoseBytes(t, "job.log", []byte(set+healthy), 0)
	if got.Status != diagnose.StatusHealthy || string(js(got)) != string(js(want)) {
		t.Errorf("a healthy job that sets NCCL_SOCKET_IFNAME:\n%s\nwant as without it:\n%s", js(got), js(want))
	}
	oom := "n1:100:100 [0] include/alloc.h:48 NCCL WARN Cuda failure 'out of memory'\n" +
		"n1:100:100 [0] NCCL INFO init.cc:1100 -> 1\n"
	want = diagnoseBytes(t, "job.log", []byte(oom), 0)
	got = diagnoseBytes(t, "job.log", []byte(set+oom), 0)
	if len(got.Findings) == 0 || got.Findings[0].Summary != want.Findings[0].Summary || strings.Contains(got.Findings[0].Summary, "NCCL_SOCKET_IFNAME") {
		t.Errorf("an error no setting explains names one:\n%s\nwant:\n%s", js(got), js(want))
	}
}
