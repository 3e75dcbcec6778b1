//go:build linux

package pipeline

import (
	"errors"
	"os"
	"syscall"
)

// mapsFiles says whether plain files are mapped (see mapped.go) rather than read with read(2).
const mapsFiles = true

// isFault reports whether a system call failed on a bad address: a mapped chunk whose pages
// went away because the file was cut shorter.
func isFault(err error) bool { return errors.Is(err, syscall.EFAULT) }

// mapFile maps the first size bytes of f for reading, or returns nil where it cannot: the
// file is then read with read(2).
func mapFile(f *os.File, size int64) []byte {
	if size <= 0 || int64(int(size)) != size {
		return nil
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	_ = syscall.Madvise(b, syscall.MADV_SEQUENTIAL)
	return b
}

func unmapFile(b []byte) { _ = syscall.Munmap(b) }

// dropPages hands back the pages of b's mapping from the one holding b[from] up to the
// one holding b[to] (not included): the resident set stays small however long the file.
func dropPages(b []byte, from, to int) {
	page := os.Getpagesize()
	from, to = from&^(page-1), to&^(page-1)
	if to > from {
		_ = syscall.Madvise(b[from:to], syscall.MADV_DONTNEED)
	}
}
