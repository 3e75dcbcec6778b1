package diagnose

import (
	"strings"

	"github.com/nccllog/nccllog/parser"
)

// refText is the text an evidence line is cited with: the item's message, or where the line
// has none of its own (a launcher's block head, a field whose value is a number, a RAS Rank
// line), the line said again from what was read of it.
func refText(it *Item) string {
	if it.Ev == evException && strings.HasPrefix(it.Name, parser.OpRequires) {
		return it.Name + " : " + it.Text // TensorFlow's line, as it prints it
	}
	if it.Ev == evTerminate && it.Name != "" && it.Text != "" {
		return "terminate called after throwing an instance of '" + it.Name + "': " + it.Text
	}
	if it.Text != "" && it.Ev != evRootField && !(it.Ev == evRAS && it.Name == "rank") {
		return it.Text
	}
	switch it.Ev {
	case evRAS:
		return rasLineText(it)
	case evTerminate:
		return "terminate called after throwing an instance of '" + it.Name + "'"
	case evRootCause, evRootField, evOtherFailures, evTaskExit, evCancelled, evMPIExit, evMPIProcess:
		return launcherText(it)
	}
	if it.Ev == evSignal && it.Name != "" {
		return it.Name // the signal is all the line says (`Segmentation fault (core dumped)`)
	}
	if it.Name != "" {
		return it.Name + ":"
	}
	return "(" + it.Ev.String() + " line)"
}

// signalName is the signal a finding's process was killed by, as its last signal line names
// it (a crash handler prints its head before the signal's name), or "".
func signalName(c *cand) string {
	for i := len(c.items) - 1; i >= 0; i-- {
		if it := c.items[i]; it.Ev == evSignal && it.Name != "" {
			return it.Name
		}
	}
	return ""
}
