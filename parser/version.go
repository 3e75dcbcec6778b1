package parser

import "bytes"

// VersionOf is the library and version a version line names ("NCCL 2.21.5+cuda12.4",
// "RCCL 2.21.5-1a2b3c"), from the bare line (KindVersion), NCCL's INFO line or RCCL's
// "RCCL version : ..." block; "" when line names none.
func VersionOf(line []byte) string {
	i := cclVersion(line)
	if i < 1 || line[i-1] != 'N' && line[i-1] != 'R' {
		return ""
	}
	lib := string(line[i-1:i+3]) + " "
	rest := bytes.TrimLeft(line[i+len("CCL version"):], " \t:")
	if end := bytes.IndexAny(rest, " \t\r\n"); end >= 0 {
		rest = rest[:end]
	}
	if len(rest) == 0 || rest[0] < '0' || rest[0] > '9' {
		return ""
	}
	return lib + string(rest)
}

// cclVersion returns bytes.Index(line, "CCL version") by way of the rarer 'v': every line
// that has no version yet is searched (an INFO line in a chunk before the version line's),
// and 'C' is in every envelope, where the search for the whole word stopped twice or more.
// The first "CCL version" is the first 'v' that follows "CCL " and starts "version".
func cclVersion(line []byte) int {
	for off := 0; ; {
		k := bytes.IndexByte(line[off:], 'v')
		if k < 0 {
			return -1
		}
		k += off
		if k >= 4 && string(line[k-4:k]) == "CCL " && bytes.HasPrefix(line[k:], []byte("version")) {
			return k - 4
		}
		off = k + 1
	}
}
