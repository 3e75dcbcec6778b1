package diagnose

import "bytes"

// PyTorch (2.2+) opens each line of its C++ log with the process's global rank,
// `[rank13]:[E218 04:54:22.864467604 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught ...`,
// while the rank in the message is the process group's: `[Rank 1]` of a group whose id the
// line leaves out (before PyTorch 2.4) is not global rank 1. A collector's or platform's
// prefix may come first (` 2025-02-18 12:54 [rank13]:[E218 ...`), which the parser does not
// read as a label.

// maxLabelAt bounds where a watchdog line's `[rankN]:` label may start: behind a collector's
// time and a launcher's prefix or two, never in the message.
const maxLabelAt = 160

// maxLabelDigits bounds a label's rank: more digits are no rank of a job.
const maxLabelDigits = 9

// globalLabel is the rank of the last `[rankN]:` label, followed by a bracket (the log
// head), that t holds before maxLabelAt; -1 where it holds none. The last: a watchdog line
// glued behind another process's labelled line is the second label's.
func globalLabel(t []byte) int64 {
	t = t[:min(len(t), maxLabelAt)]
	label := int64(-1)
	for off := 0; ; {
		i := bytes.Index(t[off:], []byte("[rank"))
		if i < 0 {
			return label
		}
		off += i + len("[rank")
		v, n := decimalAt(t[off:])
		if j := off + n; n > 0 && n <= maxLabelDigits && j+2 < len(t) && t[j] == ']' && t[j+1] == ':' && t[j+2] == '[' {
			label = v
		}
	}
}

// labelled is the watchdog item it of a line whose text t carries PyTorch's `[rankN]:`
// label: the label's rank is the process's global rank, whatever group the message's is.
func labelled(it Item, t []byte) Item {
	if g := globalLabel(t); g >= 0 {
		it.Rank, it.RankLast, it.GroupRank = g, g, false
	}
	return it
}
