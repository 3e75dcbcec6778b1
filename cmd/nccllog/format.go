package main

import (
	"encoding/csv"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/dustin/go-humanize"
)

// table is a column-aligned text table.
type table struct{ tw *tabwriter.Writer }

func newTable(w *output, header ...string) *table {
	t := &table{tw: tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)}
	t.row(header...)
	return t
}

// row adds a row; its cells are escaped (see escaped) before the columns are measured, so
// that a control byte neither reaches the terminal nor breaks the alignment, and a tab or
// newline in a cell can neither split it nor start a row.
func (t *table) row(cells ...string) {
	var b strings.Builder
	for _, c := range cells {
		b.WriteString(escaped(c))
		b.WriteByte('\t')
	}
	b.WriteByte('\n')
	t.tw.Write([]byte(b.String()))
}

func (t *table) flush() { t.tw.Flush() }

func writeCSV(w *output, header []string, rows [][]string) error {
	cw := csv.NewWriter(w)
	cw.Write(header)
	cw.WriteAll(rows)
	return cw.Error()
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// count prints a call count with thousands separators.
func count(v int64) string { return humanize.Comma(v) }

// size prints bytes in binary units (12 KiB, 9.5 MiB).
func size(v int64) string {
	if v < 0 {
		return "-" + humanize.IBytes(uint64(-v))
	}
	return humanize.IBytes(uint64(v))
}

func sizeF(v float64) string { return size(int64(v + 0.5)) }

func ftoa(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// calls is "1 call" or "1,234 calls".
func calls(n int64) string {
	if n == 1 {
		return "1 call"
	}
	return count(n) + " calls"
}

// plural is "1 rank", "2 ranks", "1,024 processes".
func plural(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "s") {
		return count(n) + " " + word + "es"
	}
	return count(n) + " " + word + "s"
}
