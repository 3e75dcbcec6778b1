package pipeline

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCodecs reads testdata/codecs/plain.log compressed every way nccllog reads, by file and by
// standard input: each must give the plain file's lines, split bytes and classes. The bzip2
// and xz files were written by bzip2 and xz; the gzip file with zero padding after it, as tape
// and block tools leave it, is made here. long31.zst, written by zstd --long=31 from a pipe,
// declares a 2 GiB window, over MaxZstdWindow: it is refused, naming the file and the cap.
func TestCodecs(t *testing.T) {
	dir := filepath.Join("testdata", "codecs")
	plain, err := os.ReadFile(filepath.Join(dir, "plain.log"))
	if err != nil {
		t.Fatal(err)
	}
	padded := writeText(t, "padded.gz", string(append(gzipped(t, plain), make([]byte, 1000)...)))
	twoMembers := writeText(t, "two.gz", string(append(gzipped(t, plain[:100]), gzipped(t, plain[100:])...)))
	want := run(Input{Name: filepath.Join(dir, "plain.log")}, 2, 4096, runConfigs[0])
	for _, name := range []string{filepath.Join(dir, "plain.log.bz2"), filepath.Join(dir, "plain.log.xz"),
		padded, twoMembers} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range []Input{{Name: name}, {Name: "-", Stdin: bytes.NewReader(data)}} {
			got := run(in, 2, 4096, runConfigs[0])
			what := filepath.Base(name) + " " + in.DisplayName()
			if got.err != nil {
				t.Errorf("%s: %v", what, got.err)
				continue
			}
			if !bytes.Equal(got.split, want.split) {
				t.Errorf("%s: split differs from plain.log:\n%s", what, cmp.Diff(string(want.split), string(got.split)))
			}
			if diff := cmp.Diff(want.res.Lines(), got.res.Lines()); diff != "" {
				t.Errorf("%s: line classes differ from plain.log:\n%s", what, diff)
			}
		}
	}
	long31 := filepath.Join(dir, "long31.zst")
	got := run(Input{Name: long31}, 2, 4096, runConfigs[0])
	wantErr := fmt.Sprintf("%q: a zstd frame declares a window over 128 MiB, the most nccllog reads "+
		"(decompress it first: zstd -d --long=31)", long31)
	if got.err == nil || got.err.Error() != wantErr {
		t.Errorf("long31.zst: error %v, want %s", got.err, wantErr)
	}
}

// TestBadCompressed: a gzip file whose header is broken, or with data after its zero padding,
// fails with an error that names the file.
func TestBadCompressed(t *testing.T) {
	gz := gzipped(t, []byte("a line\n"))
	broken := append([]byte{}, gz...)
	broken[3] = 0xe0 // reserved flag bits
	for what, data := range map[string][]byte{
		"broken header": broken,
		"after padding": append(append(append([]byte{}, gz...), 0, 0, 0), "more\n"...),
	} {
		name := writeText(t, "bad.log", string(data))
		got := run(Input{Name: name}, 1, 4096, runConfigs[0])
		if got.err == nil || !strings.Contains(got.err.Error(), name) {
			t.Errorf("%s: error %v, want one naming %s", what, got.err, name)
		}
	}
}
