package diagnose

import "strings"

// NCCL's init compares the ranks' GPUs by host and bus id, and each rank that finds another
// on its own GPU says so, naming itself first (init.cc, ncclInvalidUsage):
//
//	init.cc:639 NCCL WARN Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1000
//
// PyTorch repeats it as the exception's `Last error:`. Both ranks are the fault's subject: a
// launcher or a script that gave two ranks one device (CUDA_VISIBLE_DEVICES, a forced default
// GPU), whichever of the two the paste shows.
const dupGPU = "Duplicate GPU detected : rank "

// dupGPURanks reads the two ranks of NCCL's duplicate GPU WARN, and false where it is no such
// line.
func dupGPURanks(it *Item) (a, b int64, ok bool) {
	if it.Ev != evInvalid && it.Ev != evLastError {
		return 0, 0, false
	}
	t := it.Text
	i := strings.Index(t, dupGPU)
	if i < 0 {
		return 0, 0, false
	}
	t = t[i+len(dupGPU):]
	a, n := decimalAt(t)
	if n == 0 || !strings.HasPrefix(t[n:], " and rank ") {
		return 0, 0, false
	}
	t = t[n+len(" and rank "):]
	b, m := decimalAt(t)
	if m == 0 {
		return 0, 0, false
	}
	return a, b, true
}

// namedRanks adds to c the ranks its line's text names as the fault's own: the rank two
// processes claimed at the bootstrap root (which the root is neither of), the rank whose
// device saw a mismatch, the two ranks on one GPU.
func namedRanks(c *cand, it *Item) {
	if r, _, ok := dupRank(it); ok {
		c.ranks, c.onlyRanks = append(c.ranks, r), true
		return
	}
	if r, _, ok := devMismatch(it); ok {
		c.addRank(r) // the rank whose device saw it (devcheck.go)
		return
	}
	if a, b, ok := dupGPURanks(it); ok {
		c.addRank(a)
		c.addRank(b)
	}
}

// dupGPUSummary is the sentence of a finding whose evidence is the duplicate GPU WARN; ""
// where it is not.
func dupGPUSummary(c *cand) string {
	for _, it := range c.items {
		a, b, ok := dupGPURanks(it)
		if !ok {
			continue
		}
		return "Ranks " + itoa(min(a, b)) + " and " + itoa(max(a, b)) + " were given one GPU (the launcher's or the script's device settings: CUDA_VISIBLE_DEVICES, a default device; one GPU a rank): " + short(it.Text)
	}
	return ""
}
