package diagnose

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/nccllog/nccllog/stages"
)

// Ray prints each worker's output under `(Name pid=N, ip=A) ` and its node daemon's under
// `(raylet) `. The daemon reports a worker that died, and its memory monitor the workers it
// killed:
//
//	(raylet) A worker died or was killed while executing a task by an unexpected system error. To troubleshoot the problem, check the logs for the dead worker. RayTask ID: ... Worker IP address: 172.19.24.110 Worker port: 10185 Worker PID: 90738 Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file. There are some potential root causes. ...
//	(raylet) [2023-04-09 07:23:59,445 E 395 395] (raylet) node_manager.cc:3049: 10 Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: e5d9..., IP: 10.0.62.231) over the last time period. ...
//
// Both are the launcher's word on processes that ended (evRayExit): the first names the
// worker by its address and pid, the second only the node.

var (
	rayletHead  = []byte("(raylet)")
	rayDiedHead = []byte("A worker died or was killed while executing a task")
	rayOOMWords = []byte(" Workers (tasks / actors) killed due to memory pressure (OOM), ")
)

// Names of a Ray exit item: the worker's exit type where the raylet names it, else what
// killed the node's workers.
const (
	rayNameOOM     = "OOM"
	rayNameCrashed = "crashed"
)

// maxRayPrefix bounds where a worker's `(Name pid=N, ip=A) ` prefix ends.
const maxRayPrefix = 160

// addRay keeps a raylet's line on workers that ended. It reports whether t was the raylet's.
func (p *Part) addRay(l *stages.Line) bool {
	t := l.Text
	if !bytes.HasPrefix(t, rayletHead) {
		return false
	}
	if i := bytes.Index(t, rayDiedHead); i >= 0 {
		p.addRayDied(l, t[i:])
	} else if i := bytes.Index(t, rayOOMWords); i >= 0 {
		p.addRayOOM(l, t, i)
	}
	return true
}

// addRayDied keeps `A worker died ...`, msg from its head on.
func (p *Part) addRayDied(l *stages.Line, msg []byte) {
	typ := rayField(msg, "Worker exit type: ", ' ')
	if bytes.HasPrefix(typ, []byte("INTENDED")) {
		return // the worker was told to exit
	}
	it := newItem(evRayExit, l.N, l.P)
	it.Host = string(clipBytes(rayField(msg, "Worker IP address: ", ' '), maxHostLen))
	if pid, err := strconv.ParseInt(string(rayField(msg, "Worker PID: ", ' ')), 10, 64); err == nil && pid >= 0 {
		it.Pid = pid
	}
	it.Name = clip(typ)
	detail := rayField(msg, "Worker exit detail: ", 0)
	if j := bytes.Index(detail, []byte(" There are some potential root causes")); j >= 0 {
		detail = detail[:j]
	}
	it.Text = clip(detail)
	if it.Text == "" {
		it.Text = clip(msg)
	}
	p.keep(it)
}

// addRayOOM keeps the memory monitor's summary, whose words start at t[i:], where it counts
// a worker killed or crashed.
func (p *Part) addRayOOM(l *stages.Line, t []byte, i int) {
	killed := lastNumber(t[:i])
	crashed, _ := leadingInt(t[i+len(rayOOMWords):])
	if killed <= 0 && crashed <= 0 {
		return
	}
	it := newItem(evRayExit, l.N, l.P)
	it.Name = rayNameOOM
	if killed <= 0 {
		it.Name = rayNameCrashed
	}
	it.Host = string(clipBytes(rayField(t[i:], "IP: ", ')'), maxHostLen))
	start := i // the count's digits before the words, where there are any
	if killed >= 0 {
		start -= digits(killed)
	}
	end := bytes.Index(t[i:], []byte(" over the last time period"))
	if end < 0 {
		end = len(t) - i
	}
	it.Text = clip(t[start : i+end])
	p.keep(it)
}

// rayField is the value after key in msg, up to the byte stop (0: to the end), or nil.
func rayField(msg []byte, key string, stop byte) []byte {
	i := bytes.Index(msg, []byte(key))
	if i < 0 {
		return nil
	}
	v := msg[i+len(key):]
	if stop != 0 {
		if j := bytes.IndexByte(v, stop); j >= 0 {
			v = v[:j]
		}
	}
	return bytes.TrimSpace(v)
}

// lastNumber is the number that ends t (`... node_manager.cc:3049: 10`), -1 where none.
func lastNumber(t []byte) int64 {
	j := len(t)
	for j > 0 && t[j-1] >= '0' && t[j-1] <= '9' {
		j--
	}
	v, ok := leadingInt(t[j:])
	if !ok || len(t)-j > 4 {
		return -1
	}
	return v
}

// maxHostLen bounds a host name read from other text.
const maxHostLen = 253

func clipBytes(b []byte, n int) []byte { return b[:min(len(b), n)] }

// rayWorker is the pid and address of a worker's `(Name pid=N, ip=A) ` prefix, pid -1 where t
// has none (`(pid=N)` has no address).
func rayWorker(t []byte) (host string, pid int64) {
	end := bytes.IndexByte(t[:min(len(t), maxRayPrefix)], ')')
	if len(t) == 0 || t[0] != '(' || end < 0 {
		return "", -1
	}
	head := t[:end+1]
	i := bytes.Index(head, []byte("pid="))
	if i < 0 || i > 1 && head[i-1] != ' ' {
		return "", -1
	}
	j := i + len("pid=")
	k := j
	for k < len(head) && head[k] >= '0' && head[k] <= '9' {
		k++
	}
	v, err := strconv.ParseInt(string(head[j:k]), 10, 64)
	if err != nil {
		return "", -1
	}
	return string(rayField(head, "ip=", ')')), v
}

// afterRay is t past a worker's `(Name pid=N, ip=A) ` prefix, t where it has none.
func afterRay(t []byte) []byte {
	end := bytes.IndexByte(t[:min(len(t), maxRayPrefix)], ')')
	if end < 0 || !bytes.Contains(t[:end], []byte("pid=")) {
		return t
	}
	return bytes.TrimLeft(t[end+1:], " ")
}

// rayLine is the worker a line's `(Name pid=N, ip=A) ` prefix names: line 0 where none.
type rayLine struct {
	line int64
	host string
	pid  int64
}

// rayWorkerOf is the worker line n's text t names, none where its prefix names no pid.
func rayWorkerOf(n int64, t []byte) rayLine {
	if host, pid := rayWorker(t); pid >= 0 {
		return rayLine{line: n, host: host, pid: pid}
	}
	return rayLine{}
}

// names reports whether r names the worker of line n.
func (r rayLine) names(n int64) bool { return r.line != 0 && r.line == n }

// rayProc is the process a raylet's line names: the one the NCCL lines know by its pid where
// they know exactly one (they name it by host name, Ray by address), else its address and
// pid, or the node alone; nil where the line names neither.
func rayProc(it *Item, x *procIndex) *proc {
	if it.Pid >= 0 {
		if p := x.byPid(it.Pid); p != nil {
			return p
		}
	}
	return x.of(it)
}

// raySummary is the sentence of a first fault the raylet reports, "" where c is none.
func raySummary(c *cand) string {
	if c.follows >= 0 || len(c.items) == 0 || c.items[0].Ev != evRayExit {
		return ""
	}
	it := c.items[0]
	const rest = "; the other ranks' errors follow from it."
	switch it.Name {
	case rayNameOOM:
		return "Ray's memory monitor killed workers on " + who(c) + " first, as the node ran out of host memory: " + short(it.Text) + rest
	case rayNameCrashed:
		return "Workers on " + who(c) + " crashed first, as Ray's raylet reports: " + short(it.Text) + rest
	}
	s := who(c) + " died first, as Ray's raylet reports"
	if it.Name != "" {
		s += " (exit type " + it.Name + ")"
	}
	if words := lastWords(c); words != "" {
		return s + ", after " + short(words) + rest
	}
	if it.Text != "" {
		s += ": " + strings.TrimRight(short(it.Text), ".")
	}
	return s + rest
}
