package gen

import (
	"bytes"
	"testing"
)

// TestWriteMix checks that every mix is deterministic, about the size asked for, and made of
// what it names.
func TestWriteMix(t *testing.T) {
	for _, mix := range Mixes {
		var a, b bytes.Buffer
		if err := WriteMix(&a, mix, 1<<20, 7); err != nil {
			t.Fatalf("%s: %v", mix, err)
		}
		// -short writes the init mix once: each write lays out 4,096-rank jobs, over a second.
		if testing.Short() && mix == MixInit {
			t.Logf("%s: -short leaves out the second write that checks it is the same", mix)
		} else if err := WriteMix(&b, mix, 1<<20, 7); err != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: two writes differ (%v)", mix, err)
		}
		if n := a.Len(); n < 1<<19 {
			t.Errorf("%s: %d bytes for 1 MiB", mix, n)
		}
		want := map[string]string{MixInit: "Init COMPLETE", MixJob: "Traceback (most recent call last):", MixCollective: ": opCount "}[mix]
		if want != "" && !bytes.Contains(a.Bytes(), []byte(want)) {
			t.Errorf("%s: no %q", mix, want)
		}
		if mix == MixInit && bytes.Contains(a.Bytes(), []byte(": opCount ")) {
			t.Errorf("init: holds collective lines")
		}
	}
	if err := WriteMix(&bytes.Buffer{}, "nope", 1, 1); err == nil {
		t.Error("an unknown mix gives no error")
	}
}
