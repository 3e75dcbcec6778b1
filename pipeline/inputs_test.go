//go:build unix

package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestExpand: directories are walked through symbolic links (a linked directory argument, a
// linked file or directory inside one) with a file reached twice or through a loop taken
// once; a glob's directories are walked like directory arguments; "-" named twice is one
// input.
func TestExpand(t *testing.T) {
	tmp := t.TempDir()
	mk := func(rel string) {
		p := filepath.Join(tmp, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, rel string) {
		if err := os.Symlink(target, filepath.Join(tmp, rel)); err != nil {
			t.Fatal(err)
		}
	}
	mk("logs/a.log")
	mk("logs/sub/b.log")
	mk("logs/.hidden.log")
	mk("elsewhere/c.log")
	mk("elsewhere/deep/d.log")
	link("../elsewhere/c.log", "logs/c.log")
	link("../elsewhere/deep", "logs/deep")
	link("a.log", "logs/same.log") // a.log again
	link("..", "logs/sub/loop")    // back up to logs
	link("logs", "linked")         // a linked directory argument
	rel := func(ins []Input) []string {
		var out []string
		for _, in := range ins {
			out = append(out, strings.TrimPrefix(in.Name, tmp+"/"))
		}
		return out
	}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"logs"}, []string{"logs/a.log", "logs/c.log", "logs/deep/d.log", "logs/sub/b.log"}},
		{[]string{"linked"}, []string{"linked/a.log", "linked/c.log", "linked/deep/d.log", "linked/sub/b.log"}},
		{[]string{"l*s"}, []string{"logs/a.log", "logs/c.log", "logs/deep/d.log", "logs/sub/b.log"}},
		{[]string{"-", "logs/a.log", "-"}, []string{"-", "logs/a.log"}},
	} {
		args := make([]string, len(tc.args))
		for i, a := range tc.args {
			args[i] = a
			if a != "-" {
				args[i] = filepath.Join(tmp, a)
			}
		}
		got, err := Expand(args, strings.NewReader(""))
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		if diff := cmp.Diff(tc.want, rel(got)); diff != "" {
			t.Errorf("%v (-want +got):\n%s", tc.args, diff)
		}
	}
}
