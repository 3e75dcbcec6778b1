package pipeline

import "testing"

// TestFirstWindow reads the first header's dictionary or window from crafted heads: window
// descriptors, single-segment content sizes, xz block headers with size fields before the
// filters and a filter before LZMA2; a head cut short gives 0.
func TestFirstWindow(t *testing.T) {
	zstd := func(b ...byte) []byte { return append([]byte{0x28, 0xb5, 0x2f, 0xfd}, b...) }
	xzHead := func(hdr ...byte) []byte {
		return append([]byte{0xfd, '7', 'z', 'X', 'Z', 0, 0, 1, 0, 0, 0, 0}, hdr...)
	}
	for _, tc := range []struct {
		what  string
		codec string
		head  []byte
		want  int64
	}{
		{"zstd 8 MiB", "zstd", zstd(0, 0x68), 8 << 20},
		{"zstd 2 GiB", "zstd", zstd(0, 0xa8), 2 << 30},
		{"zstd 1.25 KiB", "zstd", zstd(0, 0x02), 1024 + 256},
		{"zstd single segment, 1-byte size", "zstd", zstd(0x20, 200), 200},
		{"zstd single segment, 2-byte size after a 1-byte dictionary ID", "zstd", zstd(0x61, 9, 0, 1), 256 + 256},
		{"zstd single segment, 8-byte size", "zstd", zstd(0xe0, 0, 0, 0, 0, 1, 0, 0, 0), 1 << 32},
		{"zstd cut short", "zstd", zstd(0xe0, 0, 0), 0},
		{"xz 8 MiB", "xz", xzHead(2, 0, 0x21, 1, 22, 0, 0, 0, 0, 0, 0, 0), 8 << 20},
		{"xz 4 GiB - 1", "xz", xzHead(2, 0, 0x21, 1, 40, 0, 0, 0, 0, 0, 0, 0), 1<<32 - 1},
		{"xz sizes, then delta and LZMA2", "xz", xzHead(3, 0xc1, 0x80, 0x01, 5, 0x03, 1, 0, 0x21, 1, 28, 0, 0, 0, 0, 0), 64 << 20},
		{"xz no block", "xz", xzHead(0, 0, 0, 0), 0},
		{"xz cut short", "xz", xzHead(2, 0, 0x21), 0},
		{"gzip", "gzip", []byte{0x1f, 0x8b, 8, 0, 0, 0}, 0},
	} {
		if got := firstWindow(tc.codec, tc.head); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.what, got, tc.want)
		}
	}
}
