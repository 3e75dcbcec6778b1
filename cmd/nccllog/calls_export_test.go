package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"

	"github.com/nccllog/nccllog/stages/stream"
)

// callsJSON is calls --format json, the reference the exports are held to.
type callsJSON struct {
	Calls []stream.CallRecord `json:"calls"`
}

// exportCalls runs calls with args and -o into a temp dir and returns the file.
func exportCalls(t *testing.T, format string, args ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "calls."+format)
	stdout, stderr, code := runCLI(t, "", append([]string{"calls", "--format", format, "-o", out}, args...)...)
	if code != exitOK || stdout != "" || stderr != "" {
		t.Fatalf("calls --format %s -o: status %d, stdout %q, stderr %q", format, code, stdout, stderr)
	}
	return out
}

func readNDJSON(t *testing.T, path string) []stream.CallRow {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []stream.CallRow
	s := bufio.NewScanner(f)
	for s.Scan() {
		var r stream.CallRow
		if err := json.Unmarshal(s.Bytes(), &r); err != nil {
			t.Fatalf("line %d: %v", len(rows)+1, err)
		}
		rows = append(rows, r)
	}
	return rows
}

func TestCallsExportParquetAndNDJSON(t *testing.T) {
	var ref callsJSON
	decode(t, []string{"calls", "--format", "json", sampleLog}, &ref)
	rows, err := parquet.ReadFile[stream.CallRow](exportCalls(t, "parquet", sampleLog))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(ref.Calls) || len(rows) < 2000 {
		t.Fatalf("parquet has %d rows, calls --format json %d", len(rows), len(ref.Calls))
	}
	left := 0
	for i, r := range rows {
		want := ref.Calls[i]
		got := stream.CallRecord{Line: r.Line, Step: r.Step, Host: r.Host, Pid: r.Pid, Rank: r.Rank, Op: r.Op, OpCount: r.OpCount,
			Count: r.Count, Dtype: r.Dtype, Bytes: r.Bytes, RedOp: r.RedOp, Root: r.Root, NRanks: r.NRanks,
			Comm: r.Comm, Stream: r.Stream, Counted: r.Counted}
		// reflect.DeepEqual first: cmp walking each of the 2,000 equal rows was a sixth of the
		// test's time. The rows are plain data without Equal methods, so where DeepEqual holds
		// cmp finds no difference either.
		if !reflect.DeepEqual(want, got) || r.File != sampleLog {
			if d := cmp.Diff(want, got); d != "" || r.File != sampleLog {
				t.Fatalf("row %d (file %q) differs from calls --format json (-want +got):\n%s", i, r.File, d)
			}
		}
		if !r.Counted {
			left++
		}
	}
	if left == 0 {
		t.Error("no left-out call in the sample: the counted column is not exercised")
	}
	if nd := readNDJSON(t, exportCalls(t, "ndjson", sampleLog)); !reflect.DeepEqual(rows, nd) {
		if d := cmp.Diff(rows, nd); d != "" {
			t.Errorf("ndjson differs from parquet (-parquet +ndjson):\n%s", d)
		}
	}
}

// TestCallsExportNamesEachFile: over several inputs, every row names the file it came from.
func TestCallsExportNamesEachFile(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")
	sample := readFile(t, sampleLog)
	os.WriteFile(a, []byte(sample), 0o644)
	os.WriteFile(b, []byte(sample), 0o644)
	rows := readNDJSON(t, exportCalls(t, "ndjson", a, b))
	if len(rows)%2 != 0 || rows[0].File != a || rows[len(rows)/2-1].File != a || rows[len(rows)/2].File != b ||
		rows[len(rows)/2].Line != rows[0].Line {
		t.Errorf("%d rows; files %q %q %q", len(rows), rows[0].File, rows[len(rows)/2-1].File, rows[len(rows)/2].File)
	}
}

// TestCallsOutputFile: -o writes what stdout would get, and a failed run leaves no file.
func TestCallsOutputFile(t *testing.T) {
	stdout, _, _ := runCLI(t, "", "calls", "--format", "csv", sampleLog)
	if got := readFile(t, exportCalls(t, "csv", sampleLog)); got != stdout {
		t.Errorf("-o wrote %d bytes, stdout gets %d", len(got), len(stdout))
	}
	for _, format := range []string{"parquet", "ndjson", "csv"} {
		dir := t.TempDir()
		out := filepath.Join(dir, "calls")
		_, stderr, code := runCLI(t, "", "calls", "--format", format, "-o", out, sampleLog, filepath.Join(dir, "missing.log"))
		if code != exitData || !strings.Contains(stderr, "missing.log") {
			t.Errorf("%s: status %d, stderr %q", format, code, stderr)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("%s: a failed run left %v", format, left)
		}
	}
	bad := filepath.Join(t.TempDir(), "no-such-dir", "calls.parquet")
	if _, stderr, code := runCLI(t, "", "calls", "--format", "parquet", "-o", bad, sampleLog); code != exitData ||
		stderr != "nccllog: creating "+strconv.Quote(bad)+": no such file or directory\n" {
		t.Errorf("unwritable -o: status %d, stderr %q", code, stderr)
	}
	if _, stderr, code := runCLI(t, "", "calls", "--format", "parquet", sampleLog); code != exitUsage || !strings.Contains(stderr, "-o FILE") {
		t.Errorf("parquet to stdout: status %d, stderr %q", code, stderr)
	}
}

// TestCallsParquetInDuckDB reads the export with the duckdb CLI, where it is installed.
func TestCallsParquetInDuckDB(t *testing.T) {
	duckdb, err := exec.LookPath("duckdb")
	if err != nil {
		t.Skip("no duckdb CLI on PATH (not packaged in Debian 12)")
	}
	var ref callsJSON
	decode(t, []string{"calls", "--format", "json", sampleLog}, &ref)
	want := 0
	for _, c := range ref.Calls {
		if c.Op == "AllGather" && c.Counted {
			want++
		}
	}
	file := exportCalls(t, "parquet", sampleLog)
	q := "select count(*) from '" + file + "' where op = 'AllGather' and counted"
	out, err := exec.Command(duckdb, "-noheader", "-csv", "-c", q).CombinedOutput()
	if err != nil {
		t.Fatalf("duckdb: %v: %s", err, out)
	}
	if got, _ := strconv.Atoi(strings.TrimSpace(string(out))); got != want || want == 0 {
		t.Errorf("duckdb counts %q AllGather calls, calls --format json %d", out, want)
	}
}

// TestCallsOpCountDecimal: every machine format writes a call's opCount as the decimal
// integer it is (CSV's column as JSON, NDJSON and Parquet have it: DuckDB and pandas read
// the CSV's hex 352 as three hundred fifty-two, not 850); the table keeps NCCL's hex, marked 0x.
func TestCallsOpCountDecimal(t *testing.T) {
	var ref callsJSON
	decode(t, []string{"calls", "--format", "json", sampleLog}, &ref)
	out, _, code := runCLI(t, "", "calls", "--format", "csv", sampleLog)
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != exitOK || err != nil || len(rows) != len(ref.Calls)+1 || rows[0][6] != "opcount" {
		t.Fatalf("calls --format csv: status %d, %v, %d rows for %d calls", code, err, len(rows), len(ref.Calls))
	}
	hex := 0
	for i, c := range ref.Calls {
		if got, want := rows[i+1][6], strconv.FormatUint(c.OpCount, 10); got != want {
			t.Fatalf("call %d (line %d): csv opcount %q, want %s as in JSON", i, c.Line, got, want)
		}
		if c.OpCount >= 10 {
			hex++
		}
	}
	if hex == 0 {
		t.Fatal("no opCount of 10 or more in the sample: hex and decimal are not told apart")
	}
	table, _, _ := runCLI(t, "", "calls", sampleLog)
	last := ref.Calls[len(ref.Calls)-1]
	if want := " 0x" + strconv.FormatUint(last.OpCount, 16) + " "; !strings.Contains(lastLine(table), want) {
		t.Errorf("table's last call %q does not show its opCount as %q", lastLine(table), want)
	}
}

func lastLine(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// TestParquetRootName: the Parquet file's root schema keeps the name it has always had (the
// writer names it after the row's Go type), so that files stay the same byte for byte.
func TestParquetRootName(t *testing.T) {
	f, err := os.Open(exportCalls(t, "parquet", sampleLog))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	if name := pf.Schema().Name(); name != "callRow" {
		t.Errorf("root schema %q, want callRow", name)
	}
}
