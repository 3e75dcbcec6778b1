package parser

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// deferredByDesign are table cases of the kinds below that the scanner leaves to the grammar
// on purpose: a message naming NCCL again (another record may run on in it), the ABORT
// level, a Ray prefix nested in another, a progress word in a line that is no progress line.
var deferredByDesign = map[string]bool{
	"gb200_version_as_info": true, "ref_git_version": true, "built_2.6_ABORT": true,
	"ray_nested_ip": true, "mpirun_nccl_tests_header_step": true,
}

// TestScannerReadsCommonKinds holds the scanner to answering every table line of the kinds
// that occur by the thousand (communicator, INFO set-up, WARN, blank and other lines), so
// that none of them costs a grammar run; checkLines holds its answers to the grammar's.
func TestScannerReadsCommonKinds(t *testing.T) {
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	for _, tab := range allLineTables() {
		for _, c := range tab {
			switch c.want.Kind {
			case KindComm, KindInfo, KindWarn, KindBlank, KindOther:
			default:
				continue
			}
			// Lines with a watchdog phrase, and torchtitan's coloured lines, go to the
			// grammar by design (the watchdog and progress grammars read them).
			byDesign := deferredByDesign[c.name] || mayBeWatchdog(c.in) || strings.Contains(c.in, "\x1b[")
			var l Line
			if !c.want.Spliced && !byDesign && !p.Scan([]byte(c.in), &l) {
				t.Errorf("%s (%s): the scanner leaves %q to the grammar", c.name, c.want.Kind, c.in)
			}
		}
	}
}

// frameworkLines are PyTorch watchdog and flight-recorder lines (built from the forms in the
// framework reference); they must reach the grammar, which reads them.
var frameworkLines = []string{
	"[Rank 4] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9141, OpType=_ALLGATHER_BASE, NumelIn=19008, NumelOut=152064, Timeout(ms)=600000) ran for 600071 milliseconds before timing out.",
	"[rank3]:[E1123 10:00:00.000000000 ProcessGroupNCCL.cpp:632] [PG 1 Rank 0] Exception (either an error or timeout) detected by watchdog at work: 1580, last enqueued NCCL work: 1582, last completed NCCL work: 1579.",
	"[PG 3 Rank 4] Timeout at NCCL work: 9141, last enqueued NCCL work: 9141, last completed NCCL work: 9140.",
	"[PG ID 0 PG GUID 0(default_pg) Rank 3] First PG on this rank to signal dumping.",
	"[PG ID 0 PG GUID 0(default_pg) Rank 5] Observed flight recorder dump signal from another rank via TCPStore.",
}

func TestFrameworkLinesReachGrammar(t *testing.T) {
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range frameworkLines {
		var l Line
		if p.Scan([]byte(in), &l) {
			t.Errorf("the scanner read %q as %s; it must leave it to the grammar", in, l.Kind)
		}
	}
}

// TestShapesStayBounded feeds a parser lines whose first words never repeat: application
// output and INFO lines. The grammar must read a bounded number of them, not one per word.
func TestShapesStayBounded(t *testing.T) {
	lines := 60000
	if testing.Short() {
		lines = 15000 // -short: still over three times the most the info and warn forms may read (go test ./... feeds 60,000)
	}
	for _, tc := range []struct {
		name   string
		format string
		most   int64
	}{
		{"other", "%s starts this line of the job's own output, %d", 24},
		{"prefixed_other", "[rank3]: %s epoch loader says %d", 24},
		{"info", "gpu-node-07:48211:48211 [0] NCCL INFO %s of a flood %d", shapeSets*shapeWays + 24},
		{"warn", "gpu-node-07:48211:48390 [0] misc/socket.cc:484 NCCL WARN %s failed %d", shapeSets*shapeWays + 24},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each form its own Parser
			p, err := NewParser()
			if err != nil {
				t.Fatal(err)
			}
			var l Line
			for i := range lines {
				p.Parse(fmt.Appendf(nil, tc.format, letters(i), i), &l)
			}
			if n := p.Stats.Grammar + p.Stats.Checked; n > tc.most || p.Stats.Disagree > 0 {
				t.Errorf("the grammar read %d of %d lines (at most %d), %d disagreements", n, lines, tc.most, p.Stats.Disagree)
			}
		})
	}
}

// letters spells n in the letters a-z: a first word that no two lines share.
func letters(n int) string {
	b := []byte{'w'}
	for ; n > 0; n /= 26 {
		b = append(b, byte('a'+n%26))
	}
	return string(b)
}

// FuzzEnvelopeDecision holds the byte search that sends a line past the envelope scanner to
// the grammar's definition: wherever the grammar finds an envelope, mayHoldEnvelope must say
// that one may be there, or, for NCCL 2.2's envelope without `NCCL` (gOldLine), the scanner
// must leave the line to the grammar (takeOld).
func FuzzEnvelopeDecision(f *testing.F) {
	for _, s := range tableSeedLines() {
		f.Add([]byte(s))
	}
	for _, s := range frameworkLines {
		f.Add([]byte(s))
	}
	for _, s := range stampSeedLines() {
		f.Add([]byte(s))
	}
	for _, s := range pastedSeeds() {
		f.Add(s)
	}
	for _, s := range append(append(oldLines, labelLines...), agentExitLines...) {
		f.Add([]byte(s))
	}
	g, err := NewGrammar()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		for _, line := range bytes.Split(input, []byte{'\n'}) {
			b := trimCR(line)
			var fast Line
			if l := g.Parse(line); l.Env.Level != LevelNone && !mayHoldEnvelope(b) {
				if _, ok := newScanner().scan(line, &fast); ok {
					t.Errorf("the grammar reads an envelope in %q, mayHoldEnvelope says none and the scanner reads it as %v", line, fast.Kind)
				}
			}
		}
	})
}

// FuzzWordsIn holds the word searches to their definition: bit k is set exactly where the
// line holds word k, for the bare-line words and scanMsg's words.
func FuzzWordsIn(f *testing.F) {
	for _, s := range tableSeedLines() {
		f.Add([]byte(s))
	}
	f.Add([]byte("NCCNCCL stepstep iteratio iteration [nranks= opCount  Watchdog flight recorder signal dumping NCCL work"))
	f.Add([]byte("ncclCommInitRank comm 0x55d0 rank 3 opCoun opCount NCC"))
	f.Fuzz(func(t *testing.T, line []byte) {
		got := wordsIn(line)
		for k, w := range bareWords.words {
			if want := bytes.Contains(line, []byte(w)); want != (got&(1<<k) != 0) {
				t.Errorf("wordsIn(%q): %q found %v, bytes.Contains says %v", line, w, !want, want)
			}
		}
		got = msgWordsIn(line)
		for k, w := range msgWords {
			if want := bytes.Contains(line, []byte(w.w)); want != (got&(1<<k) != 0) {
				t.Errorf("msgWordsIn(%q): %q found %v, bytes.Contains says %v", line, w.w, !want, want)
			}
		}
	})
}

// TestWordsInEveryPlace puts each word at every offset from a line's start and end, the
// places where the searches' steps and their last positions meet.
func TestWordsInEveryPlace(t *testing.T) {
	words := slices.Clone(bareWords.words)
	for _, w := range msgWords {
		words = append(words, w.w)
	}
	for _, w := range words {
		for before := 0; before < 9; before++ {
			for after := 0; after < 9; after++ {
				line := []byte(strings.Repeat("x", before) + w + strings.Repeat("y", after))
				for _, near := range [][]byte{line, bytes.ReplaceAll(line, []byte("x"), []byte(w[:3]))} {
					if !wordsInAgree(near) {
						t.Errorf("the searches miss or invent a word in %q", near)
					}
				}
			}
		}
	}
}

// wordsInAgree reports whether both searches find in line exactly what bytes.Contains finds.
func wordsInAgree(line []byte) bool {
	got, gotMsg := wordsIn(line), msgWordsIn(line)
	for k, w := range bareWords.words {
		if bytes.Contains(line, []byte(w)) != (got&(1<<k) != 0) {
			return false
		}
	}
	for k, w := range msgWords {
		if bytes.Contains(line, []byte(w.w)) != (gotMsg&(1<<k) != 0) {
			return false
		}
	}
	return true
}

// TestCommFieldIndex holds commField's switch to the list of names it indexes.
func TestCommFieldIndex(t *testing.T) {
	for k, f := range commFields {
		if got := commField([]byte(f)); got != k {
			t.Errorf("commField(%q) = %d, want %d", f, got, k)
		}
	}
	if got := commField([]byte("rank")); got != -1 {
		t.Errorf("commField(rank) = %d", got)
	}
}

// TestCommSetValue holds setValue, which the scanner uses, to CommEvent.setField, which
// commFromTree uses, for every field and a few values.
func TestCommSetValue(t *testing.T) {
	for f, name := range commFields {
		for _, v := range []string{"0", "7", "-3", "1b000", "0x55d4c2a8e0f0", "x", "", "0x", "12345678901234567890"} {
			fast, slow := newCommEvent(), newCommEvent()
			okFast, okSlow := fast.setValue(f, []byte(v)), slow.setField(name, v)
			if okFast != okSlow || fast != slow {
				t.Errorf("%s %q: setValue %v %+v, setField %v %+v", name, v, okFast, fast, okSlow, slow)
			}
		}
	}
}

func newCommEvent() CommEvent {
	return CommEvent{CudaDev: -1, NvmlDev: -1, Split: -1, NNodes: -1, LocalRks: -1, LocalRk: -1}
}
