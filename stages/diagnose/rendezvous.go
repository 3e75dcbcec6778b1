package diagnose

import (
	"strconv"
	"strings"
)

// The c10d store's server (on the master, rank 0) waits for every process to join, and gives
// up with `torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients.
// 3/4 clients joined.`: a process never started, or could not reach the master's address and
// port. The line is the master's, and names no one who is missing.

// storeJoinHead opens that message.
const storeJoinHead = "waiting for clients. "

// storeJoined is the clients that joined and those expected, from a store's join timeout;
// false where text is none.
func storeJoined(text string) (joined, want int64, ok bool) {
	i := strings.Index(text, storeJoinHead)
	if i < 0 || !strings.Contains(text, "Timed out after ") {
		return 0, 0, false
	}
	rest := text[i+len(storeJoinHead):]
	a, b, found := strings.Cut(rest, "/")
	if !found {
		return 0, 0, false
	}
	b, _, found = strings.Cut(b, " clients joined")
	if !found {
		return 0, 0, false
	}
	j, err1 := strconv.ParseInt(a, 10, 64)
	w, err2 := strconv.ParseInt(b, 10, 64)
	return j, w, err1 == nil && err2 == nil && j >= 0 && w > j
}

// joinSummary is the sentence of a finding whose text is a store's join timeout, "" where it
// is none.
func joinSummary(c *cand, text string) string {
	j, w, ok := storeJoined(text)
	if !ok {
		return ""
	}
	head := "The job's processes never all met"
	if w := who(c); w != "a process" {
		head = w + ": the job's processes never all met"
	}
	return head + ": the c10d store on the master waited for " +
		strconv.FormatInt(w, 10) + " and " + strconv.FormatInt(j, 10) + " joined (" + short(text) +
		"); a process never started, or could not reach the master's address and port."
}
