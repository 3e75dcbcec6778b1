package diagnose

import "strings"

// torch.multiprocessing.spawn's parent re-raises a child's failure as an exception whose
// message, on the lines after it, holds the child's own traceback:
//
//	Exception:
//
//	-- Process 1 terminated with the following error:
//	Traceback (most recent call last):
//	...
//
// (`torch.multiprocessing.spawn.ProcessRaisedException:` in later versions). The exception
// line says only that a child failed: the child's error (its WARN, its exception's line) is
// the origin, in whatever order the two processes' output reached the log. Alone it is a
// process's end the log does not explain.

// spawnWrapper reports whether it is the spawn parent's exception: a bare `Exception` or a
// ProcessRaisedException, its message empty on its own line.
func spawnWrapper(it *Item) bool {
	return it.Ev == evException && strings.TrimSpace(it.Text) == "" &&
		(it.Name == "Exception" || strings.HasSuffix(it.Name, "ProcessRaisedException"))
}

// spawnSummary is the sentence of a spawn parent's exception that nothing else explains.
const spawnSummary = "A process that torch.multiprocessing.spawn started ended with an error, as its parent reports (`Exception:` over `-- Process N terminated with the following error:`); the child's own error is not in the log."
