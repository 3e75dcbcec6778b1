package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages/stream"
)

// timedLog is a small generated job whose every line carries a time of the form.
func timedLog(t *testing.T, form string, digits int) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := gen.Write(&b, gen.Config{Seed: 1, Ranks: 4, RanksPerHost: 2, Steps: 2, Timestamps: form,
		TimestampDigits: digits}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestCallsTimeEveryForm: every form the generator prints reaches calls' time fields with
// the precision printed, Z only for a zone, no year for syslog and glog.
func TestCallsTimeEveryForm(t *testing.T) {
	for _, c := range []struct {
		form   string
		digits int
		time   string // the pattern of "time"; "" for null
		noYear string // of "time_no_year"; "" for absent
	}{
		{"nccl-all", 0, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$`, ""},
		{"nccl-all", 6, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$`, ""},
		{"iso", 0, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$`, ""},
		{"iso", 3, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, ""},
		{"slash", 0, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$`, ""},
		{"bracketed", 0, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, ""},
		{"pylog", 0, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$`, ""},
		{"syslog", 0, "", `^\d\d-\d\dT\d\d:\d\d:\d\d$`},
		{"glog", 0, "", `^\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$`},
		{"glog", 2, "", `^\d\d-\d\dT\d\d:\d\d:\d\d\.\d{2}$`},
	} {
		stdout, stderr, code := runCLI(t, timedLog(t, c.form, c.digits), "calls", "--format", "ndjson", "-")
		if code != exitOK {
			t.Fatalf("%s: status %d: %s", c.form, code, stderr)
		}
		lines := bytes.Split(bytes.TrimSpace([]byte(stdout)), []byte("\n"))
		if len(lines) < 8 {
			t.Fatalf("%s: %d calls", c.form, len(lines))
		}
		for _, l := range lines {
			var r struct {
				Time   *string `json:"time"`
				NoYear *string `json:"time_no_year"`
			}
			if err := json.Unmarshal(l, &r); err != nil {
				t.Fatal(err)
			}
			checkTimeField(t, c.form+" time", r.Time, c.time)
			checkTimeField(t, c.form+" time_no_year", r.NoYear, c.noYear)
		}
	}
}

func checkTimeField(t *testing.T, what string, got *string, pattern string) {
	t.Helper()
	switch {
	case pattern == "" && got != nil:
		t.Errorf("%s: %q, want none", what, *got)
	case pattern != "" && got == nil:
		t.Errorf("%s: none, want %s", what, pattern)
	case pattern != "" && !regexp.MustCompile(pattern).MatchString(*got):
		t.Errorf("%s: %q, want %s", what, *got, pattern)
	}
}

// TestCallsTimeExact: the time is the line's, to the digit, in the table and CSV too; an
// untimed call's is empty.
func TestCallsTimeExact(t *testing.T) {
	in := "[2025-06-11 14:03:27.512034] gpu-node-00:12:12 [0] NCCL INFO AllReduce: opCount 1 sendbuff 0x1 recvbuff 0x2 count 8 datatype 7 op 0 root 0 comm 0x7f00 [nranks=2] stream 0x9\n" +
		"2025-06-11T14:03:28.5Z gpu-node-00:12:12 [0] NCCL INFO AllReduce: opCount 2 sendbuff 0x1 recvbuff 0x2 count 8 datatype 7 op 0 root 0 comm 0x7f00 [nranks=2] stream 0x9\n" +
		"gpu-node-00:12:12 [0] NCCL INFO AllReduce: opCount 3 sendbuff 0x1 recvbuff 0x2 count 8 datatype 7 op 0 root 0 comm 0x7f00 [nranks=2] stream 0x9\n"
	csvOut, _, _ := runCLI(t, in, "calls", "--format", "csv", "-")
	want := []string{",2025-06-11T14:03:27.512034,,", ",2025-06-11T14:03:28.5Z,,", "<stdin>,,,"}
	lines := bytes.Split(bytes.TrimSpace([]byte(csvOut)), []byte("\n"))[1:]
	if len(lines) != 3 {
		t.Fatalf("csv: %q", csvOut)
	}
	for i, l := range lines {
		if !bytes.HasSuffix(l, []byte(want[i])) {
			t.Errorf("csv row %d: %q, want it to end %q", i+1, l, want[i])
		}
	}
	table, _, _ := runCLI(t, in, "calls", "-")
	if !regexp.MustCompile(`0x7f00         2025-06-11T14:03:27.512034\n.*2025-06-11T14:03:28.5Z\n.*0x7f00\n$`).MatchString(table) {
		t.Errorf("table:\n%s", table)
	}
}

// TestCallsTimeParquet: Parquet's time columns hold what NDJSON writes.
func TestCallsTimeParquet(t *testing.T) {
	for _, form := range []string{"iso", "glog"} {
		in := filepath.Join(t.TempDir(), "job.log")
		if err := os.WriteFile(in, []byte(timedLog(t, form, 0)), 0o644); err != nil {
			t.Fatal(err)
		}
		rows, err := parquet.ReadFile[stream.CallRow](exportCalls(t, "parquet", in))
		if err != nil {
			t.Fatal(err)
		}
		want := readNDJSON(t, exportCalls(t, "ndjson", in))
		if len(rows) != len(want) || len(rows) == 0 {
			t.Fatalf("%s: %d rows, want %d", form, len(rows), len(want))
		}
		for i := range rows {
			if diff := cmp.Diff(want[i], rows[i]); diff != "" {
				t.Fatalf("%s row %d (-ndjson +parquet):\n%s", form, i, diff)
			}
			if rows[i].Time == nil && rows[i].NoYear == nil {
				t.Fatalf("%s row %d: no time", form, i)
			}
		}
	}
}
