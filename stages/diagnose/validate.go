package diagnose

import "github.com/nccllog/nccllog/stages"

// validate checks that what a partial result's evidence declares can be true of some logs:
// no more than the caps keep, counts that add up, each item counted under its key, each
// communicator once.
func validate(e *Evidence) error {
	if err := stages.CheckCounts(" of the diagnose evidence", stages.Named{Name: "evidence lines", N: e.Seen},
		stages.Named{Name: "communicator lines left out", N: e.CommsLeft}); err != nil {
		return err
	}
	switch {
	case len(e.Items) > maxItems:
		return stages.Damaged("%d diagnose items, more than the %d a run keeps", len(e.Items), maxItems)
	case len(e.Counts) > maxKeys:
		return stages.Damaged("%d diagnose keys, more than the %d a run keeps", len(e.Counts), maxKeys)
	case len(e.Comms) > maxComms:
		return stages.Damaged("%d communicators in the diagnose evidence, more than the %d a run keeps", len(e.Comms), maxComms)
	}
	counts := make(map[capKey]int64, len(e.Counts))
	var sum int64
	for _, c := range e.Counts {
		if _, dup := counts[c.capKey]; dup || c.N < 1 || c.N > stages.MaxPartialCount {
			return stages.Damaged("a diagnose key is listed twice or counts %d lines", c.N)
		}
		counts[c.capKey] = c.N
		sum += c.N
	}
	if sum > e.Seen || int64(len(e.Items)) > sum {
		return stages.Damaged("the diagnose keys count %d lines and %d are kept, of %d evidence lines", sum, len(e.Items), e.Seen)
	}
	kept := map[capKey]int64{}
	for i := range e.Items {
		it := &e.Items[i]
		k := keyOf(it)
		kept[k]++
		if kept[k] > min(counts[k], maxPerKey) || it.Line < 0 || it.Ev == evNone || (it.Rank >= 0 && it.RankLast < it.Rank) {
			return stages.Damaged("diagnose item %d (%s:%d) is not counted under its key", i, it.File, it.Line)
		}
	}
	if err := checkRAS(e); err != nil {
		return err
	}
	return checkComms(e.Comms)
}

func checkComms(cs []*commState) error {
	seen := map[commKey]bool{}
	for _, c := range cs {
		if c == nil || seen[c.commKey] {
			return stages.Damaged("a communicator is listed twice (or empty) in the diagnose evidence")
		}
		seen[c.commKey] = true
		bad := false
		c.marks(func(m *Mark) { bad = bad || m.Line < 0 })
		if bad || (c.Rank >= 0 && c.NRanks >= 0 && c.Rank >= c.NRanks) {
			return stages.Damaged("communicator %#x of %s:%d: a rank outside it or a negative line", c.Comm, c.Host, c.Pid)
		}
	}
	return nil
}
