package pipeline

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDigest: a log's digest is its size and the CRCs of its ends: the same bytes give the
// same digest wherever they are, a byte changed at either end or a byte more gives another,
// and an empty file (a rank that printed nothing) has none, not one all empty files share.
func TestDigest(t *testing.T) {
	dir := t.TempDir()
	data := make([]byte, 3*digestWindow)
	for i := range data {
		data[i] = byte(i * 7)
	}
	of := func(name string, b []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		src, err := open(Input{Name: path})
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		return digest(src)
	}
	base := of("a.log", data)
	if base == "" || of("copy.log", data) != base {
		t.Fatalf("a copy digests to %q, the log to %q: want the same, not empty", of("copy.log", data), base)
	}
	for name, b := range map[string][]byte{
		"first": append([]byte{data[0] + 1}, data[1:]...),
		"last":  append(append([]byte{}, data[:len(data)-1]...), data[len(data)-1]+1),
		"more":  append(append([]byte{}, data...), '\n'),
		"small": data[:100],
	} {
		if d := of(name+".log", b); d == base || d == "" {
			t.Errorf("%s: digest %q, want one of its own", name, d)
		}
	}
	if d := of("empty.log", nil); d != "" {
		t.Errorf("an empty file digests to %q, want none", d)
	}
}

func BenchmarkDigest(b *testing.B) {
	for _, size := range []int{64 << 10, 64 << 20} {
		path := filepath.Join(b.TempDir(), "x.log")
		if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
			b.Fatal(err)
		}
		src, err := open(Input{Name: path})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(sizeName(size), func(b *testing.B) {
			for b.Loop() {
				digest(src)
			}
		})
		src.Close()
	}
}

func sizeName(n int) string {
	if n >= 1<<20 {
		return itoa(n>>20) + "MiB"
	}
	return itoa(n>>10) + "KiB"
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
