package diagnose

import (
	"slices"
	"strings"
)

// threadKey is one thread of one process: a WARN's chain is the frames its thread prints
// after it.
type threadKey struct {
	host     string
	pid, tid int64
}

// chainCodes ties each WARN to the frames that follow it on its thread, as `nccllog info`
// folds them: codes[i] is the ncclResult of the chain that WARN i starts (its first frame),
// -1 where no frame followed it; frames[i] that first frame's position. bare lists the frames
// no WARN shown before them starts (the WARN is outside the excerpt, or NCCL printed none).
func chainCodes(items []Item) (codes, frames []int, bare []int) {
	codes, frames = make([]int, len(items)), make([]int, len(items))
	last := map[threadKey]int{}     // each thread's last WARN
	started := map[threadKey]bool{} // whether that WARN's chain has begun
	for i := range items {
		it := &items[i]
		codes[i], frames[i] = -1, -1
		if it.Host == "" || it.Pid < 0 {
			continue
		}
		th := threadKey{it.Host, it.Pid, it.Tid}
		switch {
		case it.Ev.isWarn():
			last[th], started[th] = i, false
		case it.Ev == evFrame:
			w, ok := last[th]
			switch {
			case !ok:
				bare = append(bare, i)
			case !started[th]:
				codes[w], frames[w], started[th] = int(it.Code), i, true
			}
		}
	}
	return codes, frames, bare
}

// resultKind is the kind of fault an ncclResult names, for a WARN no phrase classifies that
// starts a chain; false for ncclRemoteError (6), which blames another process.
func resultKind(code int) (Kind, bool) {
	switch code {
	case 1:
		return KindCudaError, true
	case 2:
		return KindSystemError, true
	case 4, 5:
		return KindInvalidUsage, true
	case 6:
		return KindRemoteError, false
	}
	return KindCrash, true // 3: an internal error
}

// chainWarn files a WARN no phrase classifies: a fault origin where an error chain follows
// it (the ncclResult gives the kind), a follow-on where that result is ncclRemoteError, and
// nothing (a notice, advice) where no chain follows.
func (b *builder) chainWarn(it *Item, pos int, p *proc) {
	code := b.codes[pos]
	if code <= 0 {
		return
	}
	k, origin := resultKind(code)
	// A process that already logged a peer closing or a follow-on passes that error on.
	if !origin || (p != nil && (b.hasConsequence(p) || b.peerClosedOn(p))) {
		b.consequence(KindRemoteError, it, pos, p)
		return
	}
	c := newCand(k, true)
	c.add(it, pos, p)
	b.addFrame(c, pos)
	b.ownAdd(p, c)
}

// addFrame adds the first frame of the chain WARN pos starts to c's evidence: the line that
// makes a WARN no phrase classifies a fault.
func (b *builder) addFrame(c *cand, pos int) {
	if f := b.frames[pos]; f >= 0 {
		c.add(&b.e.Items[f], f, nil)
	}
}

// foldBare files the chains whose WARN the log does not show as follow-on errors of the
// processes with no origin of their own. They prove no fault alone (an excerpt can start
// inside a chain), so they are filed only once another line proved one.
func (b *builder) foldBare(first []*proc) {
	for _, i := range b.bare {
		it := &b.e.Items[i]
		if p := b.x.of(it); p != nil && b.own[p] == nil && !slices.Contains(first, p) {
			b.consequence(KindRemoteError, it, i, p)
		}
	}
}

// firstWarn is the text of c's first WARN where c's last item, which a finding's sentence
// quotes by default, is a frame of its chain; text otherwise.
func firstWarn(c *cand, text string) string {
	if last := c.items[len(c.items)-1]; last.Ev != evFrame || last.Text != text {
		return text
	}
	for _, it := range c.items {
		if it.Ev.isWarn() {
			return it.Text
		}
	}
	return text
}

// lostPeer is the first line of c that names its peer by a failed send or receive (`Call to
// recv from <addr> failed : Broken pipe`, `Connection reset by peer`) rather than by
// `Connection closed by remote peer`, "" where none does.
func lostPeer(c *cand) string {
	for _, it := range c.items {
		if !strings.Contains(it.Text, "Connection closed by remote peer") {
			return it.Text
		}
	}
	return ""
}

// peerClosedOn reports whether p logged that a peer closed its connection.
func (b *builder) peerClosedOn(p *proc) bool {
	for _, c := range b.closed {
		if slices.Contains(c.procs, p) {
			return true
		}
	}
	return false
}
