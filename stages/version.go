package stages

import "bytes"

// versionOf is the library and version a version line names ("NCCL 2.21.5+cuda12.4",
// "RCCL 2.21.5-1a2b3c"), from the bare line, NCCL's INFO line or RCCL's "RCCL version : ..."
// block; "" when line names none.
func versionOf(line []byte) string {
	i := bytes.Index(line, []byte("CCL version"))
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
