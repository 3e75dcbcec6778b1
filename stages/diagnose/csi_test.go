package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// colour gives Ray's prefix of line (up to its first blank) a terminal's colours, as Ray
// prints it where its output is a terminal.
func colour(line string) string {
	head, rest, _ := strings.Cut(line, ") ")
	return "\x1b[2m\x1b[36m" + head + ")\x1b[0m " + rest
}

// TestColouredRayLines: the raylet's line on a worker that died reads the same with its
// prefix coloured; coloured text that is no evidence stays no evidence, and an escape that is
// no colour is not taken for one.
func TestColouredRayLines(t *testing.T) {
	for _, chunk := range []int{0, 300} {
		r := diagnoseBytes(t, "ray.log", []byte(colour(rayDied)+colour(rayPeerError)), chunk)
		if chunk == 0 {
			// 24-bit colours and a progress bar's erase-to-end read alike.
			truecolor := "\x1b[K\x1b[38;2;0;175;255m" + strings.TrimPrefix(colour(rayDied), "\x1b[2m\x1b[36m")
			if r2 := diagnoseBytes(t, "ray.log", []byte(truecolor), 0); r2.Status != diagnose.StatusFault {
				t.Errorf("24-bit colours: status %s, want the raylet's fault:\n%s", r2.Status, js(r2))
			}
		}
		if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindProcessExit ||
			!slices.Equal(r.Findings[0].Processes, []string{"10.4.0.17:5521"}) {
			t.Errorf("chunk %d: want the coloured raylet line's process-exit of 10.4.0.17:5521 first:\n%s", chunk, js(r))
		}
	}
	quietIn(t,
		"\x1b[36m(RayTrainWorker pid=4141, ip=10.0.0.6)\x1b[0m epoch 3 loss 0.25\n",
		"\x1b[2m\x1b[36m(raylet)\x1b[0m Spilled 1024 MiB, 12 objects, write throughput 300 MiB/s.\n",
		"\x1b[31mERROR\x1b[0m the config is missing a key\n",
		"\x1b]0;title\x07(raylet) A worker died or was killed while executing a task by an unexpected system error.\n",
	)
}
