package ranks

import "fmt"

// The words the family's findings are told apart by. Each is a small enum whose String and
// MarshalText give the word that the output (text, CSV, JSON) has always printed, so that no
// kind crosses a package boundary as a bare string and a switch over one can be checked for
// every value (see kinds_test.go).

// Evidence is one kind of evidence against a rank of a communicator that hung.
type Evidence uint8

// The kinds of evidence, in the order hangEvidence looks for them (EvWarn only supports the
// others).
const (
	EvBehind     Evidence = iota + 1 // it stopped before the furthest call of the others
	EvAbort                          // its communicator ends in Abort while others went on
	EvEndedEarly                     // its communicator ends in Destroy while others went on
	EvEndsInWarn                     // its process's log ends in a WARN
	EvWarn                           // its process WARNed
	EvStalled                        // its calls stopped long before the log's later lines
	evidenceEnd
)

var evidenceWords = [...]string{EvBehind: "behind", EvAbort: "abort", EvEndedEarly: "ended-early",
	EvEndsInWarn: "ends-in-warn", EvWarn: "warn", EvStalled: "stalled"}

func (e Evidence) String() string { return word(evidenceWords[:], int(e)) }

// MarshalText gives the word.
func (e Evidence) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// FindingKind is what a CheckFinding reports.
type FindingKind uint8

// The kinds of check's findings.
const (
	KindMismatch FindingKind = iota + 1 // the ranks issued different calls at one position
	KindLength                          // the ranks issued sequences of different lengths
	findingKindEnd
)

var findingKindWords = [...]string{KindMismatch: "mismatch", KindLength: "length"}

func (k FindingKind) String() string { return word(findingKindWords[:], int(k)) }

// MarshalText gives the word.
func (k FindingKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Grouping says how the ranks of a communicator were put together.
type Grouping uint8

// The groupings; the zero value is GroupedInferred.
const (
	GroupedInferred Grouping = iota // no Init line with a commId: by size and order of first use
	GroupedCommID                   // by the commId its Init lines print
	GroupedSplit                    // by parent communicator and split color
	groupingEnd
)

var groupingWords = [...]string{GroupedInferred: "inferred", GroupedCommID: "commId", GroupedSplit: "split"}

func (g Grouping) String() string { return word(groupingWords[:], int(g)) }

// MarshalText gives the word (partial results hold it).
func (g Grouping) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// UnmarshalText reads the word back; an unknown word is an error.
func (g *Grouping) UnmarshalText(b []byte) error {
	for i, w := range groupingWords {
		if w == string(b) {
			*g = Grouping(i)
			return nil
		}
	}
	return fmt.Errorf("unknown grouping %q", b)
}

// PGState is what a rank's queue says about the work its process group timed out on.
type PGState uint8

// The states of a process group's rank.
const (
	PGEntered    PGState = iota + 1 // it enqueued the work and waits in it (or timed out on it): a victim
	PGNotReached                    // its last enqueued work is below it: it never reached the collective
	PGPast                          // it completed the work
	PGUnknown                       // its lines report no queue (dump signals only)
	PGNoLine                        // no watchdog line from this rank
	pgStateEnd
)

var pgStateWords = [...]string{PGEntered: "entered", PGNotReached: "not-reached", PGPast: "past",
	PGUnknown: "unknown", PGNoLine: "no-line"}

func (s PGState) String() string { return word(pgStateWords[:], int(s)) }

// MarshalText gives the word.
func (s PGState) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// word is words[i], or a word that says the value is not known (never printed by a value the
// package makes: kinds_test.go checks every one has its word).
func word(words []string, i int) string {
	if i < 0 || i >= len(words) || words[i] == "" {
		return fmt.Sprintf("unknown(%d)", i)
	}
	return words[i]
}
