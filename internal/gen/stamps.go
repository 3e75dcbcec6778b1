package gen

import (
	"bytes"
	"fmt"
	"strings"
	"time"
)

// Timestamps lists the forms Config.Timestamps accepts. The NCCL ones are NCCL's own
// `[%F %T] ` (2.26.2+), printed after the launcher prefix on envelope lines: nccl-warn on
// WARN lines only (NCCL's default NCCL_DEBUG_TIMESTAMP_LEVELS), nccl-all on every one
// (NCCL_DEBUG_TIMESTAMP_LEVELS=ALL). The others are a collector's or logger's, printed
// before the launcher prefix on every line but the blank ones: iso (Kubernetes/Docker's
// `2026-03-01T12:00:00.123456789Z `), slash (Go's log), bracketed (`[2026-03-01T12:00:00.123Z] `),
// syslog (ts's `Mar 01 12:00:00 `), glog (`I0301 12:00:00.123456 `) and pylog (Python
// logging's `2026-03-01 12:00:00,123 `). No form writes TRACE lines. NCCL's own times are
// printed whatever Config.NCCLVersion says (real NCCL prints them from 2.26.2).
var Timestamps = []string{"none", "nccl-warn", "nccl-all", "iso", "slash", "bracketed", "syslog", "glog", "pylog"}

// stampDefaults is each form's fraction digits where Config.TimestampDigits is 0.
var stampDefaults = map[string]int{"nccl-warn": 0, "nccl-all": 0, "iso": 9, "slash": 6,
	"bracketed": 3, "syslog": 0, "glog": 6, "pylog": 3}

// stamper writes the time of each line, read from the simulated clock.
type stamper struct {
	form    string
	digits  int
	skewNs  int64  // host h's clock is h*skewNs ahead
	scratch []byte // the line being put together
}

// checkStamps checks Timestamps, TimestampDigits and ClockSkew.
func (c Config) checkStamps() error {
	on := c.Timestamps != "" && c.Timestamps != "none"
	if _, ok := stampDefaults[c.Timestamps]; on && !ok {
		return fmt.Errorf("unknown timestamps %q (want one of %s)", c.Timestamps, strings.Join(Timestamps, ", "))
	}
	switch {
	case c.TimestampDigits < -1 || c.TimestampDigits > 9:
		return fmt.Errorf("timestamp digits %d: want 1 to 9, 0 for the form's own or -1 for none", c.TimestampDigits)
	case c.Timestamps == "pylog" && c.TimestampDigits != 0 && c.TimestampDigits != 3:
		return fmt.Errorf("pylog timestamps print milliseconds: 3 digits, not %d", c.TimestampDigits)
	case on && c.Prefix == "timestamp":
		return fmt.Errorf("prefix timestamp and timestamps %s both time every line; choose one", c.Timestamps)
	case c.ClockSkew != 0 && !on:
		return fmt.Errorf("clock skew %s needs timestamps", c.ClockSkew)
	case c.TimestampDigits != 0 && !on:
		return fmt.Errorf("timestamp digits %d need timestamps", c.TimestampDigits)
	}
	return nil
}

// newStamper returns the stamper of c, or nil where lines carry no time of their own.
func newStamper(c Config) *stamper {
	if c.Timestamps == "" || c.Timestamps == "none" {
		return nil
	}
	d := max(c.TimestampDigits, 0)
	if c.TimestampDigits == 0 {
		d = stampDefaults[c.Timestamps]
	}
	return &stamper{form: c.Timestamps, digits: d, skewNs: int64(c.ClockSkew)}
}

// ncclOwn reports whether s prints NCCL's own times (nil prints none).
func (s *stamper) ncclOwn() bool { return s != nil && strings.HasPrefix(s.form, "nccl-") }

// wallTime is the time on p's host clock: the simulated clock, to the millisecond where
// lines carry no time of their own, else to the nanosecond and skewed. Under the arrival
// model, a step's lines take the time it planned, and each process's times keep increasing;
// each call moves p's last time on.
func (g *gen) wallTime(p *proc) time.Time {
	if g.stamps == nil {
		return time.UnixMilli(g.clockMs).UTC()
	}
	ns := g.clockNs
	if a := g.arrive; a != nil {
		if a.cur != 0 {
			ns = a.cur
		}
		ns = a.clamp(p.rank, ns)
	}
	return time.Unix(0, ns+int64(p.host)*g.stamps.skewNs).UTC()
}

// line puts together a line of p, body (what follows p's launcher prefix), with its time
// at ns on the simulated clock.
func (s *stamper) line(p *proc, body []byte, t time.Time) []byte {
	b := s.scratch[:0]
	nccl := s.ncclOwn()
	if !nccl {
		b = s.collector(b, t)
	}
	b = append(b, p.prefix...)
	if nccl && isEnvelope(p, body) && (s.form == "nccl-all" || bytes.Contains(body, []byte(" NCCL WARN "))) {
		b = append(b, '[')
		b = s.clock(t.AppendFormat(b, "2006-01-02 15:04:05"), t)
		b = append(b, "] "...)
	}
	b = append(b, body...)
	s.scratch = b
	return b
}

// collector writes a collector's or logger's time.
func (s *stamper) collector(b []byte, t time.Time) []byte {
	switch s.form {
	case "iso":
		b = s.clock(t.AppendFormat(b, "2006-01-02T15:04:05"), t)
		return append(b, "Z "...)
	case "slash":
		b = s.clock(t.AppendFormat(b, "2006/01/02 15:04:05"), t)
	case "bracketed":
		b = s.clock(t.AppendFormat(append(b, '['), "2006-01-02T15:04:05"), t)
		return append(b, "Z] "...)
	case "syslog":
		b = s.clock(t.AppendFormat(b, "Jan 02 15:04:05"), t)
	case "glog":
		b = s.clock(t.AppendFormat(append(b, 'I'), "0102 15:04:05"), t)
	case "pylog":
		b = t.AppendFormat(b, "2006-01-02 15:04:05,000")
	}
	return append(b, ' ')
}

// clock appends the fraction of a second, s.digits digits of it.
func (s *stamper) clock(b []byte, t time.Time) []byte {
	if s.digits == 0 {
		return b
	}
	frac := fmt.Appendf(nil, "%09d", t.Nanosecond())
	return append(append(b, '.'), frac[:s.digits]...)
}

// isEnvelope reports whether body is an NCCL line of p: it opens with p's `host:pid:`.
func isEnvelope(p *proc, body []byte) bool {
	k := bytes.IndexByte(p.head, ':')
	if k < 0 {
		return false
	}
	k += bytes.IndexByte(p.head[k+1:], ':') + 2
	return bytes.HasPrefix(body, p.head[:k])
}
