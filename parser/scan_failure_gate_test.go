package parser

import "testing"

// gateTails complete two opening bytes into the bare times stampAt reads, and into other text.
var gateTails = []string{
	"", "x", " ", "24-05-01T10:00:00.123Z x", "24-05-01 10:00:00,123 x", "24/05/01 10:00:00 x",
	"016 03:31:38.928019 x", "16 03:31:38.928019 x", "227 16:30:43.526290891 x", "n 11 14:03:27 x",
	"n  1 14:03:27 x", "b 28 23:59:59 x", "c  9 00:00:00.5 x", "12:34: x", "2345-", ":00:00 x",
}

// stampedStartBefore is stampedStart as it read before stampPairs stood first.
func stampedStartBefore(b []byte, start int) int {
	if start >= len(b) || b[start] == '[' || !mayOpenHead(b[start:]) {
		return start
	}
	if _, end := stampAt(b, start); end > 0 {
		return spEnd(b, end)
	}
	return start
}

// TestStampPairsExact holds stampedStart to its reading before stampPairs, on every pair of
// opening bytes followed by every tail, behind no prefix and behind one.
func TestStampPairsExact(t *testing.T) {
	for _, head := range []string{"", "[rank3]:"} {
		for c := range 256 {
			for d := range 256 {
				for _, tail := range gateTails {
					b := []byte(head + string([]byte{byte(c), byte(d)}) + tail)
					start := len(head)
					if got, want := stampedStart(b, start), stampedStartBefore(b, start); got != want {
						t.Fatalf("stampedStart(%q, %d) = %d, was %d", b, start, got, want)
					}
				}
			}
		}
	}
}

// TestMayOpenFailureGate: where mayOpenFailure is false, failureStart moves past nothing and
// mayBeFailure is false, so scanBare may skip both.
func TestMayOpenFailureGate(t *testing.T) {
	turned := 0
	for c := range 256 {
		for d := range 256 {
			for _, tail := range append(gateTails, "Error: x", "rror: y", "slurmstepd: error") {
				b := []byte(string([]byte{byte(c), byte(d)}) + tail)
				words := wordsIn(b)
				if mayOpenFailure(b, 0, words) {
					continue
				}
				turned++
				if fs, _ := failureStart(b, 0); fs != 0 || mayBeFailure(b, fs, words) {
					t.Fatalf("mayOpenFailure turns away %q: failureStart %d, mayBeFailure %v", b, fs, mayBeFailure(b, fs, words))
				}
			}
		}
	}
	if turned == 0 {
		t.Fatal("mayOpenFailure turned nothing away")
	}
}
