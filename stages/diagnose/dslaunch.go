package diagnose

import (
	"bytes"
	"strconv"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// DeepSpeed's launcher watches its children and, on the first that ends with a non-zero code,
// says so and kills the others:
//
//	[2024-03-05 10:11:12,345] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', '-u', 'train.py', '--local_rank=3'] exits with return code = -9
//
// It is the launcher's word on the child that failed first (read as torchrun's agent's
// line, evAgentExit): its local rank where the command line passes one, its exit code (a
// negative one is the signal).

var dsExitWords = []byte("] exits with return code = ")

// dsWithin bounds where the words may start before the line's end: the code is its last word.
const dsWithin = 48

// mayBeDSExit reports whether t may be the launcher's line: it ends with ` = ` and a code.
func mayBeDSExit(t []byte) bool {
	j := len(t) - 1
	for j > 0 && t[j] >= '0' && t[j] <= '9' {
		j--
	}
	if j > 0 && t[j] == '-' {
		j--
	}
	return j >= 2 && j < len(t)-1 && t[j] == ' ' && t[j-1] == '=' && t[j-2] == ' '
}

// addDSExit keeps t, other text past a label, where it is DeepSpeed's launcher's line.
func (p *Part) addDSExit(l *stages.Line, t []byte) {
	tail := t[max(0, len(t)-dsWithin-len(dsExitWords)):]
	i := bytes.Index(tail, dsExitWords)
	if i < 0 || !bytes.Contains(t, []byte("launch.py:")) {
		return
	}
	code, err := strconv.ParseInt(string(bytes.TrimSpace(tail[i+len(dsExitWords):])), 10, 64)
	if err != nil || code == 0 {
		return
	}
	it := newItem(evAgentExit, l.N, l.P)
	it.Rank, it.RankLast, it.Local, it.Code = -1, -1, -1, code
	it.Name = parser.ExitSignal(code)
	if j := bytes.Index(t, []byte("--local_rank=")); j >= 0 {
		if v, ok := leadingInt(t[j+len("--local_rank="):]); ok {
			it.Local = v
		}
	}
	it.Text = "exits with return code = " + strconv.FormatInt(code, 10)
	if it.Local >= 0 {
		it.Text = "--local_rank=" + strconv.FormatInt(it.Local, 10) + " " + it.Text
	}
	p.keep(it)
}
