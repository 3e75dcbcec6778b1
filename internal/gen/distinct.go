package gen

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// The distinct inputs hold few lines of many distinct things, to measure what nccllog's
// memory grows with: communicators, one comm pointer handed out again and again, call shapes,
// step numbers past 2^31, and many small files.
const (
	DistinctComms  = "comms"  // n communicators of one rank, each an Init line and a call, over 64 processes
	DistinctCycle  = "cycle"  // one process's one comm pointer through Init, a call and Destroy, n times
	DistinctShapes = "shapes" // n calls on one communicator, each of another (op, count, datatype)
	DistinctSteps  = "steps"  // n steps numbered from 2^32, a call on one communicator in each
)

// DistinctKinds lists the kinds WriteDistinct knows.
var DistinctKinds = []string{DistinctComms, DistinctCycle, DistinctShapes, DistinctSteps}

// distinctProcs is how many processes the communicators of DistinctComms are spread over.
const distinctProcs = 64

// WriteDistinct writes the distinct input kind with n things to w. The same arguments always
// give the same bytes.
func WriteDistinct(w io.Writer, kind string, n int64) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var write func(*bufio.Writer, int64)
	switch kind {
	case DistinctComms:
		write = writeDistinctComms
	case DistinctCycle:
		write = writeDistinctCycle
	case DistinctShapes:
		write = writeDistinctShapes
	case DistinctSteps:
		write = writeDistinctSteps
	default:
		return fmt.Errorf("unknown distinct kind %q (want one of %v)", kind, DistinctKinds)
	}
	write(bw, n)
	return bw.Flush()
}

// WriteSmallFiles writes n small per-process files into dir (each an Init line, a few calls and
// a Destroy line of one rank of one communicator of n ranks) and returns their paths.
func WriteSmallFiles(dir string, n int) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	paths := make([]string, 0, n)
	for i := range n {
		path := filepath.Join(dir, fmt.Sprintf("nccl.%06d.log", i))
		var b []byte
		d := distinctProc{host: i / 8, pid: 10000 + int64(i)}
		b = d.initLine(b, 0x55d000000000+uint64(i)*0x40, int64(i), int64(n), 0xfeed0000c0ffee)
		for k := range 4 {
			b = d.call(b, "AllReduce", uint64(k), 0x55d000000000+uint64(i)*0x40, int64(1024<<k), 7, int64(n))
		}
		b = d.closeLine(b, 0x55d000000000+uint64(i)*0x40, int64(i), int64(n), "Destroy")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return nil, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// distinctProc is the envelope of one process's lines.
type distinctProc struct {
	host int
	pid  int64
}

func (d distinctProc) head(b []byte) []byte {
	b = fmt.Appendf(b, "node-%03d:", d.host)
	b = strconv.AppendInt(b, d.pid, 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, d.pid, 10)
	return append(b, " [0] NCCL INFO "...)
}

func (d distinctProc) initLine(b []byte, ptr uint64, rank, nranks int64, id uint64) []byte {
	b = append(d.head(b), "ncclCommInitRank comm 0x"...)
	b = strconv.AppendUint(b, ptr, 16)
	b = append(b, " rank "...)
	b = strconv.AppendInt(b, rank, 10)
	b = append(b, " nranks "...)
	b = strconv.AppendInt(b, nranks, 10)
	b = append(b, " cudaDev 0 nvmlDev 0 busId 18000 commId 0x"...)
	b = strconv.AppendUint(b, id, 16)
	return append(b, " - Init COMPLETE\n"...)
}

func (d distinctProc) call(b []byte, op string, opCount, ptr uint64, count int64, dtype int, nranks int64) []byte {
	b = append(append(d.head(b), op...), ": opCount "...)
	b = strconv.AppendUint(b, opCount, 16)
	b = append(b, " sendbuff 0x7f23e0f3be00 recvbuff 0x7f23e0f3be00 count "...)
	b = strconv.AppendInt(b, count, 10)
	b = append(b, " datatype "...)
	b = strconv.AppendInt(b, int64(dtype), 10)
	b = append(b, " op 0 root 0 comm 0x"...)
	b = strconv.AppendUint(b, ptr, 16)
	b = append(b, " [nranks="...)
	b = strconv.AppendInt(b, nranks, 10)
	return append(b, "] stream 0x55e032ccb4b0\n"...)
}

func (d distinctProc) closeLine(b []byte, ptr uint64, rank, nranks int64, what string) []byte {
	b = append(d.head(b), "comm 0x"...)
	b = strconv.AppendUint(b, ptr, 16)
	b = append(b, " rank "...)
	b = strconv.AppendInt(b, rank, 10)
	b = append(b, " nranks "...)
	b = strconv.AppendInt(b, nranks, 10)
	return append(b, " cudaDev 0 busId 18000 - "+what+" COMPLETE\n"...)
}

// commID is communicator i's commId: distinct for every i, spread like NCCL's hashes.
func commID(i int64) uint64 { return uint64(i+1) * 0x9e3779b97f4a7c15 }

func writeDistinctComms(w *bufio.Writer, n int64) {
	var b []byte
	for i := range n {
		d := distinctProc{host: int(i % distinctProcs / 8), pid: 20000 + i%distinctProcs}
		ptr := 0x55d000000000 + uint64(i)*0x40
		b = d.initLine(b[:0], ptr, 0, 1, commID(i))
		b = d.call(b, "AllReduce", 0, ptr, 1024, 7, 1)
		w.Write(b)
	}
}

func writeDistinctCycle(w *bufio.Writer, n int64) {
	var b []byte
	d := distinctProc{host: 0, pid: 30000}
	const ptr = 0x55d0f1170760
	for i := range n {
		b = d.initLine(b[:0], ptr, 0, 1, commID(i))
		b = d.call(b, "AllReduce", 0, ptr, 1024, 7, 1)
		b = d.closeLine(b, ptr, 0, 1, "Destroy")
		w.Write(b)
	}
}

// shapeOps are the ops the shapes kind cycles through, with datatypes 0-9.
var shapeOps = []string{"AllReduce", "AllGather", "ReduceScatter", "Broadcast"}

func writeDistinctShapes(w *bufio.Writer, n int64) {
	d := distinctProc{host: 0, pid: 40000}
	const ptr = 0x55d0f1170760
	b := d.initLine(nil, ptr, 0, 1, commID(0))
	for i := range n {
		b = d.call(b, shapeOps[i%4], uint64(i), ptr, 1+i/40, int(i/4%10), 1)
		w.Write(b)
		b = b[:0]
	}
}

// writeDistinctSteps writes torchtitan's progress line after each step's call, steps numbered
// from 2^32 up.
func writeDistinctSteps(w *bufio.Writer, n int64) {
	d := distinctProc{host: 0, pid: 50000}
	const ptr = 0x55d0f1170760
	b := d.initLine(nil, ptr, 0, 1, commID(0))
	for i := range n {
		b = d.call(b, "AllReduce", uint64(i), ptr, 1024, 7, 1)
		b = append(b, "[titan] 2026-03-01 12:00:08,061 - root - INFO - step: "...)
		b = strconv.AppendInt(b, 1<<32+i, 10)
		b = append(b, "  loss: 11.02491  tflops: 287.47  mfu: 29.07%\n"...)
		w.Write(b)
		b = b[:0]
	}
}
