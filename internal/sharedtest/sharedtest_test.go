package sharedtest

import (
	"os"
	"path/filepath"
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
