package pipeline

import (
	"fmt"
	"hash/crc32"
	"io"
	"os"
)

// digestWindow is how much of a log's start and of its end its digest reads.
const digestWindow = 1 << 20

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// digest tells a log apart from other logs, to find one read twice in a run (beside a
// partial result made from it, or in two partial results): its size as stored and a CRC-32C
// of its first and of its last MiB. Two logs of a job differ in both (host names, pids,
// timestamps); the CRC is the processor's instruction on amd64 and arm64, and reading 2 MiB
// at most costs little beside parsing the file. It is "" where the input is not a regular
// file or is empty, and where reading it fails (the run's own read reports that).
func digest(src *source) string {
	if src.file == nil {
		return ""
	}
	return digestOf(src.file, src.size)
}

// digestFile is the digest of the file at path, read again after a run (see sources).
func digestFile(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return ""
	}
	return digestOf(f, st.Size())
}

func digestOf(f io.ReaderAt, size int64) string {
	if size <= 0 {
		return ""
	}
	buf := make([]byte, min(size, digestWindow))
	head, err := crc(f, buf, 0)
	if err != nil {
		return ""
	}
	tail := head
	if size > digestWindow {
		if tail, err = crc(f, buf, size-digestWindow); err != nil {
			return ""
		}
	}
	return fmt.Sprintf("%d-%08x-%08x", size, head, tail)
}

func crc(f io.ReaderAt, buf []byte, at int64) (uint32, error) {
	n, err := f.ReadAt(buf, at)
	if n < len(buf) {
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return 0, err
	}
	return crc32.Checksum(buf, castagnoli), nil
}
