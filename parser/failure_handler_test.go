package parser

import "testing"

// TestHandlerSignal: a crash handler's lines on the signal that ends a process, Open MPI's and
// UCX's, name the process (host and pid, in the handler's brackets) and the signal, behind
// launcher prefixes and a bare time too, as the grammar and the scanner read them; the
// handler's other lines are other text.
func TestHandlerSignal(t *testing.T) {
	g, _ := NewGrammar()
	p, _ := NewParser()
	for _, c := range []struct {
		text, host string
		pid        int64
		signal     string
	}{
		{"[node-a7:04121] *** Process received signal ***", "node-a7", 4121, "Process received signal"},
		{"[node-a7:04121] Signal: Segmentation fault (11)", "node-a7", 4121, "Segmentation fault"},
		{"2025-03-02 08:15:00 [gpu12.cluster:99] Signal: Bus error (7)", "gpu12.cluster", 99, "Bus error"},
		{"[1,3]<stderr>:[gpu12:99] Signal: Aborted (6)", "gpu12", 99, "Aborted"},
		{"[trn-b-3:5150:0:5161] Caught signal 11 (Segmentation fault: address not mapped to object at address 0x10)", "trn-b-3", 5150, "Segmentation fault"},
		{"[trn-b-3:5150:1:5170] Caught signal 6 (Aborted)", "trn-b-3", 5150, "Aborted"},
		// UCX pads a pid of under five digits with spaces (`%-5d`).
		{"[09677202c889:5283 :0:5704] Caught signal 7 (Bus error: nonexistent physical address)", "09677202c889", 5283, "Bus error"},
		{"[worker-0:77   :1:80] Caught signal 11 (Segmentation fault: invalid permissions for mapped object at address 0x7f)", "worker-0", 77, "Segmentation fault"},
	} {
		var l Line
		p.Parse([]byte(c.text), &l)
		gl := g.Parse([]byte(c.text))
		for _, x := range []Line{l, gl} {
			f := x.Fail
			if x.Kind != KindFailure || f.Event != FailureSignal || f.Host != c.host || f.Pid != c.pid || f.Signal != c.signal {
				t.Errorf("%q: %s %+v, want signal host %q pid %d %q", c.text, x.Kind, f, c.host, c.pid, c.signal)
			}
		}
	}
	for _, text := range []string{
		"[node-a7:04121] Signal code: Address not mapped (1)",
		"[node-a7:04121] Failing at address: 0x8",
		"[node-a7:04121] [ 0] /lib64/libpthread.so.0(+0x115d0)[0x7f8eaaf0e5d0]",
		"[node-a7:04121] *** End of error message ***",
		"[INFO] Signal: the loader restarted",
	} {
		if l := g.Parse([]byte(text)); l.Kind == KindFailure {
			t.Errorf("%q read as %s %q", text, l.Fail.Event, l.Fail.Signal)
		}
	}
}
