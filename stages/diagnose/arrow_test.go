package diagnose

import (
	"bytes"
	"strconv"
	"testing"
)

// lastArrow finds the same arrow as bytes.LastIndex, also where arrows overlap.
func TestLastArrow(t *testing.T) {
	for _, s := range []string{"", " -> ", "a -> b", " -> -> ", "x -> -> -> y", "a -> b -> 2", "a ->b", "a-> b",
		"n INFO misc/socket.cc:50 -> 2", " ->", "-> ", "  ->  -> "} {
		if got, want := lastArrow([]byte(s)), bytes.LastIndex([]byte(s), []byte(" -> ")); got != want {
			t.Errorf("lastArrow(%q) = %d, want %d", s, got, want)
		}
	}
}

func FuzzLastArrow(f *testing.F) {
	f.Add([]byte(" -> -> x"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := lastArrow(b), bytes.LastIndex(b, []byte(" -> ")); got != want {
			t.Fatalf("lastArrow(%q) = %d, want %d", b, got, want)
		}
	})
}

// digits counts as strconv.FormatInt writes.
func TestDigits(t *testing.T) {
	for _, v := range []int64{0, 1, 9, 10, 99, 100, 9999, 10000, 1<<63 - 1} {
		if got, want := digits(v), len(strconv.FormatInt(v, 10)); got != want {
			t.Errorf("digits(%d) = %d, want %d", v, got, want)
		}
	}
}
