package main

import (
	"strings"
	"testing"
)

// TestStepsPrintExactMilliseconds: Megatron-LM's 820.7 ms prints as 0.8207 s in every format,
// and torchtitan's coloured line with a thousands separator gives its TFLOP/s.
func TestStepsPrintExactMilliseconds(t *testing.T) {
	const log = " [2025-04-13 23:41:20] iteration       20/    1000 | consumed samples:          320 | elapsed time per iteration (ms): 820.7 | global batch size:    16 |\n"
	for _, format := range []string{"table", "json", "csv"} {
		out, stderr, code := runCLI(t, log, "steps", "--format", format, "-")
		if code != exitOK || !strings.Contains(out, "0.8207") || strings.Contains(out, "0.82070") {
			t.Errorf("steps --format %s: exit %d, stderr %q, output:\n%s\nwant 0.8207", format, code, stderr, out)
		}
	}
	const titan = "[titan] 2026-02-24 19:46:17,508 - root - INFO - \x1b[31mstep:  4  \x1b[32mloss:  7.62585  \x1b[36mtflops: 1,339.16  \x1b[35mmfu: 13.99%\x1b[39m\n"
	out, _, _ := runCLI(t, titan, "steps", "--format", "csv", "-")
	if !strings.Contains(out, "\n4,,1339.16,") {
		t.Errorf("steps of a coloured torchtitan line:\n%s\nwant step 4 with 1339.16 TFLOP/s", out)
	}
}
