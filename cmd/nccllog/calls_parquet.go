package main

import (
	"bufio"

	"github.com/parquet-go/parquet-go"

	"github.com/nccllog/nccllog/stages"
)

// parquetRowGroup is how many calls make one row group: the writer holds one row group's
// pages in memory, so this bounds memory however long the log is.
const parquetRowGroup = 256 << 10

// parquetBatch is how many rows are handed to the writer at once.
const parquetBatch = 4096

// parquetSink writes calls as Parquet, zstd-compressed, strings dictionary-encoded.
type parquetSink struct {
	buf   *bufio.Writer
	w     *parquet.GenericWriter[callRow]
	batch []callRow
}

func newParquetSink(buf *bufio.Writer) *parquetSink {
	w := parquet.NewGenericWriter[callRow](buf, parquet.Compression(&parquet.Zstd),
		parquet.MaxRowsPerRowGroup(parquetRowGroup), parquet.CreatedBy("nccllog", "", ""))
	return &parquetSink{buf: buf, w: w, batch: make([]callRow, 0, parquetBatch)}
}

func (s *parquetSink) add(file string, c *stages.Call) error {
	s.batch = append(s.batch, toCallRow(file, c))
	if len(s.batch) < parquetBatch {
		return nil
	}
	return s.flushBatch()
}

func (s *parquetSink) flushBatch() error {
	_, err := s.w.Write(s.batch)
	clear(s.batch)
	s.batch = s.batch[:0]
	return err
}

func (s *parquetSink) close() error {
	if err := s.flushBatch(); err != nil {
		return err
	}
	if err := s.w.Close(); err != nil {
		return err
	}
	return s.buf.Flush()
}
