package diagnose

// refText is the text an evidence line of it shows: its message, or, for a line whose words
// are its head alone (torchrun's `Root Cause` head, a `rank : 3` field, a terminate's type),
// what the line says. No evidence line prints empty.
func refText(it *Item) string {
	if it.Text != "" {
		return it.Text
	}
	s := ""
	switch it.Ev {
	case evRootCause:
		s = "Root Cause (first observed failure)"
	case evOtherFailures:
		s = "Other Failures"
	case evCancelled:
		s = "the job step was cancelled"
		if it.Host != "" {
			s += " on " + it.Host
		}
	case evMPIExit:
		s = "a process exited with non-zero status"
	case evRootField, evMPIProcess:
		s = fieldText(it)
	case evTerminate:
		if it.Name != "" {
			s = "terminate called after throwing an instance of '" + it.Name + "'"
		}
	case evRAS:
		s = rasText(it)
	case evSignal, evException, evNCCLResult:
		s = it.Name
	}
	if s == "" {
		s = "(" + it.Ev.String() + ")"
	}
	return s
}

// fieldText writes what a launcher's field line names: torchrun's rank or exit code (and
// pid), Open MPI's process or exit code.
func fieldText(it *Item) string {
	switch {
	case it.Ev == evRootField && it.Name == "exitcode" && it.Pid >= 0:
		return "exitcode: " + itoa(it.Code) + " (pid: " + itoa(it.Pid) + ")"
	case it.Ev == evRootField && it.Name != "" && it.Rank >= 0:
		return it.Name + ": " + itoa(it.Rank)
	case it.Ev == evRootField:
		return it.Name
	case it.Rank >= 0:
		return "Process name: rank " + itoa(it.Rank)
	case it.Code != -1:
		return "Exit code: " + itoa(it.Code)
	}
	return ""
}

// rasText writes a RAS line that printed no message: its rank line's fields, or its part.
func rasText(it *Item) string {
	if it.Name != "rank" || it.Rank < 0 {
		return it.Name
	}
	s := "Rank " + itoa(it.Rank)
	if it.Pid >= 0 {
		s += " -- process " + itoa(it.Pid)
	}
	if it.Host != "" {
		s += " on node " + it.Host
	}
	return s
}
