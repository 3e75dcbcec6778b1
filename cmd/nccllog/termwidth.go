package main

import (
	"os"
	"strconv"

	"github.com/vbauerster/cupwriter"
)

// fallbackWidth is the width of a terminal that says none.
const fallbackWidth = 80

// stdoutWidth is what text tables are cut to where stdout is a terminal: $COLUMNS where it
// holds a width, else the terminal's (asked through the console writer the progress bar
// uses), else fallbackWidth; 0 where stdout is no terminal (a pipe or a file: rows whole).
func stdoutWidth(getenv func(string) string) int {
	cw := cupwriter.New(os.Stdout, false)
	if !cw.IsTerminal() {
		return 0
	}
	return termWidth(getenv("COLUMNS"), cw.GetTermSize)
}

// termWidth picks the width of a terminal: columns (the $COLUMNS value) where it is a
// positive number, else what size reports, else fallbackWidth.
func termWidth(columns string, size func() (int, int, error)) int {
	if n, err := strconv.Atoi(columns); err == nil && n > 0 {
		return n
	}
	if w, _, err := size(); err == nil && w > 0 {
		return w
	}
	return fallbackWidth
}
