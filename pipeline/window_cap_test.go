package pipeline

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// xzStream is an xz stream of one block holding data in LZMA2 uncompressed chunks, its
// block header declaring the dictionary that LZMA2 property byte dict stands for: built by
// hand, as a crafted file would be, since no encoder writes a dictionary it does not use.
func xzStream(data []byte, dict byte) []byte {
	le := binary.LittleEndian
	crc := func(b []byte) []byte { return le.AppendUint32(nil, crc32.ChecksumIEEE(b)) }
	flags := []byte{0, 1} // CRC32 check
	out := append([]byte{0xfd, '7', 'z', 'X', 'Z', 0}, flags...)
	out = append(out, crc(flags)...)
	hdr := []byte{2, 0, 0x21, 1, dict, 0, 0, 0} // 12 bytes with its CRC: one filter, LZMA2
	hdr = append(hdr, crc(hdr)...)
	block := append([]byte{}, hdr...)
	ctl := byte(1) // an uncompressed chunk that resets the dictionary, then ones that keep it
	for rest := data; len(rest) > 0; ctl = 2 {
		n := min(len(rest), 1<<16)
		block = append(block, ctl, byte((n-1)>>8), byte(n-1))
		block, rest = append(block, rest[:n]...), rest[n:]
	}
	block = append(block, 0) // end of the LZMA2 data
	unpadded := len(block)
	for len(block)%4 != 0 {
		block = append(block, 0)
	}
	block = append(block, crc(data)...)
	unpadded += 4
	out = append(out, block...)
	index := binary.AppendUvarint(binary.AppendUvarint([]byte{0, 1}, uint64(unpadded)), uint64(len(data)))
	for len(index)%4 != 0 {
		index = append(index, 0)
	}
	index = append(index, crc(index)...)
	out = append(out, index...)
	footer := append(le.AppendUint32(nil, uint32(len(index)/4-1)), flags...)
	out = append(out, crc(footer)...)
	return append(append(out, footer...), 'Y', 'Z')
}

// zstdFrame is a zstd frame of raw blocks holding data, with window descriptor wd (no
// content size, no checksum): 0x68 is 8 MiB, 0x88 128 MiB, 0x89 144 MiB.
func zstdFrame(data []byte, wd byte) []byte {
	out := []byte{0x28, 0xb5, 0x2f, 0xfd, 0, wd}
	for first := true; first || len(data) > 0; first = false {
		n := min(len(data), 1<<16)
		last := 0
		if n == len(data) {
			last = 1
		}
		h := uint32(n)<<3 | uint32(last)
		out = append(out, byte(h), byte(h>>8), byte(h>>16))
		out, data = append(out, data[:n]...), data[n:]
	}
	return out
}

const capLog = "host:1:2 [0] NCCL INFO hello\n"

// TestWindowCaps: an xz block or zstd frame that declares a dictionary or window over the
// cap is refused, by file and from standard input, with one line naming the file (quoted),
// the cap and the remedy; one at the cap is read.
func TestWindowCaps(t *testing.T) {
	data := []byte(strings.Repeat(capLog, 100))
	for _, tc := range []struct {
		what    string
		stream  []byte
		wantErr string // with %q for the name; "" to read it
	}{
		{"xz 64 MiB", xzStream(data, 28), ""},
		{"xz 96 MiB", xzStream(data, 29),
			"%q: an xz block declares a dictionary over 64 MiB, the most nccllog reads (decompress it first: xz -d)"},
		{"xz 4 GiB", xzStream(data, 40),
			"%q: an xz block declares a dictionary over 64 MiB, the most nccllog reads (decompress it first: xz -d)"},
		{"zstd 128 MiB", zstdFrame(data, 0x88), ""},
		{"zstd 144 MiB", zstdFrame(data, 0x89),
			"%q: a zstd frame declares a window over 128 MiB, the most nccllog reads (decompress it first: zstd -d --long=31)"},
		{"zstd 2 GiB after a small frame", append(zstdFrame(data, 0x68), zstdFrame(data, 0xa8)...),
			"%q: a zstd frame declares a window over 128 MiB, the most nccllog reads (decompress it first: zstd -d --long=31)"},
	} {
		file := writeText(t, "in.log", string(tc.stream))
		for _, in := range []Input{{Name: file}, {Name: "-", Stdin: bytes.NewReader(tc.stream)}} {
			got := run(in, 2, 4096, runConfigs[0])
			what := tc.what + " " + in.DisplayName()
			switch {
			case tc.wantErr == "" && got.err != nil:
				t.Errorf("%s: %v", what, got.err)
			case tc.wantErr == "" && got.res.Lines().Total != 100:
				t.Errorf("%s: %d lines, want 100", what, got.res.Lines().Total)
			case tc.wantErr != "" && (got.err == nil || got.err.Error() != fmt.Sprintf(tc.wantErr, in.DisplayName())):
				t.Errorf("%s: error %v, want %s", what, got.err, fmt.Sprintf(tc.wantErr, in.DisplayName()))
			}
		}
	}
}

// TestWindowCapMemory: forty small crafted xz files, each declaring a 4 GiB dictionary, read
// eight at once, allocate little: each is refused at its block header, before a dictionary
// is made (before the cap each allocated its 4 GiB: runs of such files reached 6-9 GiB of
// RSS). Forty small zstd files that each declare a 128 MiB window, the cap, and forty xz
// files at 64 MiB, are read, and allocate one window or dictionary for the run: one input at
// a time decodes such a window, and the next reuses its decoder (each made its own before:
// 5 GiB of allocation, 550 MB of RSS). TotalAlloc counts every allocation, so the bounds do
// not depend on when the collector runs. Skipped with -short.
func TestWindowCapMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the memory bound of 64-128 MiB windows runs without -short")
	}
	files := 40
	for _, tc := range []struct {
		what   string
		stream []byte
		err    string // the start of the error, with %q for the first file
		alloc  int64
	}{
		{"xz 4 GiB", xzStream([]byte(capLog), 40), "%q: an xz block declares a dictionary over 64 MiB", 64 << 20},
		{"zstd 128 MiB", zstdFrame([]byte(capLog), 0x88), "", 128<<20 + 64<<20},
		{"xz 64 MiB", xzStream([]byte(capLog), 28), "", 64<<20 + 64<<20},
	} {
		dir := t.TempDir()
		for i := range files {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%02d.log", i)), tc.stream, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		inputs, err := Expand([]string{dir}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		res, err := RunAll(context.Background(), inputs, Options{Jobs: 8, Plan: runConfigs[0].plan(), Parsers: sharedParsers()}, discard{})
		runtime.ReadMemStats(&after)
		switch want := fmt.Sprintf(tc.err, inputs[0].Name); {
		case tc.err == "" && (err != nil || res.Lines().Total != int64(files)):
			t.Errorf("%s: error %v, %d lines, want %d", tc.what, err, res.Lines().Total, files)
		case tc.err != "" && (err == nil || !strings.HasPrefix(err.Error(), want)):
			t.Errorf("%s: error %v, want one starting %s", tc.what, err, want)
		}
		if got := int64(after.TotalAlloc - before.TotalAlloc); got > tc.alloc {
			t.Errorf("%s: reading %d %d-byte files allocated %d MiB, want at most %d",
				tc.what, files, len(tc.stream), got>>20, tc.alloc>>20)
		}
	}
}

// TestWindowGate: of two inputs of a run whose first headers declare more than smallWindow,
// the second waits to decode until the first is closed, so their dictionaries are never held
// at once; the first's own second reading (the reading ahead) does not wait. An input whose
// first header declares at most smallWindow is read beside them, and a later frame over
// smallWindow in it is refused, naming the file and smallWindow; read alone, it is read. A
// wait for the gate ends with the run.
//
// The large windows are the smallest over smallWindow (a zstd window of 9 MiB, an xz
// dictionary of 12 MiB): the decoders clear all of what a header declares, and 128 and 64 MiB
// took most of the package's -short time for what a little over the line tests as well.
func TestWindowGate(t *testing.T) {
	data := []byte(strings.Repeat(capLog, 100))
	const zstdOver, xzOver = 0x69, 23 // 9 MiB (2^23 + 2^20), 12 MiB (3 << 22)
	big := writeText(t, "big.log", string(zstdFrame(data, zstdOver)))
	big2 := writeText(t, "big2.log", string(xzStream(data, xzOver)))
	mixed := writeText(t, "mixed.log", string(append(zstdFrame(data, 0x68), zstdFrame(data, zstdOver)...)))
	inputs, err := Expand([]string{big, big2, mixed}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	first, err := open(inputs[0])
	if err != nil {
		t.Fatal(err)
	}
	again, err := open(inputs[0])
	if err != nil {
		t.Fatal(err)
	}
	second, err := open(inputs[1])
	if err != nil {
		t.Fatal(err)
	}
	if _, waits := again.r.(*gatedDecoder); waits {
		t.Errorf("the first input's second reading waits for the gate it holds")
	}
	if _, waits := second.r.(*gatedDecoder); !waits || second.gate.tryEnter(second.name) {
		t.Fatalf("the second input does not wait while the first holds the gate")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := second.start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := second.r.Read(make([]byte, 100)); !errors.Is(err, context.Canceled) {
		t.Errorf("the second input, waiting for the gate when its run ends, read with error %v", err)
	}
	again.Close()
	first.Close()
	if n, err := second.r.Read(make([]byte, 100)); n == 0 || err != nil || !second.gated {
		t.Errorf("after the first input closed, the second read %d bytes, error %v, gate held %v", n, err, second.gated)
	}
	second.Close()
	if !second.gate.tryEnter("next") {
		t.Errorf("the gate is still held after both inputs closed")
	}
	second.gate.leave()

	got := run(inputs[2], 2, 4096, runConfigs[0])
	want := fmt.Sprintf("%q: a zstd frame declares a window over 8 MiB where its first declared at most that, "+
		"the most nccllog reads beside other inputs (decompress it first: zstd -d)", mixed)
	if got.err == nil || got.err.Error() != want {
		t.Errorf("mixed beside others: error %v, want %s", got.err, want)
	}
	if got := run(Input{Name: mixed}, 2, 4096, runConfigs[0]); got.err != nil || got.res.Lines().Total != 200 {
		t.Errorf("mixed alone: error %v, %d lines, want 200", got.err, got.res.Lines().Total)
	}
}
