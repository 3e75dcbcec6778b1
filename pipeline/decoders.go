package pipeline

import (
	"io"
	"sync"
)

// decoders keeps the xz and zstd decoders of a run's closed inputs for its next ones. A
// decoder keeps its dictionary or window from one stream to the next, so a run of many small
// files allocates one per input read at once rather than one per file: forty tiny files each
// declaring a 128 MiB window made forty windows, and the garbage between collections held
// several at once (550 MB of RSS, 11 s). Decoders are made only where none is kept, so those
// kept and those in use together are never more than were in use at once.
type decoders struct {
	mu   sync.Mutex
	free map[decoderKey][]io.Reader
}

// decoderKey tells decoders apart by codec and dictionary or window limit.
type decoderKey struct {
	codec string
	limit int64
}

// take returns a kept decoder of codec with limit, or nil. d may be nil: a run of one input
// keeps none.
func (d *decoders) take(codec string, limit int64) io.Reader {
	if d == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	k := decoderKey{codec, limit}
	n := len(d.free[k])
	if n == 0 {
		return nil
	}
	r := d.free[k][n-1]
	d.free[k] = d.free[k][:n-1]
	return r
}

// keep takes back r, a decoder of codec with limit that its input is done with.
func (d *decoders) keep(codec string, limit int64, r io.Reader) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.free == nil {
		d.free = make(map[decoderKey][]io.Reader)
	}
	k := decoderKey{codec, limit}
	d.free[k] = append(d.free[k], r)
}
