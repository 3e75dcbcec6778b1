package diagnose_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// chainOnly is a process's return-code chain with no WARN: its async thread's frames, then
// its main thread's (tid main) through group.cc, returning code.
func chainOnly(main, code string) string {
	var b strings.Builder
	for _, f := range []string{"misc/socket.cc:564", "misc/socket.cc:615", "bootstrap.cc:270", "init.cc:1303"} {
		b.WriteString("nd1:500:900 [0] NCCL INFO " + f + " -> " + code + "\n")
	}
	b.WriteString("nd1:500:900 [0] NCCL INFO group.cc:64 -> " + code + " [Async thread]\n")
	b.WriteString("nd1:500:" + main + " [0] NCCL INFO group.cc:422 -> " + code + "\n")
	return b.String()
}

// TestAPIChain: a chain with no WARN that returns an origin's ncclResult through NCCL's API
// on the process's main thread, or from an asynchronous init's job (`group.cc:64 -> 2 [Async
// thread]`), or a system error in the network transport's set-up of a connection on any
// thread, is that process's failed call, where nothing else in the log is a fault; an API
// return on another thread alone, a chain that never reaches the API or the network
// transport (a probe of the network at init, a transport's frames), one of ncclRemoteError
// (another process's fault) or one beside a WARN of another process is not.
func TestAPIChain(t *testing.T) {
	// A chain that begins in the socket code (a bootstrap connect) is the network's.
	f, ok := firstFault(t, chainOnly("500", "2"), diagnose.KindNetworkError)
	if ok && (!strings.HasPrefix(f.Summary, "nd1:500's NCCL call failed first: it returned ncclSystemError (group.cc:422)") ||
		len(f.Evidence) == 0 || f.Evidence[0].Line != 1) {
		t.Errorf("the finding does not say the call failed, from the chain's first frame: %s", js(diagnoseBytes(t, "job.log", []byte(chainOnly("500", "2")), 0)))
	}
	// A paste that made each `.cc` place a markdown link (`.cc` is a top-level domain) reads
	// as the chain NCCL printed.
	linked := regexp.MustCompile(`([a-z]+\.cc:[0-9]+)`).ReplaceAllString(chainOnly("500", "2"), "[$1](http://$1/)")
	if f, ok := firstFault(t, linked, diagnose.KindNetworkError); ok && !strings.HasPrefix(f.Summary, "nd1:500's NCCL call failed first: it returned ncclSystemError (group.cc:422)") {
		t.Errorf("a chain of markdown links: %q", f.Summary)
	}
	for name, c := range map[string]struct {
		log  string
		kind diagnose.Kind
		says string
	}{
		"async job": {"nd1:500:900 [2] NCCL INFO graph/paths.cc:312 -> 3\nnd1:500:900 [2] NCCL INFO transport/net.cc:140 -> 3\n" +
			"nd1:500:900 [2] NCCL INFO init.cc:904 -> 3\nnd1:500:900 [2] NCCL INFO group.cc:72 -> 3 [Async thread]\n",
			diagnose.KindInternalError, "nd1:500's NCCL call failed first: it returned ncclInternalError (group.cc:72) with no WARN; its chain begins at graph/paths.cc:312."},
		"proxy connect": {"nd1:500:1316 [0] NCCL INFO include/net.h:25 -> 2\nnd1:500:1316 [0] NCCL INFO transport/net.cc:515 -> 2\n",
			diagnose.KindNetworkError, "nd1:500's network connection failed first: its chain returned ncclSystemError (transport/net.cc:515) with no WARN; it begins at include/net.h:25."},
	} {
		r := diagnoseBytes(t, name, []byte(c.log), 0)
		if r.Status != diagnose.StatusFault || r.Findings[0].Kind != c.kind || r.Findings[0].Summary != c.says {
			t.Errorf("%s: want a %s: %q:\n%s", name, c.kind, c.says, js(r))
		}
	}
	quiet := map[string]string{
		"another thread":  strings.ReplaceAll(strings.ReplaceAll(chainOnly("901", "2"), " [Async thread]", ""), "group.cc:64", "init.cc:1400"),
		"no API frame":    "nd1:500:500 [0] NCCL INFO transport/p2p.cc:282 -> 1\nnd1:500:500 [0] NCCL INFO transport.cc:40 -> 1\n",
		"network probe":   "nd1:500:500 [0] NCCL INFO transport/net_ib.cc:282 -> 2\nnd1:500:500 [0] NCCL INFO misc/ibvwrap.cc:80 -> 2\n",
		"ncclRemoteError": chainOnly("500", "6"),
	}
	for name, log := range quiet {
		if r := diagnoseBytes(t, name, []byte(log), 0); r.Status == diagnose.StatusFault {
			t.Errorf("%s: a fault:\n%s", name, js(r))
		}
	}
	warn := "nd2:600:600 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer nd3<40318>\n"
	if r := diagnoseBytes(t, "job.log", []byte(warn+chainOnly("500", "2")), 0); len(r.Findings) > 0 &&
		strings.Contains(r.Findings[0].Summary, "NCCL call failed") {
		t.Errorf("beside another process's fault, the chain is not the first fault:\n%s", js(r))
	}
}

// TestAPIChainBeforeClosed: a local rank whose call failed without a WARN, and then a
// process of its host that logged a connection closed by a peer on that host: the failed
// call is the first fault (its process is the peer that went away), the closed connection
// follows it. Where the closed connection comes first, it stays the first fault.
func TestAPIChainBeforeClosed(t *testing.T) {
	closed := "nd1:501:950 [1] misc/socket.cc:50 NCCL WARN socketProgress: Connection closed by remote peer nd1<55133>\n"
	r := diagnoseBytes(t, "job.log", []byte(chainOnly("500", "2")+closed), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) < 2 || !slices.Equal(r.Findings[0].Processes, []string{"nd1:500"}) ||
		!slices.ContainsFunc(r.Findings[1:], func(f diagnose.Finding) bool {
			return f.Kind == diagnose.KindConnectionClosed && f.Follows != nil && *f.Follows == 0
		}) {
		t.Errorf("chain, then closed: want nd1:500's failed call first and the closed connection after it:\n%s", js(r))
	}
	r = diagnoseBytes(t, "job.log", []byte(closed+chainOnly("500", "2")), 0)
	if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindConnectionClosed {
		t.Errorf("closed, then chain: want the closed connection first:\n%s", js(r))
	}
}

// TestExceptionAfterOwnError: a process's WARN of a named kind (a refused connect), then the
// program's bare exception: the finding keeps the WARN's kind; an application's exception
// alone, first, keeps its own. torch.multiprocessing.spawn's `Exception:` over a child's
// error is no origin in either order (spawn.go); alone it is a process's end.
func TestExceptionAfterOwnError(t *testing.T) {
	warn := "nd1:500:900 [7] include/socket.h:387 NCCL WARN Connect to 10.0.0.2<52473> failed : Connection refused\n"
	exc := "Traceback (most recent call last):\n  File \"train.py\", line 306, in <module>\n    main()\nException: \n"
	app := "Traceback (most recent call last):\n  File \"train.py\", line 306, in <module>\n    main()\nKeyError: 'labels'\n"
	if _, ok := firstFault(t, warn+exc, diagnose.KindNetworkError); !ok {
		t.Errorf("WARN, then exception: want the WARN's network-error")
	}
	if _, ok := firstFault(t, app+warn, diagnose.KindCrash); !ok {
		t.Errorf("exception, then WARN: want the exception's crash")
	}
	if _, ok := firstFault(t, exc+"\n-- Process 7 terminated with the following error:\n"+warn, diagnose.KindNetworkError); !ok {
		t.Errorf("spawn's exception, then the child's WARN: want the WARN's network-error")
	}
	if f, ok := firstFault(t, exc, diagnose.KindProcessExit); ok && !strings.Contains(f.Summary, "torch.multiprocessing.spawn") {
		t.Errorf("spawn's exception alone: %q", f.Summary)
	}
}
