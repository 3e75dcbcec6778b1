package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// runCLIWidth runs nccllog as runCLI does, with stdout a terminal of width columns (0: a
// pipe).
func runCLIWidth(t *testing.T, width int, stdin string, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(args, env{parsers: testParsers(), stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, width: width}); code != exitOK {
		t.Fatalf("%v: exit %d: %s", args, code, errb.String())
	}
	return out.String()
}

// longWarnLog is a log whose WARN (and so its template) is far wider than a terminal.
func longWarnLog() string {
	warn := "NET/IB: Got completion from peer 10.0.0.2<4242> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.0.0.1 remoteGids::ffff:10.0.0.2 hca mlx5_0 " + strings.Repeat("tail ", 30) + "END"
	return "gpu-node-00:100:200 [0] NCCL INFO NCCL version 2.27.5+cuda12.9\n" +
		"gpu-node-00:100:200 [0] NCCL INFO comm 0x5555 rank 0 nranks 1 cudaDev 0 nvmlDev 0 busId 18000 commId 0xabc - Init COMPLETE\n" +
		"gpu-node-00:100:300 [0] transport/net_ib.cc:2453 NCCL WARN " + warn + "\n"
}

// warnRows are the rows of info's "WARNs by template" table.
func warnRows(t *testing.T, out string) []string {
	t.Helper()
	const head = "== WARNs by template ==\n"
	i := strings.Index(out, head)
	if i < 0 {
		t.Fatalf("no WARN table:\n%s", out)
	}
	table := out[i+len(head):]
	return strings.Split(table[:strings.Index(table, "\n\n")], "\n")
}

// TestTableCutToTerminal: on a terminal of 80 columns, the WARN table's rows fit it, the WARN
// (its last column) cut with "…" and the columns before it whole; --wide and a pipe give the
// whole rows, the same bytes.
func TestTableCutToTerminal(t *testing.T) {
	log := longWarnLog()
	rows := warnRows(t, runCLIWidth(t, 80, log, "info", "-"))
	if len(rows) != 2 || !strings.HasSuffix(rows[1], "…") || !strings.Contains(rows[1], "gpu-node-00  <stdin>:3  <stdin>:3  NET/IB: Got completion") {
		t.Errorf("rows not cut as wanted:\n%s", strings.Join(rows, "\n"))
	}
	for _, r := range rows {
		if n := utf8.RuneCountInString(r); n > 80 {
			t.Errorf("row of %d characters on a terminal of 80: %q", n, r)
		}
	}
	wide := runCLIWidth(t, 80, log, "info", "--wide", "-")
	pipe := runCLIWidth(t, 0, log, "info", "-")
	if wide != pipe || strings.Contains(pipe, "…") || !strings.Contains(warnRows(t, pipe)[1], "tail END") {
		t.Errorf("--wide and a pipe should give whole rows:\n%s\n---\n%s", wide, pipe)
	}
}

// TestCutLastKeepsLeadingColumns: where the columns before the last leave less than minCut,
// they stay whole and the last keeps minCut characters; rows that fit and rows of another
// shape are left as they are.
func TestCutLastKeepsLeadingColumns(t *testing.T) {
	long := strings.Repeat("x", 50)
	rows := [][]string{{"name", "text"}, {strings.Repeat("n", 40), long}, {"a", "short"}, {"odd"}}
	cutLast(rows, 30)
	if rows[1][0] != strings.Repeat("n", 40) || rows[1][1] != strings.Repeat("x", minCut-1)+"…" || rows[2][1] != "short" || rows[3][0] != "odd" {
		t.Errorf("got %q", rows)
	}
}

// TestTermWidth: $COLUMNS first, then the terminal's size, then 80.
func TestTermWidth(t *testing.T) {
	size := func(w int, err error) func() (int, int, error) {
		return func() (int, int, error) { return w, 24, err }
	}
	for _, c := range []struct {
		columns string
		size    func() (int, int, error)
		want    int
	}{
		{"132", size(100, nil), 132},
		{"", size(100, nil), 100},
		{"wide", size(100, nil), 100},
		{"-3", size(0, errors.New("not a tty")), 80},
		{"", size(0, nil), 80},
	} {
		if got := termWidth(c.columns, c.size); got != c.want {
			t.Errorf("termWidth(%q): %d, want %d", c.columns, got, c.want)
		}
	}
}
