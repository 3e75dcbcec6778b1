package gen

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
)

func writeString(t *testing.T, c Config) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := Write(&b, c); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func base() Config { return Config{Seed: 9, Ranks: 8, RanksPerHost: 4, Steps: 5} }

// TestCleanAbort: every rank ends each of its two communicators with Abort COMPLETE, and no
// rank prints Destroy.
func TestCleanAbort(t *testing.T) {
	c := base()
	c.CleanAbort = true
	out := writeString(t, c)
	if n := strings.Count(out, " - Abort COMPLETE"); n != 16 {
		t.Errorf("%d Abort COMPLETE lines, want 16 (8 ranks × 2 communicators)", n)
	}
	if strings.Contains(out, "Destroy COMPLETE") {
		t.Error("Destroy lines with CleanAbort")
	}
	c.Teardown = true
	if c.Validate() == nil {
		t.Error("CleanAbort with Teardown accepted")
	}
}

// TestWriteNodes: each node's file holds exactly the lines of its host's processes, in the
// order the interleaved log has them.
func TestWriteNodes(t *testing.T) {
	c := base()
	c.Noise = true
	all := strings.Split(strings.TrimSuffix(writeString(t, c), "\n"), "\n")
	paths, err := WriteNodes(t.TempDir(), c)
	if err != nil || len(paths) != 2 {
		t.Fatalf("%v %v", paths, err)
	}
	var got []string
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")...)
	}
	slices.Sort(all)
	slices.Sort(got)
	if !slices.Equal(all, got) {
		t.Errorf("the node files hold %d lines, the interleaved log %d, or other lines", len(got), len(all))
	}
}

// TestGPUsPerProcess: four ranks share each process (host and pid), each on its own device.
func TestGPUsPerProcess(t *testing.T) {
	c := base()
	c.GPUsPerProcess = 4
	paths, err := WriteFiles(t.TempDir(), c)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 2 {
		t.Errorf("%d per-process files, want 2 (8 ranks, 4 per process)", len(paths))
	}
	b, _ := os.ReadFile(paths[0])
	for dev := 0; dev < 4; dev++ {
		if !strings.Contains(string(b), " ["+string(rune('0'+dev))+"] NCCL INFO AllReduce") {
			t.Errorf("no call from device %d in %s", dev, paths[0])
		}
	}
	c.GPUsPerProcess = 3
	if c.Validate() == nil {
		t.Error("3 GPUs per process on 4 per host accepted")
	}
}

// TestWatchdog: the watchdog rank never enqueues work S; every other rank prints the watchdog
// timeout for S, with S-1 its last completed work.
func TestWatchdog(t *testing.T) {
	c := base()
	c.WatchdogRank, c.WatchdogSeq = Rank(2), 7
	out := writeString(t, c)
	if n := strings.Count(out, "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7, OpType="); n != 7 {
		t.Errorf("%d watchdog timeout lines, want 7", n)
	}
	if n := strings.Count(out, "Timeout at NCCL work: 7, last enqueued NCCL work: 7, last completed NCCL work: 6."); n != 7 {
		t.Errorf("%d queue lines, want 7", n)
	}
	if strings.Contains(out, "[Rank 2] Watchdog") {
		t.Error("the rank that never enqueued the work times out on it")
	}
	c.WatchdogSeq = 0
	if c.Validate() == nil {
		t.Error("WatchdogSeq 0 accepted")
	}
}
