package gen

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/nccllog/nccllog/parser"
)

// stampGolden is the first line of a 4-rank, 2-host srun log in each form, with host 1's
// clock 250ms ahead: the time comes before the launcher prefix for a collector, after it for
// NCCL's own.
var stampGolden = map[string]string{
	"nccl-all":  "2: [2026-03-01 12:00:00] gpu-node-01:87857:87857 [0] NCCL INFO Bootstrap: Using ib0:10.0.0.11<0>",
	"iso":       "2026-03-01T12:00:00.250000000Z 2: gpu-node-01:87857:87857 [0] NCCL INFO Bootstrap: Using ib0:10.0.0.11<0>",
	"slash":     "2026/03/01 12:00:00.250000 2: gpu-node-01:87857:87857 [0] NCCL INFO Bootstrap: Using ib0:10.0.0.11<0>",
	"bracketed": "[2026-03-01T12:00:00.250Z] 2: gpu-node-01:87857:87857 [0] NCCL INFO Bootstrap: Using ib0:10.0.0.11<0>",
	"syslog":    "Mar 01 12:00:00 2: gpu-node-01:87857:87857 [0] NCCL INFO Bootstrap: Using ib0:10.0.0.11<0>",
	"glog":      "I0301 12:00:00.250000 2: gpu-node-01:87857:87857 [0] NCCL INFO Bootstrap: Using ib0:10.0.0.11<0>",
	"pylog":     "2026-03-01 12:00:00,250 2: gpu-node-01:87857:87857 [0] NCCL INFO Bootstrap: Using ib0:10.0.0.11<0>",
	"nccl-warn": "2: gpu-node-01:87857:87857 [0] NCCL INFO Bootstrap: Using ib0:10.0.0.11<0>",
}

// wantForm is the parser's form for each generator form.
var wantForm = map[string]parser.StampForm{
	"nccl-warn": parser.StampNCCL, "nccl-all": parser.StampNCCL, "iso": parser.StampISO,
	"slash": parser.StampSlash, "bracketed": parser.StampBracketed, "syslog": parser.StampSyslog,
	"glog": parser.StampGlog, "pylog": parser.StampPylog,
}

func stampLog(t *testing.T, form string, digits int, skew time.Duration) []byte {
	t.Helper()
	var buf bytes.Buffer
	_, err := Write(&buf, Config{Seed: 1, Ranks: 4, RanksPerHost: 2, Steps: 30, Prefix: "srun", Noise: true,
		NCCLVersion: "2.27.5", Timestamps: form, TimestampDigits: digits, ClockSkew: skew})
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestTimestampForms checks each form's first line, and that the parser reads the time the
// generator meant on every line that should carry one: the form, the digits, and per
// process a clock that never runs back; host 1 is ClockSkew ahead of host 0 at each step.
func TestTimestampForms(t *testing.T) {
	for _, form := range Timestamps[1:] {
		t.Run(form, func(t *testing.T) {
			log := stampLog(t, form, 0, 250*time.Millisecond)
			first, _, _ := bytes.Cut(log, []byte("\n"))
			if string(first) != stampGolden[form] {
				t.Errorf("first line\n got %s\nwant %s", first, stampGolden[form])
			}
			checkStampedLines(t, form, log)
		})
	}
}

func checkStampedLines(t *testing.T, form string, log []byte) {
	t.Helper()
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	last := map[int64]int64{}
	timed := 0
	for _, raw := range strings.Split(strings.TrimSuffix(string(log), "\n"), "\n") {
		var l parser.Line
		p.Parse([]byte(raw), &l)
		want := raw != "" && (!strings.HasPrefix(form, "nccl-") || l.Env.HasEnvelope() && (form == "nccl-all" || l.Kind == parser.KindWarn))
		if want != !l.Time.IsZero() && l.Kind != parser.KindWatchdog {
			t.Fatalf("%q: time %+v, want one: %v", raw, l.Time, want)
		}
		if !want || l.Kind == parser.KindWatchdog {
			continue
		}
		timed++
		f, d := wantForm[form], stampDefaults[form]
		if l.Kind == parser.KindWarn {
			f, d = parser.StampNCCL, 0 // 2.27.5's own time on WARN lines, nearer the envelope
		}
		if l.Time.Form != f || int(l.Time.Digits) != d {
			t.Fatalf("%q: read as %+v", raw, l.Time)
		}
		if l.Env.HasEnvelope() {
			k := l.Env.Pid<<8 | int64(l.Time.Form) // forms without a year compare only with each other
			if l.Time.Nanos < last[k] {
				t.Fatalf("%q: the clock of pid %d runs back", raw, l.Env.Pid)
			}
			last[k] = l.Time.Nanos
		}
	}
	if timed == 0 {
		t.Fatal("no timed line")
	}
}

// TestTimestampDigitsAndSkew: nccl-all with six digits times every NCCL line to the
// microsecond; with a skew, host 1's lines read skew later than without it.
func TestTimestampDigitsAndSkew(t *testing.T) {
	plain, skewed := stampLog(t, "nccl-all", 6, 0), stampLog(t, "nccl-all", 6, 90*time.Second)
	pl, sl := bytes.Split(plain, []byte("\n")), bytes.Split(skewed, []byte("\n"))
	if len(pl) != len(sl) {
		t.Fatalf("skew changed the line count: %d, %d", len(pl), len(sl))
	}
	p, _ := parser.NewParser()
	hosts := map[string]bool{}
	for i := range pl {
		var a, b parser.Line
		p.Parse(pl[i], &a)
		p.Parse(sl[i], &b)
		if a.Time.IsZero() {
			continue
		}
		if a.Time.Digits != 6 || b.Time.Digits != 6 {
			t.Fatalf("%q: digits %d", pl[i], a.Time.Digits)
		}
		skew := int64(0)
		if a.Env.Host == "gpu-node-01" {
			skew = int64(90 * time.Second)
		}
		if b.Time.Nanos-a.Time.Nanos != skew {
			t.Fatalf("%q / %q: skew %d, want %d", pl[i], sl[i], b.Time.Nanos-a.Time.Nanos, skew)
		}
		hosts[a.Env.Host] = true
	}
	if len(hosts) != 2 {
		t.Fatalf("hosts timed: %v", hosts)
	}
}

// TestTimestampsOffIdentical: "none" and the zero Config write the same bytes.
func TestTimestampsOffIdentical(t *testing.T) {
	if !bytes.Equal(stampLog(t, "", 0, 0), stampLog(t, "none", 0, 0)) {
		t.Error("timestamps none differs from the default")
	}
}

func TestTimestampConfigErrors(t *testing.T) {
	base := Config{Steps: 1}
	for _, c := range []struct {
		mod  func(*Config)
		want string
	}{
		{func(c *Config) { c.Timestamps = "rfc822" }, `unknown timestamps "rfc822"`},
		{func(c *Config) { c.Timestamps, c.TimestampDigits = "iso", 10 }, "timestamp digits 10"},
		{func(c *Config) { c.Timestamps, c.TimestampDigits = "pylog", 6 }, "pylog timestamps print milliseconds"},
		{func(c *Config) { c.Timestamps, c.Prefix = "iso", "timestamp" }, "choose one"},
		{func(c *Config) { c.ClockSkew = time.Second }, "needs timestamps"},
		{func(c *Config) { c.TimestampDigits = 3 }, "need timestamps"},
		{func(c *Config) { c.Timestamps, c.TimestampDigits = "iso", -2 }, "timestamp digits -2"},
	} {
		cfg := base
		c.mod(&cfg)
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", cfg, err, c.want)
		}
	}
}
