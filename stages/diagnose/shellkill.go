package diagnose

import (
	"bytes"
	"strconv"

	"github.com/nccllog/nccllog/stages"
)

// A shell running the training command reports a child that a signal ended, with its pid:
//
//	/var/spool/slurmd/job123/slurm_script: line 12: 45678 Killed                  python train.py
//	./run.sh: line 3: 12345 Segmentation fault      (core dumped) python train.py
//
// It is the process's end by that signal (SIGKILL's "Killed" is often the kernel's OOM
// killer), read as a signal line that names the process by its pid.

var shellLineWords = []byte(": line ")

// shellWithin bounds where the words may start: after the script's path.
const shellWithin = 256

// shellSignals are the descriptions bash prints for the signals that end a process on its
// own account; SIGTERM's "Terminated" is left out, as it is what a launcher sends the others.
var shellSignals = [...]string{"Killed", "Aborted", "Segmentation fault", "Bus error", "Floating point exception", "Illegal instruction"}

// mayBeShellKill reports whether t may be such a line: it opens with a path or `bash:`.
func mayBeShellKill(t []byte) bool { return t[0] == '/' || t[0] == '.' || t[0] == 'b' }

// addShellKill keeps t, other text past a label, where it is the shell's line.
func (p *Part) addShellKill(l *stages.Line, t []byte) {
	i := bytes.Index(t[:min(len(t), shellWithin)], shellLineWords)
	if i < 0 {
		return
	}
	rest := t[i+len(shellLineWords):]
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	if j == 0 || !bytes.HasPrefix(rest[j:], []byte(": ")) {
		return
	}
	rest = bytes.TrimLeft(rest[j+2:], " ")
	k := 0
	for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
		k++
	}
	pid, err := strconv.ParseInt(string(rest[:k]), 10, 64)
	if k == 0 || err != nil || k >= len(rest) || rest[k] != ' ' {
		return
	}
	desc := rest[k+1:]
	for _, s := range shellSignals {
		if bytes.HasPrefix(desc, []byte(s)) && (len(desc) == len(s) || desc[len(s)] == ' ') {
			it := newItem(evSignal, l.N, l.P)
			it.Pid, it.Name = pid, s // the signal is the line's word, as a crash handler's is
			p.keep(it)
			return
		}
	}
}
