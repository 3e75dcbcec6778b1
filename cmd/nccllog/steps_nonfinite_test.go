package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages"
)

// nonFiniteLog is a NeMo log whose progress lines print inf and nan as Python does (a step
// timed at zero gives inf TFLOP/s), beside two ranks' calls in each step.
func nonFiniteLog() string {
	var b strings.Builder
	b.WriteString("h:1:1 [0] NCCL INFO comm 0x5 rank 0 nranks 2 cudaDev 0 busId 1000 commId 0xabc - Init COMPLETE\n" +
		"h:2:2 [1] NCCL INFO comm 0x7 rank 1 nranks 2 cudaDev 1 busId 2000 commId 0xabc - Init COMPLETE\n")
	for i, v := range [][2]string{{"2.0", "100"}, {"4.0", "inf"}, {"nan", "120"}, {"3.0", "-inf"}, {"inf", "nan"}} {
		for r, comm := range []string{"0x5", "0x7"} {
			fmt.Fprintf(&b, "h:%d:%d [%d] NCCL INFO AllReduce: opCount %x sendbuff 0x1 recvbuff 0x2 count 1048576 datatype 7 op 0 root 0 comm %s [nranks=2] stream 0x6\n", r+1, r+1, r, i, comm)
		}
		fmt.Fprintf(&b, "Training epoch 0, iteration %d/99 | lr: 1e-05 | train_step_timing in s: %s | TFLOPS_per_GPU: %s\n", 45+i, v[0], v[1])
	}
	return b.String()
}

// TestStepsNonFiniteJSON: one inf TFLOP/s made `report --format json` fail with "json:
// unsupported value: +Inf" and print nothing, and nan also counted as a disagreement of the
// scanner with the grammar. Now such a value is null, left out of its average, and counted.
func TestStepsNonFiniteJSON(t *testing.T) {
	log := filepath.Join(t.TempDir(), "nonfinite.log")
	if err := os.WriteFile(log, []byte(nonFiniteLog()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI(t, "", "report", "--format", "json", log)
	if code != exitOK || stderr != "" {
		t.Fatalf("report --format json: exit %d, stderr %q", code, stderr)
	}
	var rep struct {
		Steps map[string]any     `json:"steps"`
		Parse stages.ParseReport `json:"parse"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := `{"avg_tflops_per_gpu":110,"avg_time_s":3,"n":5,"steps":[` +
		`{"lines":1,"step":45,"tflops_per_gpu":100,"time_s":2},{"lines":1,"step":46,"tflops_per_gpu":null,"time_s":4},` +
		`{"lines":1,"step":47,"tflops_per_gpu":120,"time_s":null},{"lines":1,"step":48,"tflops_per_gpu":null,"time_s":3},` +
		`{"lines":1,"step":49,"tflops_per_gpu":null,"time_s":null}],"tflops_per_gpu_left_out":3,"time_s_left_out":2}`
	if got, _ := json.Marshal(rep.Steps); string(got) != want {
		t.Errorf("steps:\n%s\nwant\n%s", got, want)
	}
	if rep.Parse.Disagreements != 0 {
		t.Errorf("%d disagreements of scanner and grammar", rep.Parse.Disagreements)
	}
	// ranks: an inf or nan step time says nothing of the bandwidth needed (nan made its JSON fail).
	var ranks json.RawMessage
	runJSON(t, &ranks, exitOK, "ranks", "--format", "json", log)
}

// TestStepsNonFiniteText: tables and CSV print inf, -inf and nan; the table says what its
// averages left out; the AWK format prints what bench/awk/steps.awk prints (with mawk and
// gawk alike: its pattern reads no number from inf or nan yet counts the line).
func TestStepsNonFiniteText(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"steps"}, `      step  time (s)  TFLOP/s/GPU
        45         2          100
        46         4          inf
        47       nan          120
        48         3         -inf
        49       inf          nan
  avg of 5         3          110
note: the time (s) average leaves out 2 steps whose values are inf, -inf or nan
note: the TFLOP/s/GPU average leaves out 3 steps whose values are inf, -inf or nan
`},
		{[]string{"steps", "--format", "csv"}, "step,time_s,tflops_per_gpu,lines\n45,2,100,1\n46,4,inf,1\n47,nan,120,1\n48,3,-inf,1\n49,inf,nan,1\n"},
		{[]string{"steps", "--steps", "45-49", "--format", "awk"}, "Steps: 5 (iterations 45-49)\n" +
			"Average train_step_timing (s): 1.800000\nAverage TFLOPS_per_GPU:        44.000000\n"},
	}
	for _, c := range cases {
		out, stderr, code := runCLI(t, nonFiniteLog(), append(c.args, "-")...)
		if code != exitOK || out != c.want {
			t.Errorf("%v: exit %d, stderr %q, output:\n%s\nwant:\n%s", c.args, code, stderr, out, c.want)
		}
	}
	out, _, _ := runCLI(t, "Training epoch 0, iteration 45/99 | train_step_timing in s: 2 | TFLOPS_per_GPU: inf\n", "steps", "-")
	if !strings.HasSuffix(out, "note: the TFLOP/s/GPU average leaves out 1 step whose value is inf, -inf or nan\n") {
		t.Errorf("one step left out:\n%s", out)
	}
}

// TestStepsNonFinitePartial: a partial result of such steps is written, and the report over
// it is the report over the log.
func TestStepsNonFinitePartial(t *testing.T) {
	dir := t.TempDir()
	log, part := filepath.Join(dir, "nonfinite.log"), filepath.Join(dir, "x.part")
	if err := os.WriteFile(log, []byte(nonFiniteLog()), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "", "summarize", "-o", part, log); code != exitOK {
		t.Fatalf("summarize: exit %d, stderr %q", code, stderr)
	}
	want, _, _ := runCLI(t, "", "steps", log)
	if got, stderr, code := runCLI(t, "", "steps", part); code != exitOK || got != want {
		t.Errorf("steps over the partial result: exit %d, stderr %q\n%s\nwant\n%s", code, stderr, got, want)
	}
}

// TestStepsNonFiniteHTML: the HTML page of such steps initialises its step chart (go-echarts
// wrote no option for it, and the page's script stopped there).
func TestStepsNonFiniteHTML(t *testing.T) {
	dir := t.TempDir()
	log, page := filepath.Join(dir, "nonfinite.log"), filepath.Join(dir, "r.html")
	if err := os.WriteFile(log, []byte(nonFiniteLog()), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "", "report", "--html", page, log); code != exitOK {
		t.Fatalf("report --html: exit %d, stderr %q", code, stderr)
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `["chart-step-time", {`) {
		t.Error("the step chart has no option")
	}
}
