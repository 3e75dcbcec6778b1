package stream

import (
	"strconv"
	"time"

	"github.com/nccllog/nccllog/parser"
)

// CallTime is a call's time as calls writes it: one of its three fields is set, by the form
// the log printed, or none for an untimed call. Each keeps the fraction digits the log printed.
//
//   - Time: the forms with a year, in RFC 3339 (`2025-06-11T14:03:27.512034`), with `Z` only
//     where the log printed a zone (the reading is then in UTC); without one it is the logging
//     host's local clock and carries no offset, since nothing says which zone that was.
//   - NoYear: syslog's and glog's forms, which print no year: `06-11T14:03:27.928019` (month,
//     day and time of the host's local clock), not put in any year.
//   - SinceInitMs: an NCCL TRACE line's milliseconds since the process's debug init, which
//     is not a wall-clock time.
type CallTime struct {
	Time        *string
	NoYear      *string
	SinceInitMs *float64
}

// TimeOf is s as calls writes it.
func TimeOf(s parser.Stamp) CallTime {
	switch {
	case s.IsZero():
		return CallTime{}
	case s.Form == parser.StampTrace:
		ms := float64(s.Nanos) / 1e6
		return CallTime{SinceInitMs: &ms}
	case !s.HasYear():
		t := string(AppendNoYear(nil, s))
		return CallTime{NoYear: &t}
	}
	t := string(AppendRFC3339(nil, s))
	return CallTime{Time: &t}
}

// Text is the time as the table prints it: the RFC 3339 time, the time without a year, or
// `init+1843.225104ms`; "" for none.
func (t CallTime) Text() string {
	switch {
	case t.Time != nil:
		return *t.Time
	case t.NoYear != nil:
		return *t.NoYear
	case t.SinceInitMs != nil:
		return "init+" + strconv.FormatFloat(*t.SinceInitMs, 'f', -1, 64) + "ms"
	}
	return ""
}

// AppendRFC3339 appends s, a time with a year, in RFC 3339 with s.Digits fraction digits,
// and `Z` where it was zoned.
func AppendRFC3339(b []byte, s parser.Stamp) []byte {
	t := time.Unix(0, s.Nanos).UTC()
	y, _, _ := t.Date()
	b = appendPadded(b, y, 4)
	b = append(b, '-')
	b = appendClock(b, s, t)
	if s.Zoned {
		b = append(b, 'Z')
	}
	return b
}

// AppendNoYear appends s, a time without a year, as `MM-DDThh:mm:ss` with s.Digits fraction
// digits.
func AppendNoYear(b []byte, s parser.Stamp) []byte {
	return appendClock(b, s, time.Unix(0, s.Nanos).UTC())
}

// appendClock appends `MM-DDThh:mm:ss` and the printed fraction.
func appendClock(b []byte, s parser.Stamp, t time.Time) []byte {
	_, m, d := t.Date()
	h, mi, sec := t.Clock()
	b = appendPadded(b, int(m), 2)
	b = append(b, '-')
	b = appendPadded(b, d, 2)
	b = append(b, 'T')
	b = appendPadded(b, h, 2)
	b = append(b, ':')
	b = appendPadded(b, mi, 2)
	b = append(b, ':')
	b = appendPadded(b, sec, 2)
	if s.Digits > 0 {
		digits := min(int(s.Digits), 9)
		frac := t.Nanosecond()
		for range 9 - digits {
			frac /= 10
		}
		b = append(b, '.')
		b = appendPadded(b, frac, digits)
	}
	return b
}

// appendPadded appends v (not negative) in decimal with at least width digits.
func appendPadded(b []byte, v, width int) []byte {
	var buf [20]byte
	n := len(strconv.AppendInt(buf[:0], int64(v), 10))
	for ; n < width; n++ {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(v), 10)
}
