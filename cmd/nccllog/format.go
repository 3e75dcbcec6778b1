package main

import (
	"encoding/csv"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/dustin/go-humanize"
)

// table is a column-aligned text table.
type table struct {
	tw *tabwriter.Writer
	// width is what a row must fit, its last column cut to it (a terminal's width, for a
	// table whose last column is free text); 0 keeps rows whole.
	width int
	// rows are the escaped cells, kept until flush where rows are cut to width.
	rows [][]string
}

// Tables pad every column by tablePad; a cut cell keeps at least minCut characters, even
// where the columns before it leave less room.
const (
	tablePad = 2
	minCut   = 20
)

// newTable starts a table printed whole, however wide its rows.
func newTable(w *output, header ...string) *table { return startTable(w, 0, header) }

// newTextTable starts a table whose last column is free text (evidence, a WARN): on a
// terminal, rows wider than it have that column cut with "…" (the output's width, 0 with
// --wide or into a pipe or file); the columns before it are never cut.
func newTextTable(w *output, header ...string) *table { return startTable(w, w.width, header) }

func startTable(w *output, width int, header []string) *table {
	t := &table{tw: tabwriter.NewWriter(w, 0, 0, tablePad, ' ', tabwriter.AlignRight), width: width}
	t.row(header...)
	return t
}

// row adds a row; its cells are escaped (see escaped) before the columns are measured, so
// that a control byte neither reaches the terminal nor breaks the alignment, and a tab or
// newline in a cell can neither split it nor start a row.
func (t *table) row(cells ...string) {
	e := make([]string, len(cells))
	for i, c := range cells {
		e[i] = escaped(c)
	}
	if t.width > 0 {
		t.rows = append(t.rows, e)
		return
	}
	t.write(e)
}

func (t *table) write(cells []string) {
	var b strings.Builder
	for _, c := range cells {
		b.WriteString(c)
		b.WriteByte('\t')
	}
	b.WriteByte('\n')
	t.tw.Write([]byte(b.String()))
}

func (t *table) flush() {
	cutLast(t.rows, t.width)
	for _, r := range t.rows {
		t.write(r)
	}
	t.rows = nil
	t.tw.Flush()
}

// cutLast cuts the last cell of rows (of as many cells as the first) so that each row, as the
// table aligns it, fits width: to the room the columns before it leave (at least minCut),
// ending in "…". Widths are counted in runes, as tabwriter counts them.
func cutLast(rows [][]string, width int) {
	if len(rows) == 0 || len(rows[0]) == 0 {
		return
	}
	n := len(rows[0])
	lead := 0
	for c := range n - 1 {
		w := 0
		for _, r := range rows {
			if c < len(r) {
				w = max(w, utf8.RuneCountInString(r[c]))
			}
		}
		lead += w + tablePad
	}
	room := max(width-lead-tablePad, minCut)
	for _, r := range rows {
		if len(r) == n && utf8.RuneCountInString(r[n-1]) > room {
			r[n-1] = string([]rune(r[n-1])[:room-1]) + "…"
		}
	}
}

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
