package main

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
)

// pageText is a page's text as a reader sees it: tags dropped, entities decoded, runs of
// white space made one space.
func pageText(page string) string {
	tags := regexp.MustCompile(`(?s)<script.*?</script>|<[^>]*>`)
	return squash(html.UnescapeString(tags.ReplaceAllString(page, " ")))
}

func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// pgTableRow is a line of hang's process-group table (its header or a rank's row), which
// the page lays out as its own table.
var pgTableRow = regexp.MustCompile(`^(rank host:pid|\d+ )`)

// cliSentences are the lines a command prints, each squashed, without the "1. " that numbers
// a suspect (the page numbers them as a list) and without the process groups' table rows.
func cliSentences(out string) []string {
	var s []string
	for _, l := range strings.Split(out, "\n") {
		l = squash(l)
		l = regexp.MustCompile(`^\d+\. `).ReplaceAllString(l, "")
		if l != "" && !pgTableRow.MatchString(l) {
			s = append(s, l)
		}
	}
	return s
}

// TestReportHTMLVerdictsAsCLI: the page says what hang and check say, sentence for sentence:
// on a job whose rank 5 never reached the watchdog's work, the page showed neither the
// process group's verdict nor hang's words ("may have hung the job" where hang says
// "rank 5 (...), score 51").
func TestReportHTMLVerdictsAsCLI(t *testing.T) {
	five := 5
	in, _ := faultLog(t, gen.Config{WatchdogRank: &five, WatchdogSeq: 40}, "")
	page, _ := reportHTML(t, in)
	text := pageText(page)
	if !strings.Contains(page, `class="findings"`) {
		t.Error("the page of a hung job raises no alarm")
	}
	for _, cmd := range []string{"hang", "check"} {
		out, _, code := runCLI(t, "", cmd, in)
		if code != exitFound {
			t.Fatalf("%s: status %d, want %d", cmd, code, exitFound)
		}
		if !strings.Contains(out, "process group") && cmd == "hang" {
			t.Fatalf("hang names no process group:\n%s", out)
		}
		for _, s := range cliSentences(out) {
			if !strings.Contains(text, s) {
				t.Errorf("%s says %q; the page does not", cmd, s)
			}
		}
	}
}

// TestReportHTMLHealthyVerdict: a healthy job's page raises no alarm and says, as hang and
// check end, that nothing points to a hang and nothing disagrees.
func TestReportHTMLHealthyVerdict(t *testing.T) {
	in, _ := faultLog(t, gen.Config{}, "")
	page, _ := reportHTML(t, in)
	if strings.Contains(page, `class="findings"`) || strings.Contains(page, "Findings") || !strings.Contains(page, `id="verdict"`) {
		t.Error("a healthy job's page shows findings, or no verdict")
	}
	text := pageText(page)
	for _, cmd := range []string{"hang", "check"} {
		out, _, code := runCLI(t, "", cmd, in)
		lines := cliSentences(out)
		if code != exitOK || len(lines) == 0 {
			t.Fatalf("%s: status %d, output %q", cmd, code, out)
		}
		if last := lines[len(lines)-1]; !strings.Contains(text, last) {
			t.Errorf("%s ends %q; the page does not say it", cmd, last)
		}
	}
}

// TestReportHTMLSetupAndWarns: the page's set-up section shows what info reports of a job
// whose NICs printed three "port error" WARNs (which the page showed nowhere): each WARN
// template with its count and first line, the version, hosts and transports.
func TestReportHTMLSetupAndWarns(t *testing.T) {
	in := filepath.Join(t.TempDir(), "job.log")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	stop := 5
	if _, err := gen.Write(f, gen.Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 40, Noise: true, StopRank: &stop, StopAfter: 300}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	page, _ := reportHTML(t, in)
	out, _, _ := runCLI(t, "", "info", "--format", "json", in)
	var rep struct {
		Warns []struct {
			Template string `json:"template"`
			Count    int64  `json:"count"`
			First    struct {
				File string `json:"file"`
				Line int64  `json:"line"`
			} `json:"first"`
		} `json:"warns"`
		Network []struct {
			Value string `json:"value"`
		} `json:"network"`
		Hosts []struct {
			Host string `json:"host"`
		} `json:"hosts"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Warns) == 0 || rep.Warns[0].Count != 3 || !strings.Contains(rep.Warns[0].Template, "port error") {
		t.Fatalf("info reports WARNs %+v, want 3 port errors", rep.Warns)
	}
	if !strings.Contains(page, `id="setup"`) || !strings.Contains(page, `id="warns"`) {
		t.Fatal("the page has no set-up or WARN section")
	}
	text := pageText(page)
	for _, w := range rep.Warns {
		first := w.First.File + ":" + itoa(w.First.Line)
		if !strings.Contains(text, w.Template) || !strings.Contains(text, first) {
			t.Errorf("the page lacks WARN template %q or its first line %s", w.Template, first)
		}
		if !regexp.MustCompile(`<td class="n">` + itoa(w.Count) + `</td>.*?<code>` + regexp.QuoteMeta(html.EscapeString(w.Template)) + `</code>`).MatchString(page) {
			t.Errorf("the page's WARN row for %q does not count %d", w.Template, w.Count)
		}
	}
	for _, want := range []string{"NCCL version", "gpu-node-00", "gpu-node-01", "8 processes on 2 hosts"} {
		if !strings.Contains(text, want) {
			t.Errorf("the set-up section lacks %q", want)
		}
	}
	for _, n := range rep.Network {
		if !strings.Contains(text, n.Value) {
			t.Errorf("the set-up section lacks transport %q", n.Value)
		}
	}
}

// TestReportHTMLNoCalls: a log without communicators gets, on the page as from hang and
// check, the sentence saying why there is nothing to judge, not "nothing points to a hang".
func TestReportHTMLNoCalls(t *testing.T) {
	in := filepath.Join(t.TempDir(), "init.log")
	if err := os.WriteFile(in, []byte("node1:100:100 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	page, _ := reportHTML(t, in)
	out, _, _ := runCLI(t, "", "hang", in)
	out, _, _ = strings.Cut(out, "\n") // its first line; the page shows diagnose's findings itself, not hang's pointer to it
	if text := pageText(page); !strings.Contains(text, squash(out)) || strings.Contains(text, "nothing points to a hang") {
		t.Errorf("hang says %q; the page says %q", out, text[:min(len(text), 400)])
	}
	if strings.Contains(page, `class="findings"`) {
		t.Error("the page of a log without calls raises an alarm")
	}
}

// TestReportHTMLDiagnosis: the page opens with diagnose's first fault and what follows from
// it, in diagnose's words, in red; a healthy job's says its status plainly.
func TestReportHTMLDiagnosis(t *testing.T) {
	in, _ := faultLog(t, gen.Config{Failure: "oom"}, "")
	page, _ := reportHTML(t, in)
	text := pageText(page)
	if !strings.Contains(page, `class="findings" id="diagnosis"`) {
		t.Error("the page of a failed job shows no diagnosis in red")
	}
	out, _, code := runCLI(t, "", "diagnose", in)
	if code != exitFound {
		t.Fatalf("diagnose: status %d, want %d", code, exitFound)
	}
	n := 0
	for _, s := range cliSentences(out) {
		if strings.HasPrefix(s, "first fault: ") || strings.HasPrefix(s, "then: ") {
			n++
			if !strings.Contains(text, s) {
				t.Errorf("diagnose says %q; the page does not", s)
			}
		}
	}
	if n < 2 {
		t.Errorf("diagnose gave %d first-fault and then lines, want a fault and its consequences:\n%s", n, out)
	}
	healthy, _ := faultLog(t, gen.Config{}, "")
	page, _ = reportHTML(t, healthy)
	if !strings.Contains(page, `class="verdict" id="diagnosis"`) || !strings.Contains(pageText(page), "status: healthy") {
		t.Error("a healthy job's page does not say its diagnosis plainly")
	}
}

// TestReportHTMLUnknownDiagnosis: a diagnosis that is unknown for what a log shows (processes
// still retrying a connect) lists it on the page as diagnose's table does, without red.
func TestReportHTMLUnknownDiagnosis(t *testing.T) {
	in := filepath.Join(t.TempDir(), "retry.log")
	if err := os.WriteFile(in, []byte("node1:100:100 [0] NCCL INFO Call to connect returned Connection refused, retrying\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	page, _ := reportHTML(t, in)
	out, _, _ := runCLI(t, "", "diagnose", in)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 2 {
		t.Fatalf("diagnose lists nothing under its status:\n%s", out)
	}
	text := pageText(page)
	for _, l := range lines[:2] {
		if !strings.Contains(text, squash(strings.TrimSpace(l))) {
			t.Errorf("diagnose says %q; the page does not", l)
		}
	}
	if strings.Contains(page, `class="findings" id="diagnosis"`) {
		t.Error("an unknown diagnosis opens the page in red")
	}
}
