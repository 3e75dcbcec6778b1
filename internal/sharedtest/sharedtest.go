// Package sharedtest finds the project's shared real-world logs for tests: the shared/
// directory that stands beside the repository in the project's own checkouts, but not in a
// user's clone.
//
// Tests that read it call Dir. In a plain clone they are skipped with a one-line reason, so
// `go test ./...` passes there; with NCCLLOG_SHARED set (CI sets it) a missing directory is a
// failure, so CI always runs them.
package sharedtest

import (
	"os"
	"path/filepath"
	"testing"
)

// Env names the variable that requires the shared logs and may say where they are: an
// absolute path, or one relative to the repository root.
const Env = "NCCLLOG_SHARED"

// Dir returns the shared directory, or skips t (fails it with NCCLLOG_SHARED set) where
// there is none.
func Dir(t testing.TB) string {
	t.Helper()
	dir, required := Locate()
	if _, err := os.Stat(filepath.Join(dir, "samples")); err != nil {
		if required {
			t.Fatalf("%s=%s: no shared logs at %s: %v", Env, os.Getenv(Env), dir, err)
		}
		t.Skipf("no shared logs beside the repository (%s); set %s to require them", dir, Env)
	}
	return dir
}

// Glob returns the files matching pattern (relative to the shared directory), skipping or
// failing t as Dir does, and failing it where nothing matches.
func Glob(t testing.TB, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(Dir(t), pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no shared files match %s (%v)", pattern, err)
	}
	return files
}

// Optional returns the files matching pattern (relative to the shared directory), or none
// where there is no shared directory: for tests and fuzz targets that also run on inputs of
// their own. With NCCLLOG_SHARED set a missing directory fails tb, and where the directory is
// there a pattern that matches nothing fails it too.
func Optional(tb testing.TB, pattern string) []string {
	tb.Helper()
	dir, required := Locate()
	if _, err := os.Stat(filepath.Join(dir, "samples")); err != nil {
		if required {
			tb.Fatalf("%s=%s: no shared logs at %s: %v", Env, os.Getenv(Env), dir, err)
		}
		return nil
	}
	return Glob(tb, pattern)
}

// Locate returns where the shared directory is expected and whether it is required. It does
// not look whether it is there: fuzz targets use it to add seeds when they can.
func Locate() (dir string, required bool) {
	root := moduleRoot()
	env := os.Getenv(Env)
	switch {
	case env == "":
		return filepath.Join(root, "..", "shared"), false
	case filepath.IsAbs(env):
		return env, true
	default:
		return filepath.Join(root, env), true
	}
}

// moduleRoot is the directory holding go.mod, found upward from the working directory (a
// test runs in its package's directory).
func moduleRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return wd
		}
	}
}
