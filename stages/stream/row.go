package stream

import (
	"strconv"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// CallRecord is one call as calls --format json lists it (and the table and CSV print it).
type CallRecord struct {
	Line    int64  `json:"line"`
	Step    *int64 `json:"step"`
	Host    string `json:"host"` // "" for a call pasted without its envelope: no known process
	Pid     *int64 `json:"pid"`  // null there
	Rank    *int64 `json:"launcher_rank"`
	Op      string `json:"op"`
	OpCount uint64 `json:"opcount"`
	Count   int64  `json:"count"`
	Dtype   string `json:"dtype"`
	Bytes   int64  `json:"bytes"`
	RedOp   int64  `json:"redop"`
	Root    int64  `json:"root"`
	NRanks  int64  `json:"nranks"`
	Comm    string `json:"comm"`   // "" where the log does not show the pointer (redacted)
	Stream  string `json:"stream"` // "" likewise, or where the line has no stream
	Counted bool   `json:"counted"`
	// Time is the call's time (see CallTime): null where the line has none or no year.
	Time        *string  `json:"time"`
	NoYear      *string  `json:"time_no_year,omitempty"`
	SinceInitMs *float64 `json:"since_init_ms,omitempty"`
}

// RecordOf is c as calls lists it.
func RecordOf(c *stages.Call) CallRecord {
	v := CallRecord{Line: c.Line, Host: c.Env.Host, Op: string(c.Coll.Op), OpCount: c.Coll.OpCount,
		Count: c.Coll.Count, Dtype: c.Coll.Datatype.String(), Bytes: c.Bytes(), RedOp: int64(c.Coll.RedOp),
		Root: c.Coll.Root, NRanks: c.Coll.NRanks, Comm: Pointer(c, parser.PtrComm), Stream: Pointer(c, parser.PtrStream),
		Counted: !c.Dropped}
	t := TimeOf(c.Time)
	v.Time, v.NoYear, v.SinceInitMs = t.Time, t.NoYear, t.SinceInitMs
	if c.Env.HasEnvelope() {
		p := c.Env.Pid
		v.Pid = &p
	}
	if c.Step >= 0 {
		s := c.Step
		v.Step = &s
	}
	if c.Rank >= 0 {
		r := c.Rank
		v.Rank = &r
	}
	return v
}

// CallRow is one call as the ndjson and parquet exports write it.
type CallRow struct {
	File    string `json:"file" parquet:"file,dict"`
	Line    int64  `json:"line" parquet:"line"`
	Host    string `json:"host" parquet:"host,dict"`
	Pid     *int64 `json:"pid" parquet:"pid,optional"` // null: no known process (no envelope)
	Rank    *int64 `json:"launcher_rank" parquet:"launcher_rank,optional"`
	Comm    string `json:"comm" parquet:"comm,dict"`
	Step    *int64 `json:"step" parquet:"step,optional"`
	Op      string `json:"op" parquet:"op,dict"`
	OpCount uint64 `json:"opcount" parquet:"opcount"`
	Count   int64  `json:"count" parquet:"count"`
	Dtype   string `json:"dtype" parquet:"dtype,dict"`
	Bytes   int64  `json:"bytes" parquet:"bytes"`
	RedOp   int64  `json:"redop" parquet:"redop"`
	Root    int64  `json:"root" parquet:"root"` // the root, or the peer of Send/Recv
	NRanks  int64  `json:"nranks" parquet:"nranks"`
	Stream  string `json:"stream" parquet:"stream,dict"`
	Counted bool   `json:"counted" parquet:"counted"`
	// Time, NoYear and SinceInitMs are the call's time (see CallTime), null where it has none.
	Time        *string  `json:"time" parquet:"time,optional"`
	NoYear      *string  `json:"time_no_year,omitempty" parquet:"time_no_year,optional"`
	SinceInitMs *float64 `json:"since_init_ms,omitempty" parquet:"since_init_ms,optional"`
}

// RowOf is c, of the input named file, as the exports write it.
func RowOf(file string, c *stages.Call) CallRow {
	v := RecordOf(c)
	return CallRow{File: file, Line: v.Line, Host: v.Host, Pid: v.Pid, Rank: v.Rank, Comm: v.Comm, Step: v.Step,
		Op: v.Op, OpCount: v.OpCount, Count: v.Count, Dtype: v.Dtype, Bytes: v.Bytes, RedOp: v.RedOp,
		Root: v.Root, NRanks: v.NRanks, Stream: v.Stream, Counted: v.Counted, Time: v.Time, NoYear: v.NoYear,
		SinceInitMs: v.SinceInitMs}
}

// Pointer spells c's communicator or stream pointer (f), "" where it is unread.
func Pointer(c *stages.Call, f parser.PtrFields) string {
	if c.Coll.Unread&f != 0 {
		return ""
	}
	return PointerText(pointerOf(c, f))
}

func pointerOf(c *stages.Call, f parser.PtrFields) uint64 {
	if f == parser.PtrStream {
		return c.Coll.Stream
	}
	return c.Coll.Comm
}

// PointerText spells a pointer as the log does: 0x and hex, or (nil).
func PointerText(v uint64) string {
	if v == 0 {
		return "(nil)"
	}
	return "0x" + strconv.FormatUint(v, 16)
}

// RowBuilder makes CallRows as RowOf does, for an export of many: it spells communicator
// and stream pointers once each (a log uses few), so that a call costs a map lookup, not a
// conversion and an allocation, and its nullable fields point into storage the caller reuses.
type RowBuilder struct{ names map[uint64]string }

// Row is RowOf(file, c); its Pid, Step and Rank point into *ints, to which it appends. The
// caller gives ints room for 3 more so that earlier rows' pointers stay valid.
func (b *RowBuilder) Row(file string, c *stages.Call, ints *[]int64) CallRow {
	r := CallRow{File: file, Line: c.Line, Host: c.Env.Host, Comm: b.pointer(c, parser.PtrComm),
		Op: string(c.Coll.Op), OpCount: c.Coll.OpCount, Count: c.Coll.Count, Dtype: c.Coll.Datatype.String(),
		Bytes: c.Bytes(), RedOp: int64(c.Coll.RedOp), Root: c.Coll.Root, NRanks: c.Coll.NRanks,
		Stream: b.pointer(c, parser.PtrStream), Counted: !c.Dropped}
	t := TimeOf(c.Time)
	r.Time, r.NoYear, r.SinceInitMs = t.Time, t.NoYear, t.SinceInitMs
	at := func(v int64) *int64 {
		*ints = append(*ints, v)
		return &(*ints)[len(*ints)-1]
	}
	if c.Env.HasEnvelope() {
		r.Pid = at(c.Env.Pid)
	}
	if c.Step >= 0 {
		r.Step = at(c.Step)
	}
	if c.Rank >= 0 {
		r.Rank = at(c.Rank)
	}
	return r
}

func (b *RowBuilder) pointer(c *stages.Call, f parser.PtrFields) string {
	if c.Coll.Unread&f != 0 {
		return ""
	}
	v := pointerOf(c, f)
	if b.names == nil || len(b.names) > 1<<16 {
		b.names = make(map[uint64]string)
	}
	s, ok := b.names[v]
	if !ok {
		s = PointerText(v)
		b.names[v] = s
	}
	return s
}
