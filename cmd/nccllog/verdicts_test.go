package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHangSentences: the sentences say what is true, in English: one call is "1 call", and a
// communicator with a rank without lines is never said to have none missing.
func TestHangSentences(t *testing.T) {
	const call = "NCCL INFO AllReduce: opCount %d sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1024 datatype 7 op 0 root 0 comm 0x%x [nranks=2] stream 0x55d4c1f3a2b0\n"
	const init = "NCCL INFO ncclCommInitRank comm 0x%x rank %d nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x5d7760b8864df153 - Init COMPLETE\n"
	dir := t.TempDir()
	behind := filepath.Join(dir, "behind.log")
	text := fmt.Sprintf("a:1:1 [0] "+init, 0xa0, 0) + fmt.Sprintf("b:2:2 [0] "+init, 0xb0, 1) +
		fmt.Sprintf("a:1:1 [0] "+call, 0, 0xa0) + fmt.Sprintf("b:2:2 [0] "+call, 0, 0xb0) + fmt.Sprintf("a:1:1 [0] "+call, 1, 0xa0)
	alone := filepath.Join(dir, "alone.log")
	if os.WriteFile(behind, []byte(text), 0o644) != nil || os.WriteFile(alone, []byte(fmt.Sprintf("a:1:1 [0] "+call, 0, 0xa0)), 0o644) != nil {
		t.Fatal("cannot write the logs")
	}
	out, _, code := runCLI(t, "", "hang", behind)
	if code != exitFound || !strings.Contains(out, "issued 1 call, 1 fewer than the furthest rank got (2)") || strings.Contains(out, "1 calls") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	out, _, code = runCLI(t, "", "hang", alone)
	if code != exitFound || strings.Contains(out, "none is missing") || !strings.Contains(out, "1 rank without lines") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}
