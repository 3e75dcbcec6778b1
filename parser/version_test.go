package parser

import (
	"bytes"
	"testing"
)

func TestVersionOf(t *testing.T) {
	for line, want := range map[string]string{
		"NCCL version 2.18.5+cuda12.2":                                           "NCCL 2.18.5+cuda12.2",
		"gpu-node-07:48211:48211 [0] NCCL INFO NCCL version 2.23.4+cuda12.6\r":   "NCCL 2.23.4+cuda12.6",
		"[1,0]<stdout>:NCCL version 2.8.3+cuda11.2":                              "NCCL 2.8.3+cuda11.2",
		"RCCL version : 2.21.5-ab12cd":                                           "RCCL 2.21.5-ab12cd",
		"gpu-node-07:48211:48211 [0] NCCL INFO NCCL git version master 5067397c": "",
		"HIP version  : 6.2.41133":                                               "",
		"CCL version 2.1":                                                        "",
	} {
		if got := VersionOf([]byte(line)); got != want {
			t.Errorf("VersionOf(%q) = %q, want %q", line, got, want)
		}
	}
}

// TestCCLVersion holds cclVersion to bytes.Index where "v", "CCL " and "version" come close.
func TestCCLVersion(t *testing.T) {
	for _, line := range []string{"", "v", "CCL version", "xCCL versio", "CCL vCCL version",
		"vvCCL  version CCL version", "NCCL INFO via nvmlDev CCL versionv", "CCLversion CCL v",
		"RCCL version : 2.21.5", "version CCL ", "CCL"} {
		if got, want := cclVersion([]byte(line)), bytes.Index([]byte(line), []byte("CCL version")); got != want {
			t.Errorf("cclVersion(%q) = %d, bytes.Index says %d", line, got, want)
		}
	}
}
