package parser

import "strconv"

// Op is a collective line's operation name, as NCCL and RCCL print it. Names not listed
// below (RCCL's MSCCL variants, a future release's) are kept as printed.
type Op string

// The operation names NCCL prints (see the format reference, section 2.2).
const (
	OpAllReduce     Op = "AllReduce"
	OpAllGather     Op = "AllGather"
	OpReduceScatter Op = "ReduceScatter"
	OpBroadcast     Op = "Broadcast"
	OpReduce        Op = "Reduce"
	OpSend          Op = "Send"          // 2.7+
	OpRecv          Op = "Recv"          // 2.7+
	OpAlltoAll      Op = "AlltoAll"      // 2.28+, with a lowercase "to"
	OpGather        Op = "Gather"        // 2.28+
	OpScatter       Op = "Scatter"       // 2.28+
	OpPutSignal     Op = "PutSignal"     // 2.29+, one-sided
	OpSignal        Op = "Signal"        // 2.29+
	OpWaitSignal    Op = "WaitSignal"    // 2.29+
	OpAllToAllPivot Op = "AllToAllPivot" // RCCL
)

// PeerToPeer reports whether the op's root field is a peer, which differs by rank by design.
func (o Op) PeerToPeer() bool {
	switch o {
	case OpSend, OpRecv, OpPutSignal, OpSignal, OpWaitSignal:
		return true
	}
	return false
}

// Rooted reports whether the op has a root all ranks must agree on.
func (o Op) Rooted() bool {
	switch o {
	case OpBroadcast, OpReduce, OpGather, OpScatter:
		return true
	}
	return false
}

// Reduces reports whether the op applies a reduction op.
func (o Op) Reduces() bool {
	switch o {
	case OpAllReduce, OpReduce, OpReduceScatter:
		return true
	}
	return false
}

// Capture reads an op name.
func (o *Op) Capture(values []string) error {
	if len(values) != 1 || values[0] == "" {
		return errNumber
	}
	*o = Op(values[0])
	return nil
}

// Datatype is NCCL's ncclDataType_t, printed as `datatype %d`.
type Datatype int64

// NCCL's datatypes 0-11 (fp8 since 2.24).
const (
	Int8 Datatype = iota
	Uint8
	Int32
	Uint32
	Int64
	Uint64
	Fp16
	Fp32
	Fp64
	Bf16
	Fp8E4M3
	Fp8E5M2
)

var (
	datatypeNames = [...]string{"int8", "uint8", "int32", "uint32", "int64", "uint64", "fp16", "fp32", "fp64", "bf16", "fp8_e4m3", "fp8_e5m2"}
	datatypeSizes = [...]int64{1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1}
)

// Known reports whether NCCL defines d.
func (d Datatype) Known() bool { return d >= 0 && int(d) < len(datatypeNames) }

// Name is d's name ("bf16"), or "" for a value NCCL does not define.
func (d Datatype) Name() string {
	if !d.Known() {
		return ""
	}
	return datatypeNames[d]
}

// Size is d's element size in bytes, or 0 for a value NCCL does not define.
func (d Datatype) Size() int64 {
	if !d.Known() {
		return 0
	}
	return datatypeSizes[d]
}

// String is d's name, or "datatype N" for a value NCCL does not define.
func (d Datatype) String() string {
	if n := d.Name(); n != "" {
		return n
	}
	return "datatype " + strconv.FormatInt(int64(d), 10)
}

// DatatypeByName returns the datatype with the given name.
func DatatypeByName(name string) (Datatype, bool) {
	for i, n := range datatypeNames {
		if n == name {
			return Datatype(i), true
		}
	}
	return 0, false
}

// Capture reads a `datatype %d` field.
func (d *Datatype) Capture(values []string) error {
	var n decNum
	err := n.Capture(values)
	*d = Datatype(n)
	return err
}

// RedOp is NCCL's ncclRedOp_t, printed as `op %d`: 0-4 built in, 5 and up created by the
// application (pre-multiplied sums), numbered per communicator.
type RedOp int64

var redOpNames = [...]string{"sum", "prod", "max", "min", "avg"}

// String is the reduction's name ("sum"), or "opN" for one the application created.
func (r RedOp) String() string {
	if r >= 0 && int(r) < len(redOpNames) {
		return redOpNames[r]
	}
	return "op" + strconv.FormatInt(int64(r), 10)
}

// Capture reads an `op %d` field.
func (r *RedOp) Capture(values []string) error {
	var n decNum
	err := n.Capture(values)
	*r = RedOp(n)
	return err
}
