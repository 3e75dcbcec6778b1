package stages

import "github.com/nccllog/nccllog/parser"

// Call is one collective call line with where it was and the step it belongs to.
type Call struct {
	File    string
	Line    int64 // line number within its file
	Step    int64 // -1 when the call belongs to no step
	Rank    int64 // launcher rank from the line's prefix, -1 for none
	Env     parser.Envelope
	Coll    parser.Collective
	Dropped bool // left out of the analyses (count <= 0 or unknown datatype)
	// Time is the time the call's line carries, as printed (zero where it has none): the time
	// NCCL enqueued the call, not when it ran or ended.
	Time parser.Stamp
}

// Bytes is count × element size (0 for an unknown datatype), at most MaxBytes.
func (c *Call) Bytes() int64 { return MulBytes(c.Coll.Count, c.Coll.Datatype.Size()) }
