package main

import (
	"bufio"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/stream"
)

// parquetRowGroup is how many calls make one row group: the writer holds one row group's
// column buffers in memory, so this bounds memory however long the log is. With 64 KiB page
// buffers, a 1 GiB log's export peaks near 105 MiB resident (32 Ki rows or 256 KiB pages: 130
// to 140 MiB; the run without the export: 80 MiB).
const parquetRowGroup = 16 << 10

// parquetBatch is how many rows go to the encoder at once, and parquetInFlight how many
// batches can wait for it: encoding runs beside the parse, on its own goroutine.
const (
	parquetBatch    = 4096
	parquetInFlight = 4
)

// callRow is the calls family's row under the name the Parquet file's root schema has always
// had (the writer names it after the Go type), so that the file stays the same byte for byte.
type callRow stream.CallRow

// rowBatch is rows with the storage their nullable fields point into, reused batch after batch.
type rowBatch struct {
	rows []callRow
	ints []int64
}

// parquetSink writes calls as Parquet: zstd at its fastest level (half the size of snappy's
// file for the same time here), strings dictionary-encoded, statistics per column chunk but
// not per page (they cost a sixth of the encoding). Rows are made on the caller's goroutine
// and encoded on another.
type parquetSink struct {
	rows    stream.RowBuilder
	cur     *rowBatch
	full    chan *rowBatch
	free    chan *rowBatch
	done    chan error
	stopped bool
}

func newParquetSink(buf *bufio.Writer) *parquetSink {
	w := parquet.NewGenericWriter[callRow](buf, parquet.Compression(&zstd.Codec{Level: zstd.SpeedFastest}),
		parquet.MaxRowsPerRowGroup(parquetRowGroup), parquet.DataPageStatistics(false), parquet.PageBufferSize(64<<10),
		parquet.CreatedBy("nccllog", "", ""))
	s := &parquetSink{full: make(chan *rowBatch, parquetInFlight), free: make(chan *rowBatch, parquetInFlight+1),
		done: make(chan error, 1)}
	for range parquetInFlight + 1 {
		s.free <- &rowBatch{rows: make([]callRow, 0, parquetBatch), ints: make([]int64, 0, 3*parquetBatch)}
	}
	s.cur = <-s.free
	go s.encode(w, buf)
	return s
}

// encode writes every batch it is given; after an error it only recycles them, so the
// caller never blocks, and close returns the error.
func (s *parquetSink) encode(w *parquet.GenericWriter[callRow], buf *bufio.Writer) {
	var err error
	for b := range s.full {
		if err == nil {
			_, err = w.Write(b.rows)
		}
		clear(b.rows)
		b.rows, b.ints = b.rows[:0], b.ints[:0]
		s.free <- b
	}
	if err == nil {
		err = w.Close()
	}
	if err == nil {
		err = buf.Flush()
	}
	s.done <- err
}

func (s *parquetSink) add(file string, c *stages.Call) error {
	b := s.cur
	r := callRow(s.rows.Row(file, c, &b.ints))
	b.rows = append(b.rows, r)
	if len(b.rows) == parquetBatch {
		s.full <- b
		s.cur = <-s.free
	}
	return nil
}

// close hands over the last rows, ends the file and waits for the encoder; it is safe to call
// twice.
func (s *parquetSink) close() error {
	if s.stopped {
		return nil
	}
	s.stopped = true
	if len(s.cur.rows) > 0 {
		s.full <- s.cur
	}
	close(s.full)
	return <-s.done
}
