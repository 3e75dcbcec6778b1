package pipeline

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"
)

// TestLookaheadBufferReused: inputs read ahead one after another share one buffer. A run of
// 1,024 per-process files allocated (and zeroed) 2 MiB for each input's reading ahead.
func TestLookaheadBufferReused(t *testing.T) {
	ps := &Parsers{}
	data := []byte(strings.Repeat("host:1:1 [0] NCCL INFO AllReduce: opCount 1 sendbuff 0x1 recvbuff 0x2 count 8 datatype 7 op 0 root 0 comm 0x3 [nranks=2] stream 0x4\n", 64))
	readAhead := func() {
		lend := &lender{ps: ps}
		r := &reading{lend: lend, open: func() (io.Reader, io.Closer, error) { return bytes.NewReader(data), nil, nil }}
		mk, err := r.Marker(0)
		if err != nil || mk.Found {
			t.Fatalf("Marker = %+v, %v; want none found", mk, err)
		}
		lend.put()
	}
	readAhead() // the first input makes the buffer and the Parser
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const inputs = 16
	for range inputs {
		readAhead()
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("%d inputs read ahead allocated %d bytes; want their buffer reused (under 1 MiB)", inputs, grew)
	}
}
