package main

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/nccllog/nccllog/internal/diff"
)

// printDiff lays a Diff out: a table of the differences (section, what, A -> B and B/A), then
// one line per section without any; or the Diff as JSON.
func printDiff(w *output, o *options, d diff.Diff) error {
	if o.format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false) // log text keeps its < and >
		return enc.Encode(d)
	}
	if !d.Differ() {
		w.printf("no differences\n")
	} else {
		rows := [][]string{{"section", "what", "A -> B  (B/A)"}}
		for _, x := range d.Differences {
			rows = append(rows, []string{x.Section.String(), escaped(x.What), escaped(x.A) + " -> " + escaped(x.B) + ratioCell(x)})
		}
		writeLeftAligned(w, rows)
	}
	for _, s := range d.Same {
		w.printf("%s: same\n", s.String())
	}
	return w.err
}

// ratioCell writes B/A as "  (×1.25)", or nothing where there is none.
func ratioCell(x diff.Difference) string {
	if r := x.RatioText(); r != "" {
		return "  (" + r + ")"
	}
	return ""
}

// writeLeftAligned writes rows in left-aligned columns two spaces apart, without trailing
// spaces (a difference without a ratio ends at its values). Cells are escaped already.
func writeLeftAligned(w *output, rows [][]string) {
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			b.WriteString(c)
			if i+1 < len(r) {
				b.WriteString(strings.Repeat(" ", width[i]-utf8.RuneCountInString(c)+2))
			}
		}
		_, _ = w.Write([]byte(strings.TrimRight(b.String(), " ") + "\n"))
	}
}
