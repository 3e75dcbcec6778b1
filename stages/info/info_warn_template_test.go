package info

import "testing"

// TestWarnTemplateTokens: a shared memory segment's random name is masked whole, so that two
// processes' WARNs about their own segments are one template, and it is not mangled into a
// word of its own ("nccl-oA7T4J" read "nccl-oANTNJ"); device names keep their letters.
func TestWarnTemplateTokens(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Error while creating shared memory segment /dev/shm/nccl-oA7T4J (size 5967872)", "Error while creating shared memory segment /dev/shm/nccl-N (size N)"},
		{"Error while creating shared memory segment /dev/shm/nccl-Kq2zZ9x1 (size 4)", "Error while creating shared memory segment /dev/shm/nccl-N (size N)"},
		{"NET/IB : mlx5_0:1 port error", "NET/IB : mlxN_N:N port error"},
		{"node12 unreachable", "nodeN unreachable"},
	} {
		if got := warnTemplate([]byte(c.in)); got != c.want {
			t.Errorf("warnTemplate(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
