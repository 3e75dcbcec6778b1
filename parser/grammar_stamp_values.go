package parser

import "errors"

// The capture types of the time grammar. Each gets the tokens its production matched, one
// Digit a value, in the shape the grammar fixed; it refuses what is no date, clock, fraction
// or zone, which fails the form that held it. The arithmetic is stamp_read.go's. Participle
// also hands a capture the part of its tokens a failed parse got to (a partial tree), so
// each checks the number of values before it reads them.

var errStamp = errors.New("no time")

// digitValue reads Digit tokens as one decimal number.
func digitValue(ds []string) int64 {
	v := int64(0)
	for _, d := range ds {
		v = v*10 + int64(d[0]-'0')
	}
	return v
}

// stampDate is `2025-06-11` or `2025/06/11`: days since 1970-01-01.
type stampDate int64

func (d *stampDate) Capture(v []string) error {
	if len(v) != 10 {
		return errStamp
	}
	days, ok := civilDays(digitValue(v[0:4]), digitValue(v[5:7]), digitValue(v[8:10]))
	*d = stampDate(days)
	return okOrNoTime(ok)
}

// glogDate is a glog head's month and day, `1016` or `227`: days since 1970 in noYear.
type glogDate int64

func (d *glogDate) Capture(v []string) error {
	n := len(v)
	if n != 3 && n != 4 {
		return errStamp
	}
	days, ok := civilDays(noYear, digitValue(v[:n-2]), digitValue(v[n-2:]))
	*d = glogDate(days)
	return okOrNoTime(ok)
}

// syslogDate is `Jun 11` or `Jun  1`: days since 1970 in noYear.
type syslogDate int64

func (d *syslogDate) Capture(v []string) error {
	if len(v) != 3 && len(v) != 4 {
		return errStamp
	}
	mo := int64(0)
	for k, n := range monthNames {
		if v[0] == n {
			mo = int64(k + 1)
		}
	}
	days, ok := civilDays(noYear, mo, digitValue(v[2:]))
	*d = syslogDate(days)
	return okOrNoTime(ok)
}

// stampClock is `14:03:27`: nanoseconds since midnight.
type stampClock int64

func (c *stampClock) Capture(v []string) error {
	if len(v) != 8 {
		return errStamp
	}
	ns, ok := clockNanos(digitValue(v[0:2]), digitValue(v[3:5]), digitValue(v[6:8]))
	*c = stampClock(ns)
	return okOrNoTime(ok)
}

// stampFrac is a fraction of a second, 1 to 9 digits (more is no fraction a logger prints).
type stampFrac struct {
	nanos  int64
	digits uint8
}

func (f *stampFrac) Capture(v []string) error {
	if len(v) == 0 || len(v) > 9 {
		return errStamp
	}
	f.nanos, f.digits = digitValue(v), uint8(len(v))
	for k := len(v); k < 9; k++ {
		f.nanos *= 10
	}
	return nil
}

// stampZone is `Z`, `±hh:mm` or `±hhmm`: the offset from UTC in nanoseconds.
type stampZone int64

func (z *stampZone) Capture(v []string) error {
	if len(v) == 1 && v[0] == "Z" {
		return nil
	}
	if len(v) != 5 && len(v) != 6 {
		return errStamp
	}
	ds := make([]string, 0, 4)
	for _, s := range v[1:] {
		if s != ":" {
			ds = append(ds, s)
		}
	}
	off, ok := zoneNanos(digitValue(ds[:2]), digitValue(ds[2:]))
	if v[0] == "-" {
		off = -off
	}
	*z = stampZone(off)
	return okOrNoTime(ok)
}

// traceMs is a TRACE time's whole milliseconds, at most 15 digits as NCCL's %f prints them.
type traceMs int64

func (m *traceMs) Capture(v []string) error {
	if len(v) == 0 || len(v) > 15 {
		return errStamp
	}
	*m = traceMs(digitValue(v))
	return nil
}

func okOrNoTime(ok bool) error {
	if !ok {
		return errStamp
	}
	return nil
}

// stamp returns the time an item of the run holds (the zero Stamp for a launcher prefix).
func (it *gHeadItem) stamp() Stamp {
	switch {
	case it.Bracket != nil:
		return it.Bracket.stamp()
	case it.Bare != nil:
		return it.Bare.stamp()
	}
	return Stamp{}
}

func (t *gBracketTime) stamp() Stamp {
	var st Stamp
	switch {
	case t.NCCL != nil:
		return wallStamp(StampNCCL, int64(t.NCCL.Date), t.NCCL.Clock, t.NCCL.Frac)
	case t.Glog != nil:
		return t.Glog.stamp()
	case t.Dash != nil:
		st = t.Dash.stamp()
	case t.Slash != nil:
		st = t.Slash.stamp()
	case t.Syslog != nil:
		st = t.Syslog.stamp()
	}
	st.Form = StampBracketed
	return st
}

func (t *gBareTime) stamp() Stamp {
	switch {
	case t.Dash != nil:
		return t.Dash.stamp()
	case t.Slash != nil:
		return t.Slash.stamp()
	case t.Glog != nil:
		return t.Glog.stamp()
	}
	return t.Syslog.stamp()
}

func (t *gDashTime) stamp() Stamp {
	if t.Pylog != nil {
		return wallStamp(StampPylog, int64(t.Date), t.Clock, t.Pylog)
	}
	if t.ISO == nil {
		return wallStamp(StampISO, int64(t.Date), t.Clock, nil)
	}
	st := wallStamp(StampISO, int64(t.Date), t.Clock, t.ISO.Frac)
	if t.ISO.Zone != nil {
		st.Nanos -= int64(*t.ISO.Zone)
		st.Zoned = true
	}
	return st
}

func (t *gSlashTime) stamp() Stamp {
	return wallStamp(StampSlash, int64(t.Date), t.Clock, t.Frac)
}

func (t *gGlogTime) stamp() Stamp { return wallStamp(StampGlog, int64(t.Date), t.Clock, t.Frac) }

func (t *gSyslog) stamp() Stamp { return wallStamp(StampSyslog, int64(t.Date), t.Clock, t.Frac) }

// wallStamp is the Stamp of a date, a clock and an optional fraction.
func wallStamp(form StampForm, days int64, clock stampClock, frac *stampFrac) Stamp {
	st := Stamp{Nanos: days*dayNanos + int64(clock), Form: form}
	if frac != nil {
		st.Nanos += frac.nanos
		st.Digits = frac.digits
	}
	return st
}

// traceNanos returns the nanoseconds of a TRACE time of ms milliseconds and a fraction of a
// millisecond held as a fraction of a second would be (`.225104` as 225104000): the digits
// past the sixth are dropped. (The scanner leaves TRACE lines to the grammar.)
func traceNanos(ms, fracNanos int64) int64 { return ms*1e6 + fracNanos/1000 }
