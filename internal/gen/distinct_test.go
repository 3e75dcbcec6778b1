package gen

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var shapeRE = regexp.MustCompile(`INFO (\w+): opCount .* count (\d+) datatype (\d+) `)

// TestWriteDistinct checks each kind's line count and that the things it writes are distinct.
func TestWriteDistinct(t *testing.T) {
	cases := []struct {
		kind  string
		lines int
		want  string // a substring every thing has once, with its own value
	}{
		{DistinctComms, 2 * 50, " commId 0x"},
		{DistinctCycle, 3 * 50, " commId 0x"},
		{DistinctShapes, 1 + 50, " count "},
		{DistinctSteps, 1 + 2*50, " step: "},
	}
	for _, c := range cases {
		var b bytes.Buffer
		if err := WriteDistinct(&b, c.kind, 50); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if len(lines) != c.lines {
			t.Errorf("%s: %d lines, want %d", c.kind, len(lines), c.lines)
		}
		seen := map[string]bool{}
		for _, l := range lines {
			if _, v, ok := strings.Cut(l, c.want); ok {
				if m := shapeRE.FindStringSubmatch(l); c.kind == DistinctShapes && m != nil {
					v = m[1] + " " + m[2] + " " + m[3]
				}
				if seen[v] {
					t.Errorf("%s: %q twice", c.kind, v)
				}
				seen[v] = true
			}
		}
		if len(seen) < 50 {
			t.Errorf("%s: %d distinct values, want 50", c.kind, len(seen))
		}
	}
	if err := WriteDistinct(&bytes.Buffer{}, "pointers", 1); err == nil {
		t.Error("an unknown kind gave no error")
	}
}

func TestWriteSmallFiles(t *testing.T) {
	dir := t.TempDir()
	paths, err := WriteSmallFiles(filepath.Join(dir, "logs"), 5)
	if err != nil || len(paths) != 5 {
		t.Fatalf("WriteSmallFiles: %d paths, %v", len(paths), err)
	}
}
