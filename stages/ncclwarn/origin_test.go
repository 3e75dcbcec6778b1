package ncclwarn_test

import (
	"testing"

	"github.com/nccllog/nccllog/stages/ncclwarn"
)

// TestClassify: the WARNs of the samples, the generator and the format notes get their
// origin, and only the errors among them are faults.
func TestClassify(t *testing.T) {
	for _, c := range []struct {
		msg    string
		origin ncclwarn.Origin
	}{
		{`NET/IB: Got completion from peer 10.99.91.63<36473> with status=4 opcode=0 len=0 vendor err 81 (Send)`, ncclwarn.NetError},
		{`NET/IB : Got async event : port error`, ncclwarn.NetEvent},
		{`NET/Socket : socket progress error`, ncclwarn.NetError},
		{`Bootstrap : no socket interface found`, ncclwarn.Bootstrap},
		{`Cuda failure 'out of memory'`, ncclwarn.Cuda},
		{`Invalid root 9, nranks 8`, ncclwarn.Invalid},
		{`Call to ibv_reg_mr failed with error Cannot allocate memory`, ncclwarn.System},
		{`Connection closed by remote peer gpu-node-01<51234>`, ncclwarn.RemoteClosed},
		{`[Service thread] Error encountered progressing operation=Connect, res=3, closing connection`, ncclwarn.FollowOn},
		{`NUMA auto balancing enabled which can lead to variability in the RCCL performance! Disable by "sudo sysctl kernel.numa_balancing=0"`, ncclwarn.Other},
		{`Failed to open libibverbs.so[.1]`, ncclwarn.Other},
	} {
		got := ncclwarn.Classify([]byte(c.msg))
		if got != c.origin {
			t.Errorf("%q: origin %d, want %d", c.msg, got, c.origin)
		}
		if want := c.origin != ncclwarn.Other && c.origin != ncclwarn.NetEvent; got.Fault() != want {
			t.Errorf("%q: fault %v, want %v", c.msg, got.Fault(), want)
		}
	}
}
