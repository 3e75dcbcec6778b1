package parser

import (
	"strconv"
	"strings"
)

// failureText is a message as Failure.Text keeps it: without the white space that ends it,
// at most MaxFailureText bytes.
func failureText(s string) string {
	s = trimLexSp(s)
	if len(s) > MaxFailureText {
		s = s[:MaxFailureText]
	}
	return strings.Clone(s)
}

// trimLexSp trims the lexer's white space ([\t\n\f\r ]) from both ends of s.
func trimLexSp(s string) string { return strings.Trim(s, " \t\n\f\r") }

// taskExit reads `srun: error: <node>: task(s) <list>: <status>`: the list's first and last
// task, and the status's exit code or signal.
func taskExit(f Failure, t *gFailTaskExit) (Failure, bool) {
	first, last, ok := taskList(strings.Join(t.Tasks, ""))
	if !ok {
		return f, false
	}
	f.Event, f.Host, f.Task, f.TaskLast = FailureTaskExit, strings.Join(t.Host, ""), first, last
	f.Text = failureText(strings.Join(t.Status, ""))
	if c, ok := strings.CutPrefix(f.Text, "Exited with exit code "); ok {
		if v, err := parseDec(c); err == nil {
			f.ExitCode, f.HasExit = v, true
			return f, true
		}
	}
	f.Signal = strings.TrimSuffix(f.Text, " (core dumped)")
	return f, true
}

// taskList reads Slurm's task list `3`, `0-3`, `0,2-3`: its first and last task.
func taskList(s string) (first, last int64, ok bool) {
	first, last = -1, -1
	for _, r := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(r, "-")
		a, err := strconv.ParseInt(lo, 10, 64)
		if err != nil || a < 0 {
			return -1, -1, false
		}
		b := a
		if isRange {
			if b, err = strconv.ParseInt(hi, 10, 64); err != nil || b < a {
				return -1, -1, false
			}
		}
		if first < 0 {
			first = a
		}
		last = b
	}
	return first, last, true
}

// failureCancelReason reads what follows CANCELLED: `AT <time> [DUE TO <reason>] ***`; the
// reason, or "".
func failureCancelReason(tail string) string {
	tail = strings.TrimSuffix(trimLexSp(tail), "***")
	if _, r, ok := strings.Cut(tail, " DUE TO "); ok {
		return failureText(r)
	}
	return ""
}

// rootField reads one field of torchrun's failure block: only in the template's spacing
// (two spaces of indent, the name padded to ten columns) and with a value of the field's form.
func rootField(f Failure, fl *gFailField, indented bool) (Failure, bool) {
	if !indented || len(fl.Name)+len(fl.Pad) != 10 || strings.Trim(fl.Pad, " ") != "" {
		return f, false
	}
	v := trimLexSp(strings.Join(fl.Value, ""))
	f.Event, f.Field = FailureRootField, fl.Name
	switch fl.Name {
	case "time", "host":
		if v == "" || strings.ContainsAny(v, " \t") {
			return f, false
		}
		if fl.Name == "host" {
			f.Host = v
		}
		f.Text = failureText(v)
	case "rank":
		ok := pairField(v, "local_rank", &f.Task, &f.LocalRank)
		f.TaskLast = f.Task
		return f, ok
	case "exitcode":
		f.HasExit = true
		return f, pairField(v, "pid", &f.ExitCode, &f.Pid)
	default:
		f.Text = failureText(v)
	}
	return f, true
}

// pairField reads `<a> (<name>: <b>)`.
func pairField(v, name string, a, b *int64) bool {
	x, rest, ok := strings.Cut(v, " ("+name+": ")
	y, ok2 := strings.CutSuffix(rest, ")")
	if !ok || !ok2 {
		return false
	}
	va, err1 := parseDec(x)
	vb, err2 := parseDec(y)
	if err1 != nil || err2 != nil {
		return false
	}
	*a, *b = va, vb
	return true
}

// name is the signal a crash line names: "Segmentation fault", "Aborted", the Fatal Python
// error's text, or a crash handler's SIGxxx; "" where the line names none.
func (s *gFailSignal) name() string {
	switch {
	case s.Segv:
		return "Segmentation fault"
	case s.Abort:
		return "Aborted"
	case s.Fatal != nil:
		return failureText(strings.Join(s.Fatal, ""))
	case strings.HasPrefix(s.Handle, "SIG") && len(s.Handle) > 3:
		return strings.Clone(s.Handle)
	}
	return ""
}

// isExceptionName reports whether s names a Python exception class: a dotted name whose
// last part starts with a capital and ends in Error or Exception (RuntimeError,
// torch.OutOfMemoryError, torch.distributed.DistBackendError); NCCL's own result names
// (ncclRemoteError) start in lower case and are not.
func isExceptionName[T text](s T) bool {
	if len(s) > maxExceptionName {
		return false // no Python name runs that long; the gate looks no further either
	}
	dot := -1
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' {
			dot = i
			break
		}
	}
	last := s[dot+1:]
	if len(last) == 0 || last[0] < 'A' || last[0] > 'Z' || !(hasSuffix(last, "Error") || hasSuffix(last, "Exception")) {
		return false
	}
	prev := byte('.')
	for i := 0; i < len(s); i++ {
		c := s[i]
		isID := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !isID && (c != '.' || prev == '.') || prev == '.' && c >= '0' && c <= '9' {
			return false // an empty part, or one opening with a digit: no Python name
		}
		prev = c
	}
	return s[0] != '.'
}

// hasSuffix reports whether s ends in suffix.
func hasSuffix[T text](s T, suffix string) bool {
	return len(s) >= len(suffix) && string(s[len(s)-len(suffix):]) == suffix
}
