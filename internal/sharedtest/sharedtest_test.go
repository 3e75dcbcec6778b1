package sharedtest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestLocate(t *testing.T) {
	root := moduleRoot()
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("moduleRoot %s holds no go.mod", root)
	}
	for _, c := range []struct {
		env      string
		dir      string
		required bool
	}{
		{"", filepath.Join(root, "..", "shared"), false},
		{"/abs/shared", "/abs/shared", true},
		{"../shared", filepath.Join(root, "..", "shared"), true},
	} {
		t.Setenv(Env, c.env)
		dir, required := Locate()
		if filepath.Clean(dir) != filepath.Clean(c.dir) || required != c.required {
			t.Errorf("%s=%q: Locate() = %s, %v; want %s, %v", Env, c.env, dir, required, c.dir, c.required)
		}
	}
}

// recordingTB stands in for a test: it records a Fatalf or Skipf and ends its goroutine, as
// testing.T does.
type recordingTB struct {
	testing.TB
	fatal, skip string
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (r *recordingTB) Skipf(format string, args ...any) {
	r.skip = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// call runs f on its own goroutine (Fatalf and Skipf end it) and returns what it recorded.
func call[T any](f func(tb testing.TB) T) (got T, r recordingTB) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		got = f(&r)
	}()
	<-done
	return got, r
}

// TestAbsentOrPresent: without the shared directory, Dir and Glob skip and Optional returns
// nothing; with NCCLLOG_SHARED set all three fail; where the directory is there, all three
// find its files.
func TestAbsentOrPresent(t *testing.T) {
	there := t.TempDir()
	if err := os.MkdirAll(filepath.Join(there, "samples"), 0o755); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(there, "samples", "a.log")
	if err := os.WriteFile(log, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	absent := filepath.Join(t.TempDir(), "shared")

	t.Setenv(Env, absent)
	for name, f := range map[string]func(testing.TB) []string{
		"Glob":     func(tb testing.TB) []string { return Glob(tb, "samples/*.log") },
		"Optional": func(tb testing.TB) []string { return Optional(tb, "samples/*.log") },
	} {
		if _, r := call(f); !strings.Contains(r.fatal, "no shared logs at "+absent) {
			t.Errorf("%s, %s=%s (absent): fatal %q, skip %q; want a failure naming it", name, Env, absent, r.fatal, r.skip)
		}
	}

	t.Setenv(Env, there)
	for name, f := range map[string]func(testing.TB) []string{
		"Glob":     func(tb testing.TB) []string { return Glob(tb, "samples/*.log") },
		"Optional": func(tb testing.TB) []string { return Optional(tb, "samples/*.log") },
	} {
		if got, r := call(f); r.fatal != "" || r.skip != "" || len(got) != 1 || got[0] != log {
			t.Errorf("%s with the directory there: %v (fatal %q, skip %q), want [%s]", name, got, r.fatal, r.skip, log)
		}
	}
	if _, r := call(func(tb testing.TB) []string { return Glob(tb, "samples/*.gz") }); !strings.Contains(r.fatal, "no shared files match") {
		t.Errorf("Glob of a pattern that matches nothing: fatal %q", r.fatal)
	}
}

// TestSkipWithoutEnv: with NCCLLOG_SHARED unset and no shared directory beside the
// repository, Dir skips with a one-line reason and Optional returns nothing.
func TestSkipWithoutEnv(t *testing.T) {
	t.Setenv(Env, "")
	dir, _ := Locate()
	if _, err := os.Stat(filepath.Join(dir, "samples")); err == nil {
		t.Skipf("the shared directory is beside the repository (%s)", dir)
	}
	if _, r := call(func(tb testing.TB) string { return Dir(tb) }); r.fatal != "" || !strings.Contains(r.skip, "no shared logs beside the repository") || strings.Contains(r.skip, "\n") {
		t.Errorf("Dir: fatal %q, skip %q; want a one-line skip", r.fatal, r.skip)
	}
	if got, r := call(func(tb testing.TB) []string { return Optional(tb, "samples/*.log") }); r.fatal != "" || r.skip != "" || got != nil {
		t.Errorf("Optional: %v, fatal %q, skip %q; want nothing", got, r.fatal, r.skip)
	}
}
