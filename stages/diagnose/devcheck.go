package diagnose

import (
	"strings"
)

// NCCL 2.4 to 2.7 checked the ranks' calls on the device: a rank waiting on a connection
// whose peer has moved on to later operations says so, naming its own rank (comm->rank):
//
//	init.cc:883 NCCL WARN Mismatched collective detected, please check your collective calls at and around rank 1. ...
//	init.cc:892 NCCL WARN Your program may be hanging, this may be caused by a collective mismatch around rank 1. ...
//
// The first is asserted (the peer's later operation was seen, ncclInvalidUsage); the second
// suspected (the LL protocols, which cannot assert it: the peer advanced twenty times while
// this rank still waited). Either is a mismatch of the ranks' calls seen from rank N.

const (
	devMismatchAsserted  = "Mismatched collective detected"
	devMismatchSuspected = "may be caused by a collective mismatch around rank "
)

// devMismatch reads NCCL's device check from a WARN item: the rank it names, whether the
// mismatch is only suspected, and false where it is no such WARN.
func devMismatch(it *Item) (rank int64, suspected, ok bool) {
	if it.Ev != evInvalid {
		return 0, false, false
	}
	t := it.Text
	at := ""
	switch {
	case strings.Contains(t, devMismatchAsserted):
		at = "around rank "
	case strings.Contains(t, devMismatchSuspected):
		at, suspected = devMismatchSuspected, true
	default:
		return 0, false, false
	}
	i := strings.Index(t, at)
	if i < 0 {
		return 0, false, false
	}
	r, n := decimalAt(t[i+len(at):])
	if n == 0 {
		return 0, false, false
	}
	return r, suspected, true
}

// devMismatchSummary is the sentence of a finding whose evidence opens with NCCL's device
// check; "" where it does not.
func devMismatchSummary(c *cand) string {
	for _, it := range c.items {
		r, suspected, ok := devMismatch(it)
		if !ok {
			continue
		}
		if suspected {
			return "Rank " + itoa(r) + " waited on a collective its peers had moved past: NCCL suspects the ranks issued different collectives at or around rank " + itoa(r) + " (the job likely hangs there; check the calls each rank made): " + short(it.Text)
		}
		return "Rank " + itoa(r) + "'s device saw a peer issue a different collective: the ranks' calls differ at or around rank " + itoa(r) + " (check the calls each rank made): " + short(it.Text)
	}
	return ""
}

// ibSizeMismatch is in net_ib.cc's WARN where a peer sent more than the receive this rank
// posted (`NET/IB : req 0/1 tag 0 peer 10.0.0.6<58683> collective mismatch error, local size
// 496640 remote size 65536`): the ranks called collectives of different sizes, NCCL's own
// word for which is a mismatch.
const ibSizeMismatch = "collective mismatch error"
