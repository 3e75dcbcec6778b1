package diagnose_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages/diagnose"
)

// portLine is NET/IB's async event line of process pid on host in the form of an NCCL
// release: "2.18" (no device), "2.21" (`mlx5_0:1 Got async event`) or "2.27" (`Got async
// error event`), of event ev (`port error`, `port active`).
func portLine(form, host string, pid int, ev string) string {
	head := fmt.Sprintf("%s:%d:%d [%d] transport/net_ib.cc:", host, pid, pid+71, pid%8)
	switch form {
	case "2.18":
		return head + "93 NCCL WARN NET/IB : Got async event : " + ev + "\n"
	case "2.21":
		return head + "101 NCCL WARN NET/IB : mlx5_0:1 Got async event : " + ev + "\n"
	}
	return head + "199 NCCL WARN NET/IB : mlx5_0:1 Got async error event: " + ev + "\n"
}

// TestPortDown: a NET/IB `port error` that no `port active` of its host follows is that
// host's link lost, a network-error on it, in each release's form; where the port comes back
// (a link that flapped), or the event is another port's or another kind, the job stays
// healthy.
func TestPortDown(t *testing.T) {
	for _, form := range []string{"2.18", "2.21", "2.27"} {
		var log strings.Builder
		for pid := 34050; pid < 34058; pid++ {
			log.WriteString(portLine(form, "node48", pid, "port error"))
		}
		r := diagnoseBytes(t, "job.log", []byte(log.String()), 0)
		if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindNetworkError ||
			!slices.Equal(r.Findings[0].Hosts, []string{"node48"}) || len(r.Findings[0].Processes) != 8 ||
			!strings.HasPrefix(r.Findings[0].Summary, "Host node48 lost ") {
			t.Errorf("%s: want node48's port lost first:\n%s", form, js(r))
		}
		one := portLine(form, "node48", 34050, "port error")
		if f, ok := firstFault(t, one, diagnose.KindNetworkError); ok && !strings.HasPrefix(f.Summary, "node48:34050 lost ") {
			t.Errorf("%s: one process: %q", form, f.Summary)
		}
	}
	// The peer's completion error that follows names the host whose port went down: the
	// port comes first.
	log := portLine("2.21", "node48", 34050, "port error") +
		"node51:73076:73185 [4] transport/net_ib.cc:1238 NCCL WARN NET/IB : Got completion from peer node48<37948> with error 12, opcode 2, len 1, vendor err 129\n"
	if r := diagnoseBytes(t, "job.log", []byte(log), 0); r.Status != diagnose.StatusFault || !slices.Equal(r.Findings[0].Processes, []string{"node48:34050"}) {
		t.Errorf("port then a peer's completion error: want node48:34050 first:\n%s", js(r))
	}
	quietIn(t,
		portLine("2.21", "node1", 100, "port error")+portLine("2.21", "node1", 100, "port active"),
		portLine("2.18", "node1", 100, "port error")+portLine("2.27", "node1", 101, "port active"),
		portLine("2.27", "node1", 100, "LID change"),
		portLine("2.27", "node1", 100, "port active"),
	)
	// Another device's port coming back does not bring this one back.
	other := strings.Replace(portLine("2.21", "node1", 100, "port active"), "mlx5_0:1", "mlx5_1:1", 1)
	if _, ok := firstFault(t, portLine("2.21", "node1", 100, "port error")+other, diagnose.KindNetworkError); !ok {
		t.Error("another device's port active")
	}
	// A port that goes down once each of the process's communicators was destroyed is no
	// fault of the job's (afterabort_test.go has the abort); one of two destroyed is not
	// the job done.
	comm := func(c string, ev string) string {
		return "node1:100:171 [4] NCCL INFO comm " + c + " rank 0 nranks 2 cudaDev 4 busId 1000 - " + ev + "\n"
	}
	down := portLine("2.21", "node1", 100, "port error")
	quietIn(t, comm("0xa", "Init COMPLETE")+comm("0xa", "Destroy COMPLETE")+down)
	if _, ok := firstFault(t, comm("0xa", "Init COMPLETE")+comm("0xb", "Init COMPLETE")+comm("0xb", "Destroy COMPLETE")+down, diagnose.KindNetworkError, 0); !ok {
		t.Error("one communicator of two destroyed")
	}
	// Nor does a port active printed before the error.
	if _, ok := firstFault(t, portLine("2.21", "node1", 100, "port active")+portLine("2.21", "node1", 100, "port error"), diagnose.KindNetworkError); !ok {
		t.Error("a port active before the error")
	}
}

// TestPortDownAcrossFiles: per-process files order a port error and another process's port
// active by their times; where either has none, the port may have come back, and nothing is
// claimed.
func TestPortDownAcrossFiles(t *testing.T) {
	stamp := func(s, line string) string { return "[2025-06-11 14:03:" + s + "] " + line }
	for _, c := range []struct {
		name       string
		down, up   string
		wantStatus diagnose.Status
	}{
		{"up later", stamp("27", portLine("2.27", "n1", 10, "port error")), stamp("29", portLine("2.27", "n1", 11, "port active")), diagnose.StatusHealthy},
		{"up earlier", stamp("27", portLine("2.27", "n1", 10, "port error")), stamp("20", portLine("2.27", "n1", 11, "port active")), diagnose.StatusFault},
		{"untimed", portLine("2.27", "n1", 10, "port error"), portLine("2.27", "n1", 11, "port active"), diagnose.StatusHealthy},
	} {
		// The port active's file is read first.
		if r := diagnoseFiles(t, 0, "rank0.log", c.up, "rank1.log", c.down); r.Status != c.wantStatus {
			t.Errorf("%s: status %s, want %s:\n%s", c.name, r.Status, c.wantStatus, js(r))
		}
	}
}

// TestPortDownKeptCalling: a process that issued collective calls after its port error went
// on through it (the port came back unlogged, or its traffic took another): a healthy job's
// log with such a WARN stays healthy. Cut right after the WARN, before the process calls
// again, it is one process's port error among the sixteen the log shows, which no port a
// host lost prints (seenAlone): the cut stays silent too. (TestPortDown has a host whose
// every process printed it, at the log's end.)
func TestPortDownKeptCalling(t *testing.T) {
	data, _ := generate(t, gen.Config{Seed: 4, Ranks: 16, Steps: 20, Noise: true})
	i := strings.Index(string(data), "Got async event : port error")
	if i < 0 {
		t.Fatal("the generated job prints no port error: pick another seed")
	}
	if r := diagnoseBytes(t, "job.log", data, 0); r.Status != diagnose.StatusHealthy {
		t.Errorf("a job that kept calling: status %s:\n%s", r.Status, js(r))
	}
	end := i + strings.IndexByte(string(data[i:]), '\n') + 1
	for k := 0; k < 6 && end < len(data); k++ {
		if r := diagnoseBytes(t, "job.log", data[:end], 0); r.Status == diagnose.StatusFault {
			t.Errorf("cut %d lines after the port error: fault:\n%s", k, js(r))
		}
		end += strings.IndexByte(string(data[end:]), '\n') + 1
	}
}

// TestPortEventsBounded: more port events than portsDown weighs (a fabric that flaps all day)
// make no claim, and weighing those it does stays quick: every port error against every port
// active of a log at the bound.
func TestPortEventsBounded(t *testing.T) {
	var over strings.Builder
	for pid := 0; pid < 4097; pid++ {
		over.WriteString(portLine("2.21", fmt.Sprintf("n%d", pid/8), 1000+pid, "port error"))
	}
	if r := diagnoseBytes(t, "job.log", []byte(over.String()), 0); r.Status == diagnose.StatusFault {
		t.Errorf("4,097 port errors: a fault claimed:\n%.400s", js(r))
	}
	var at strings.Builder
	for pid := 0; pid < 2048; pid++ {
		at.WriteString(portLine("2.21", "n0", 1000+pid, "port error"))
	}
	for pid := 0; pid < 2048; pid++ {
		at.WriteString(strings.Replace(portLine("2.21", "n0", 1000+pid, "port active"), "mlx5_0:1", "mlx5_1:1", 1))
	}
	if _, ok := firstFault(t, at.String(), diagnose.KindNetworkError); !ok {
		t.Error("2,048 port errors, 2,048 port actives of another device: want the port errors' fault")
	}
}
