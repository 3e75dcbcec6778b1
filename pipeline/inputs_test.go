//go:build unix

package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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
		got, err := Expand(args, strings.NewReader(""), nil)
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		if diff := cmp.Diff(tc.want, rel(got)); diff != "" {
			t.Errorf("%v (-want +got):\n%s", tc.args, diff)
		}
	}
}

// TestExpandSpecial: a pattern leaves out a FIFO it matches (reading it would wait for a
// writer for ever) while an argument naming the FIFO keeps it; a dangling symbolic link in a
// directory or matched by a pattern is told to warn and left out, the rest kept; a missing
// name with a [ says that there is no such file, naming it, whether or not it is a valid
// pattern, and an existing one is read as itself.
func TestExpandSpecial(t *testing.T) {
	tmp := t.TempDir()
	p := func(rel string) string { return filepath.Join(tmp, rel) }
	for _, f := range []string{"logs/a.log", "run[1].log"} {
		if err := os.MkdirAll(filepath.Dir(p(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p(f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(p("logs/b.log"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := os.Symlink("gone.log", p("logs/c.log")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		arg   string
		want  []string
		warns []string
		err   string
	}{
		{arg: "logs/*.log", want: []string{"logs/a.log"}, warns: []string{p("logs/c.log")}},
		{arg: "logs/b.log", want: []string{"logs/b.log"}},
		{arg: "logs", want: []string{"logs/a.log"}, warns: []string{p("logs/c.log")}},
		{arg: "logs/b*", err: fmt.Sprintf("%q: matches only FIFOs, sockets, devices or dangling links, which a pattern leaves out", p("logs/b*"))},
		{arg: "run[1].log", want: []string{"run[1].log"}},
		{arg: "run[2].log", err: fmt.Sprintf("%q: no such file, and no file matches it as a pattern", p("run[2].log"))},
		{arg: "run[2.log", err: fmt.Sprintf("%q: no such file", p("run[2.log"))},
	} {
		var warns []string
		got, err := Expand([]string{p(tc.arg)}, nil, func(w error) {
			var d *DanglingLink
			if !errors.As(w, &d) || w.Error() != fmt.Sprintf("%q: a symbolic link to a missing file, skipped", d.Path) {
				t.Errorf("%s: warning %v", tc.arg, w)
			}
			warns = append(warns, d.Path)
		})
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: error %v, want %s", tc.arg, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.arg, err)
			continue
		}
		var names []string
		for _, in := range got {
			names = append(names, strings.TrimPrefix(in.Name, tmp+"/"))
		}
		if diff := cmp.Diff(tc.want, names); diff != "" {
			t.Errorf("%s inputs (-want +got):\n%s", tc.arg, diff)
		}
		if diff := cmp.Diff(tc.warns, warns); diff != "" {
			t.Errorf("%s warnings (-want +got):\n%s", tc.arg, diff)
		}
	}
}
