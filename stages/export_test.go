package stages

// WaitingOf returns what m holds while lines wait for their step: the pending stretch's
// Partials, and how many of its bytes it may yet have to spill (for the external tests).
func WaitingOf(m *Merger) (*Set, int) { return m.pending, len(m.wait.raw) }
