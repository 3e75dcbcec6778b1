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
		{`Call to ibv_modify_qp failed with error Invalid argument`, ncclwarn.System},
		{`Call to ibv_create_qp failed with error Cannot allocate memory`, ncclwarn.System},
		{`NET/IB : mlx5_0:1 Got async event : local access violation work queue error`, ncclwarn.NetError},
		{`NET/IB : mlx5_0:1 Got async event : local work queue catastrophic error`, ncclwarn.NetError},
		{`NET/IB : mlx5_0:1 Got async event : invalid request local work queue error`, ncclwarn.NetError},
		{`NET/IB : mlx5_0:1 Got async event : CQ error`, ncclwarn.NetError},
		{`NET/IB : mlx5_0:1 Got async event : local catastrophic error`, ncclwarn.NetError},
		{`NET/IB : mlx5_0:1 Got async event : SRQ catastrophic error`, ncclwarn.NetEvent},
		{`NET/IB : mlx5_0:1 Got async event : port active`, ncclwarn.NetEvent},
		{`NET/IB : mlx5_0:1 Got async event : GID table change`, ncclwarn.NetEvent},
		{`NET/IB : mlx5_3:1 async fatal event on QP (0x732d78661238): invalid request local work queue error`, ncclwarn.NetError},
		{`NET/IB : mlx5_0:1 async fatal event on CQ (0x5581a2b3c4d0): CQ error`, ncclwarn.NetError},
		{`NET/IB : mlx5_1:1 async fatal event: local catastrophic error`, ncclwarn.NetError},
		{`NET/IB : mlx5_1:1 async fatal event on SRQ, unused for now (0x5581a2b3c4d0): SRQ catastrophic error`, ncclwarn.NetEvent},
		{`NET/IB : mlx5_2:1 Got async error event: port error`, ncclwarn.NetEvent},
		{`NET/IB : mlx5_2:1 Got async error event: port active`, ncclwarn.NetEvent},
		{`NET/IB : mlx5_2:1 unknown event type (19)`, ncclwarn.NetEvent},
		{`communicator encountered a fatal error (detected in ncclIbIrecv)`, ncclwarn.NetError},
		{`NET/IB : collective mismatch error local size 32768 remote 1048576 addr 0 rkey 3beac3 seq adf/adf`, ncclwarn.Invalid},
		{`NET/IB : req 0/1 tag 0 peer 10.0.0.6<58683> collective mismatch error, local size 496640 remote size 65536`, ncclwarn.Invalid},
		{`NET/Socket : socket progress error`, ncclwarn.NetError},
		{`socketPollConnect: Connect to 10.8.1.7<41023> returned 113(No route to host) errno 115(Operation now in progress)`, ncclwarn.NetError},
		{`socketPollConnect: exceeded timeouts (20)`, ncclwarn.NetError},
		{`Failed to bind NVLink SHARP (NVLS) Multicast memory of size 4194304 : CUDA error 401 'the operation cannot be performed in the present state'.`, ncclwarn.Cuda},
		{`NET/OFI Could not find ncclGetVersion symbol`, ncclwarn.Other},
		{`Bootstrap : no socket interface found`, ncclwarn.Bootstrap},
		{`Error : ring 0 does not loop back to start (14 != 0)`, ncclwarn.Internal},
		{`Error : ring 1 does not contain rank 0`, ncclwarn.Internal},
		{`Error : no algorithm/protocol available`, ncclwarn.Internal},
		{`DOCA failure 21`, ncclwarn.NetError},
		{`Attribute arch of node cpu not found`, ncclwarn.Internal},
		{`Your program may be hanging, this may be caused by a collective mismatch around rank 1. Please check your collective calls at and around this rank.`, ncclwarn.Invalid},
		{`comm 0x55ec10690820 has already been destroyed`, ncclwarn.Invalid},
		{`Cuda failure 'out of memory'`, ncclwarn.Cuda},
		{`Cuda failure 2 'out of memory'`, ncclwarn.Cuda},
		{`Failed to CUDA calloc 1048576 bytes`, ncclwarn.Cuda},
		{`Failed to CUDA host alloc 4096 bytes`, ncclwarn.Cuda},
		{`Invalid root 9, nranks 8`, ncclwarn.Invalid},
		{`Attempt to use communicator before the previous operation returned ncclSuccess`, ncclwarn.Invalid},
		{`NCCL cannot be captured in a graph if either it wasn't built with CUDA runtime >= 11.3 or if the installed CUDA driver < R465.`, ncclwarn.Invalid},
		{`Bootstrap Root : rank 1 of 8 ranks has already checked in`, ncclwarn.Invalid},
		{`hipIpcGetMemHandle failed : invalid argument`, ncclwarn.Cuda},
		{`cudaIpcGetMemHandle failed : invalid device context`, ncclwarn.Cuda},
		{`P2P : cudaIpcOpenMemHandle failed : too many resources requested`, ncclwarn.Cuda},
		{`Missing "amd_iommu=on" from kernel command line which can lead to system instablity or hang!`, ncclwarn.Other},
		{`Missing "HSA_FORCE_FINE_GRAIN_PCIE=1" from environment which can lead to low RCCL performance, system instablity or hang!`, ncclwarn.Other},
		{`cudaDriverVersion query failed`, ncclwarn.Other},
		{`Call to ibv_reg_mr failed with error Cannot allocate memory`, ncclwarn.System},
		{`Connection closed by remote peer gpu-node-01<51234>`, ncclwarn.RemoteClosed},
		{`[Service thread] Error encountered progressing operation=Connect, res=3, closing connection`, ncclwarn.FollowOn},
		{`NUMA auto balancing enabled which can lead to variability in the RCCL performance! Disable by "sudo sysctl kernel.numa_balancing=0"`, ncclwarn.Other},
		{`Failed to open libibverbs.so[.1]`, ncclwarn.Other},
		{`Error while creating shared memory segment /dev/shm/nccl-Ab3dEf (size 9437184)`, ncclwarn.Shm},
		{`Error: failed to extend /dev/shm/nccl-Ab3dEf to 9437188 bytes`, ncclwarn.Shm},
		{`socketStartConnect: Connect to 10.1.2.3<40123> failed : Connection refused`, ncclwarn.NetError},
		{`Duplicate GPU detected : rank 3 and rank 1 both on CUDA device 3b000`, ncclwarn.Invalid},
		{`Net : Call to recv from 10.1.2.3<40123> failed : Broken pipe`, ncclwarn.RemoteClosed},
		{`Net : Call to send to 10.1.2.3<40123> failed : Connection reset by peer`, ncclwarn.RemoteClosed},
		{`[Proxy Service 3] Failed to execute operation Connect from rank 3, retcode 6`, ncclwarn.Other},
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

// TestTemplate: the WARNs two processes print for one cause share a template (addresses,
// ports, sizes, opcodes, ranks and segment names masked); different codes do not.
func TestTemplate(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{`NET/IB : Got completion from peer 10.1.0.7<41001> with error 4, opcode 32001, len 32001, vendor err 81 (Send)`,
			`NET/IB : Got completion from peer fe80::1:2%ib0<52002> with error 4, opcode 2, len 0, vendor err 81 (Send)`, true},
		{`NET/IB : Got completion from peer 10.1.0.7<41001> with error 4, opcode 1, len 1, vendor err 81 (Send)`,
			`NET/IB : Got completion from peer 10.1.0.7<41001> with error 12, opcode 1, len 1, vendor err 81 (Send)`, false},
		{`NET/IB: Got completion from peer 10.1.0.7<41001> with status=12 opcode=0 len=0 vendor err 129 (Recv)`,
			`NET/IB: Got completion from peer 10.1.0.8<41002> with status=12 opcode=32616 len=0 vendor err 129 (Recv)`, true},
		{`NET/IB: Got completion from peer 10.1.0.7<41001> with status=12 opcode=0 len=0 vendor err 129 (Recv)`,
			`NET/IB: Got completion from peer 10.1.0.7<41001> with status=5 opcode=0 len=0 vendor err 129 (Recv)`, false},
		{`Error while creating shared memory segment /dev/shm/nccl-Ab3dEf (size 9437184)`,
			`Error while creating shared memory segment /dev/shm/nccl-zZ9yX1 (size 9437184)`, true},
		{`Duplicate GPU detected : rank 3 and rank 1 both on CUDA device 3b000`,
			`Duplicate GPU detected : rank 1 and rank 3 both on CUDA device 3b000`, true},
		{`Connection closed by remote peer gpu-a<40001>`, `Cuda failure 'out of memory'`, false},
		{`NET/IB : mlx5_3:1 async fatal event on QP (0x732d78661238): invalid request local work queue error`,
			`NET/IB : mlx5_7:1 async fatal event on QP (0x777e2033fa48): invalid request local work queue error`, true},
		{`NET/IB : mlx5_3:1 async fatal event on QP (0x732d78661238): invalid request local work queue error`,
			`NET/IB : mlx5_3:1 async fatal event on QP (0x732d78661238): local access violation work queue error`, false},
	} {
		ta, tb := ncclwarn.Template([]byte(c.a)), ncclwarn.Template([]byte(c.b))
		if (ta == tb) != c.same {
			t.Errorf("templates %q and %q: same %v, want %v", ta, tb, ta == tb, c.same)
		}
	}
}

// TestAdvice: RCCL's init advice is advice; errors, notices and a message that only mentions
// a lead are not.
func TestAdvice(t *testing.T) {
	for msg, want := range map[string]bool{
		`Missing "iommu=pt" from kernel command line which can lead to system instablity or hang!`:                                            true,
		`NUMA auto balancing enabled which can lead to variability in the RCCL performance! Disable by "sudo sysctl kernel.numa_balancing=0"`: true,
		"Failed: UCX error ucx_plugin.c:498 '-5' Invalid parameter":                                                                           false,
		"NET/IB : Got completion from peer 10.0.0.1<1> with status=12 opcode=0 len=0 vendor err 129 (Recv)":                                   false,
		"Call to bind failed: Address already in use":                                                                                         false,
	} {
		if got := ncclwarn.Advice([]byte(msg)); got != want {
			t.Errorf("Advice(%q) = %v, want %v", msg, got, want)
		}
	}
}
