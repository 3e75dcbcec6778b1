package stages

import "github.com/nccllog/nccllog/parser"

// Stage is one analysis: a named kind of Partial. Stages are stateless descriptions; what
// they take from the input lives in their Partials.
type Stage interface {
	// Name is how commands and the registry call the stage.
	Name() string
	// Reads says how much of the input the stage needs read.
	Reads() Reads
	// Kinds are the line kinds its Partials' Add is called with.
	Kinds() KindSet
	// New returns an empty Partial for a run of cfg.
	New(cfg *Config) Partial
}

// Partial is what one stage took from a stretch of consecutive lines: a chunk, a step of a
// chunk, an input, or several inputs. Merging the Partials of consecutive stretches gives
// the Partial of the whole.
type Partial interface {
	// Add takes the next line of the stretch (of one of the stage's Kinds).
	Add(l *Line)
	// Settle says that the lines added since the last Settle belong to step (-1: none), and
	// whether the run selects that step. Partials of selected-only stages drop what they
	// held for an unselected step.
	Settle(step int64, selected bool)
	// Anchor is called once, when the lines added so far leave the chunk they were read
	// from: their line numbers were counted from the chunk's start and become o.Base more,
	// and their offsets index o.Data. Where o.Held, the lines wait for a later chunk's
	// marker, and whatever points into o.Data must be copied: the chunk's memory is reused
	// once the Merger has taken it.
	Anchor(o Origin)
	// Merge appends o, the Partial of the stretch that follows this one's, to this one. o
	// may be reset and reused afterwards.
	Merge(o Partial)
	// Reset empties the Partial, keeping its memory.
	Reset()
	// Snapshot is what the Partial holds as a plain typed value, the same whatever chunks,
	// workers and (for the stages whose output does not depend on it) input order gave it:
	// what tests compare, and what the Result's encoding writes.
	Snapshot() any
}

// Committer is a Partial that does something with its lines in input order once they are
// settled: split and calls write them to the run's Out as they come rather than hold them to
// the end; ranks folds them into each rank's call sequence. The Merger calls Commit on an
// input's Partials after each merge, in input order, and on the stretch it holds waiting for
// a step (where only what needs no step may be committed).
type Committer interface {
	Commit(out Out) error
}

// Folder is a Committer that can commit a settled Partial's lines straight from it. An
// input's Total commits what it merges at once, so the buffers a Merge would move into it
// are only passed through: a Folder leaves them with o (a chunk's, sized to its lines, serve
// the chunk's next use) rather than have the Total take them and let them go, or keep a
// chunk-sized one for each input to the end.
type Folder interface {
	Committer
	// CanFold reports whether Fold(o, out) does what Merge(o) and then Commit(out) would.
	CanFold(o Partial) bool
	// Fold commits o's lines as Merge(o) and then Commit(out) would, and empties o, which
	// keeps its memory.
	Fold(o Partial, out Out) error
}

// Writer is a Stage whose Partials write to the run's Out (split, calls): the inputs of a run
// with one are read one after another, so that the output keeps their order.
type Writer interface {
	Writes() bool
}

// Holder is a Partial that holds what its lines made while they wait for their step, and
// can report how much. Where such a stretch grows long, the Merger settles it early with the
// step a read ahead finds, or drops what it holds and has its lines read again once the step
// is known (see Bound).
type Holder interface {
	Held() int
}

// StepFree is a Holder whose held items may, all of them, do without their step (a rank's
// communicator lines before any of its calls): the Merger then settles them with any step and
// hands them to the input's Total at once, rather than keep them, or read ahead for the
// marker that ends their step. A log of communicator set-up has no marker to find, and its
// reading ahead read the whole input a second time.
type StepFree interface {
	Holder
	// NeedsStep reports whether an item held needs its step.
	NeedsStep() bool
}

// Reserver is a Holder that can make room for n held items at once. A Chunk made anew (the
// first of a run's chunks in flight) has its Reservers make room for what an earlier chunk
// held, rather than grow their lists to a chunk's lines a doubling at a time: every step of
// that is fresh memory while the run starts.
type Reserver interface {
	Holder
	Reserve(n int)
}

// Out receives what a run streams, in input order: whole lines (split) and calls.
type Out interface {
	Lines(b []byte) error
	Call(c *Call) error
}

// Origin is where a chunk's lines came from.
type Origin struct {
	File string
	Base int64  // lines in the file before the chunk
	Data []byte // the chunk's bytes; Line offsets index it
	Held bool   // the lines are held past the chunk (their step is not known yet)
}

// Line is what a stage sees of one input line, or of a run of lines passed over unread.
type Line struct {
	N    int64        // line number within its chunk, from 1; the first of a run of Unread lines
	Text []byte       // the line without its newline; valid only during Add
	Off  int64        // where the line starts in the chunk's data
	End  int64        // where it ends, after its newline
	P    *parser.Line // how it parsed; nil for an unread run
	// Unread is how many lines [Off, End) holds when they were passed over without being
	// read (split and --steps read only what they need); 0 for a read line.
	Unread int64
}

// Reads says how much of the input a stage needs read. A run reads as much as its most
// demanding stage needs.
type Reads uint8

const (
	// ReadsMarkers: only the progress lines that mark steps.
	ReadsMarkers Reads = iota
	// ReadsBytes: the selected lines' bytes, and the markers.
	ReadsBytes
	// ReadsSelected: the parsed lines of the selected steps, and the markers.
	ReadsSelected
	// ReadsAll: every line parsed, whether its step is selected or not.
	ReadsAll
)

// KindSet is a set of line kinds, plus KindUnread for runs of lines passed over unread.
type KindSet uint32

// KindUnread stands for a run of unread lines in a KindSet.
const KindUnread = parser.NumKinds

// Kinds returns the set of the given kinds.
func Kinds(ks ...parser.Kind) KindSet {
	var s KindSet
	for _, k := range ks {
		s |= 1 << k
	}
	return s
}

// AllKinds is every line kind and unread runs.
const AllKinds KindSet = 1<<(parser.NumKinds+1) - 1

// Has reports whether s holds kind k (or KindUnread).
func (s KindSet) Has(k int) bool { return s&(1<<k) != 0 }
