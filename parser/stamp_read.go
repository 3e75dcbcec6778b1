package parser

import "bytes"

// headStamp returns the time at the head of line b, as lineStamp reads it, after two cheap
// tests that nearly every untimed line fails: its first bytes may open a time or a prefix
// (mayOpenHead), and its first stampWindow bytes hold a clock `dd:dd:`. Both parsers call
// it, on the whole line.
func headStamp(b []byte) Stamp {
	if !mayOpenHead(b) || !hasClock(b) {
		return Stamp{}
	}
	return lineStamp(b)
}

// afterPrefixStamp is headStamp for a line whose launcher prefixes (scanPrefixes) end at
// start, with a narrower window for the clock. lineStamp's walk meets the positions of the
// walk over the prefixes until it reads a time, so a time it reads opens one of them, at or
// before the run's end i. A time that opens a prefix is a bracketed date (a glog or syslog
// time is no prefix, nor is a date srun's label), whole before i; one that opens i, which
// mayOpenHead tells, has its clock within stampMax bytes of it. So free text after
// `[rank3]:`, and a traceback's indented lines, are passed over at a glance rather than
// searched for a clock over stampWindow bytes.
func afterPrefixStamp(b []byte, start int) Stamp {
	i := start
	if i == 0 && len(b) > 0 && isSp(b[0]) {
		// scanPrefixes reads no prefix after an indent but srun's; lineStamp starts past it.
		if i = spEnd(b, 0); i < len(b) && mayOpenPrefix(b[i]) {
			p, _ := scanPrefixes(b[i:])
			i += p
		}
	}
	var end int
	switch {
	case i < len(b) && mayOpenHead(b[i:]):
		end = min(i+stampMax, len(b), stampWindow)
	case i >= minPrefixStamp:
		end = min(i, stampWindow)
	default:
		return Stamp{}
	}
	if !hasClock(b[:end]) {
		return Stamp{}
	}
	return lineStamp(b)
}

// minPrefixStamp is the length of the shortest time that is also a prefix:
// `[2026-03-01 12:00:00]`.
const minPrefixStamp = 21

// stampWindow bounds where a time is looked for: one must start within the first
// stampWindow-stampMax bytes of its line (behind prefixes and other times), so that its
// clock lies within the first stampWindow.
const (
	stampWindow = 256
	stampMax    = 48 // more than the longest time: `[2025-06-11T14:03:27.123456789+02:00]`
)

// hasClock reports whether the first stampWindow bytes of b hold `:dd:`, as every time but
// a TRACE line's does.
func hasClock(b []byte) bool {
	w := b[:min(len(b), stampWindow)]
	for {
		k := bytes.IndexByte(w, ':')
		if k < 0 || k+3 >= len(w) {
			return false
		}
		if w[k+3] == ':' && isDigit(w[k+1]) && isDigit(w[k+2]) {
			return true
		}
		w = w[k+1:]
	}
}

// lineStamp returns the time at the head of a line: the last time in the run of launcher
// prefixes, times and white space that opens it, which is the one nearest the NCCL envelope
// (a collector's `2025-06-11T14:03:27.512Z `, then srun's `3: `, then NCCL's own
// `[2025-06-11 14:03:27] `: NCCL's is taken). The run ends at the first text that is
// neither, so a time inside a message is never read, and so does stampWindow.
func lineStamp(b []byte) Stamp {
	var last Stamp
	i := spEnd(b, 0)
	for i < len(b) && i <= stampWindow-stampMax {
		if st, end := stampAt(b, i); end > 0 {
			last, i = st, spEnd(b, end)
			continue
		}
		end, _ := scanPrefix(b, i)
		if end <= i {
			break
		}
		i = spEnd(b, end)
	}
	return last
}

// mayOpenStamp reports whether a line starting with c may hold a time in its head: white
// space, a digit, a bracket, Ray's parenthesis, or the capital letter of a month or of a
// glog level. An NCCL envelope that opens a line with its host name never does.
func mayOpenStamp(c byte) bool { return stampOpeners[c] }

// mayOpenHead is mayOpenStamp with a look at the next bytes where b opens with a digit or a
// letter: a digit opens a date (`2025-`, `2025/`) or srun's label (digits and ':'), a
// letter a glog head (a digit next) or a syslog time (`Jun `).
func mayOpenHead(b []byte) bool {
	if len(b) < 4 || !mayOpenStamp(b[0]) {
		return false
	}
	switch c := b[0]; {
	case isDigit(c):
		k := 1
		for k < len(b) && isDigit(b[k]) {
			k++
		}
		return k < len(b) && (b[k] == ':' || k == 4 && (b[4] == '-' || b[4] == '/'))
	case c >= 'A' && c <= 'Z':
		return isDigit(b[1]) || b[3] == ' '
	}
	return true
}

var stampOpeners = func() (t [256]bool) {
	for _, c := range []byte(" \t\n\v\f\r0123456789[(JFMASONDIWE") {
		t[c] = true
	}
	return t
}()

// stampAt reads one time at b[i:]; it returns it and its end, or an end of 0 for none. An
// unbracketed time must be followed by white space or the end of the line; a bracketed one
// by anything (a custom format may run into the host name).
func stampAt(b []byte, i int) (Stamp, int) {
	if i >= len(b) {
		return Stamp{}, 0
	}
	if b[i] == '[' {
		return bracketStamp(b, i+1)
	}
	st, end := bareStamp(b, i)
	if end == 0 || end < len(b) && !isSp(b[end]) {
		return Stamp{}, 0
	}
	return st, end
}

// bracketStamp reads `[time]` after the `[`, or a glog head `[E1016 03:31:38.928019586 ...`
// (its own text runs on to the `]`, and stays unread).
func bracketStamp(b []byte, i int) (Stamp, int) {
	st, end := bareStamp(b, i)
	switch {
	case end == 0:
		return Stamp{}, 0
	case st.Form == StampGlog:
		if end < len(b) && !isSp(b[end]) {
			return Stamp{}, 0
		}
		return st, end
	case end >= len(b) || b[end] != ']':
		return Stamp{}, 0
	case st.Form == StampISO && !st.Zoned && b[i+10] == ' ':
		st.Form = StampNCCL // NCCL's `[%F %T]` and `[%F %T.%Nf]`
	default:
		st.Form = StampBracketed
	}
	return st, end + 1
}

// bareStamp reads one of the unbracketed forms at b[i:], or returns an end of 0.
func bareStamp(b []byte, i int) (Stamp, int) {
	if i >= len(b) {
		return Stamp{}, 0
	}
	switch c := b[i]; {
	case isDigit(c):
		return dateStamp(b, i)
	case c >= 'A' && c <= 'Z':
		if st, end := glogStamp(b, i); end > 0 {
			return st, end
		}
		return syslogStamp(b, i)
	}
	return Stamp{}, 0
}

// dateStamp reads `YYYY-MM-DD[T ]HH:MM:SS[.f|,f][zone]` or `YYYY/MM/DD HH:MM:SS[.f]`.
func dateStamp(b []byte, i int) (Stamp, int) {
	if i+19 > len(b) {
		return Stamp{}, 0
	}
	sep := b[i+4]
	y1, ok1 := dig2(b, i)
	y2, ok2 := dig2(b, i+2)
	mo, ok3 := dig2(b, i+5)
	d, ok4 := dig2(b, i+8)
	y := y1*100 + y2
	if !(ok1 && ok2 && ok3 && ok4) || sep != '-' && sep != '/' || b[i+7] != sep {
		return Stamp{}, 0
	}
	t := b[i+10]
	if t != ' ' && (t != 'T' || sep != '-') {
		return Stamp{}, 0
	}
	days, ok := civilDays(y, mo, d)
	if !ok {
		return Stamp{}, 0
	}
	clock, end := clockAt(b, i+11)
	if end == 0 {
		return Stamp{}, 0
	}
	st := Stamp{Nanos: days*dayNanos + clock, Form: StampISO}
	if sep == '/' {
		st.Form = StampSlash
	}
	comma := end < len(b) && b[end] == ','
	end = fractionAt(b, end, &st)
	switch {
	case comma && sep == '-':
		st.Form = StampPylog
	case comma:
		return Stamp{}, 0
	case sep == '-':
		end = zoneAt(b, end, &st)
	}
	return st, end
}

// glogStamp reads a glog head `E1016 03:31:38.928019` (level I, W, E or F; month and day).
// PyTorch's c10 logger prints month*100+day without padding: `E227 16:30:43.526290891` is
// Feb 27.
func glogStamp(b []byte, i int) (Stamp, int) {
	switch b[i] {
	case 'I', 'W', 'E', 'F':
	default:
		return Stamp{}, 0
	}
	n := 0
	for i+1+n < len(b) && isDigit(b[i+1+n]) {
		n++
	}
	if n != 3 && n != 4 || i+1+n >= len(b) || b[i+1+n] != ' ' {
		return Stamp{}, 0
	}
	mo, _ := digits(b, i+1, n-2)
	d, _ := digits(b, i+n-1, 2)
	return noYearStamp(b, i+n+2, mo, d, StampGlog)
}

var monthNames = [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// syslogStamp reads `Jun 11 14:03:27` (the day may be space-padded: `Jun  1`).
func syslogStamp(b []byte, i int) (Stamp, int) {
	if i+15 > len(b) || b[i+3] != ' ' || b[i+6] != ' ' {
		return Stamp{}, 0
	}
	mo := int64(0)
	for k, n := range monthNames {
		if string(b[i:i+3]) == n {
			mo = int64(k + 1)
		}
	}
	d, ok := digits(b, i+4, 2)
	if b[i+4] == ' ' {
		d, ok = digits(b, i+5, 1)
	}
	if mo == 0 || !ok {
		return Stamp{}, 0
	}
	return noYearStamp(b, i+7, mo, d, StampSyslog)
}

// noYearStamp reads the `HH:MM:SS[.f]` at i of a form that printed month mo and day d only.
func noYearStamp(b []byte, i int, mo, d int64, form StampForm) (Stamp, int) {
	days, ok := civilDays(noYear, mo, d)
	if !ok {
		return Stamp{}, 0
	}
	clock, end := clockAt(b, i)
	if end == 0 {
		return Stamp{}, 0
	}
	st := Stamp{Nanos: days*dayNanos + clock, Form: form}
	if end < len(b) && b[end] == '.' {
		end = fractionAt(b, end, &st)
	}
	return st, end
}

const (
	secNanos = int64(1e9)
	dayNanos = 86400 * secNanos
)

// clockAt reads `HH:MM:SS` at i; it returns the nanoseconds since midnight and its end, or
// an end of 0 where it is not a time of day (hour 24 and up, minute or second 60 and up).
func clockAt(b []byte, i int) (int64, int) {
	if i+8 > len(b) || b[i+2] != ':' || b[i+5] != ':' {
		return 0, 0
	}
	h, ok1 := dig2(b, i)
	m, ok2 := dig2(b, i+3)
	s, ok3 := dig2(b, i+6)
	ns, ok := clockNanos(h, m, s)
	if !(ok1 && ok2 && ok3 && ok) {
		return 0, 0
	}
	return ns, i + 8
}

// clockNanos returns the nanoseconds since midnight of h:m:s, and false where it is no time
// of day (hour 24 and up, minute or second 60 and up).
func clockNanos(h, m, s int64) (int64, bool) {
	return ((h*60+m)*60 + s) * secNanos, h <= 23 && m <= 59 && s <= 59
}

// fractionAt reads `.f` or `,f` (1 to 9 digits) at i into st; it returns its end (i where
// there is none). More than nine digits are no fraction NCCL or a logger prints: the time
// is refused by its caller, as what follows is no white space.
func fractionAt(b []byte, i int, st *Stamp) int {
	if i >= len(b) || b[i] != '.' && b[i] != ',' {
		return i
	}
	j, frac := i+1, int64(0)
	for j < len(b) && isDigit(b[j]) && j-i <= 9 {
		frac = frac*10 + int64(b[j]-'0')
		j++
	}
	n := j - i - 1
	if n == 0 {
		return i
	}
	for k := n; k < 9; k++ {
		frac *= 10
	}
	st.Nanos += frac
	st.Digits = uint8(n)
	return j
}

// zoneAt reads `Z`, `±hh:mm` or `±hhmm` at i into st (normalising to UTC); it returns its end.
func zoneAt(b []byte, i int, st *Stamp) int {
	if i >= len(b) {
		return i
	}
	if b[i] == 'Z' {
		st.Zoned = true
		return i + 1
	}
	if b[i] != '+' && b[i] != '-' {
		return i
	}
	h, ok1 := digits(b, i+1, 2)
	j := i + 3
	if j < len(b) && b[j] == ':' {
		j++
	}
	m, ok2 := digits(b, j, 2)
	off, ok := zoneNanos(h, m)
	if !ok1 || !ok2 || !ok {
		return i
	}
	if b[i] == '-' {
		off = -off
	}
	st.Nanos -= off
	st.Zoned = true
	return j + 2
}

// zoneNanos returns the length of a zone's offset of h hours and m minutes, and false where
// it is none (hour 24 and up, minute 60 and up).
func zoneNanos(h, m int64) (int64, bool) {
	return (h*60 + m) * 60 * secNanos, h <= 23 && m <= 59
}

// dig2 reads the two decimal digits at b[i:i+2], which the caller has checked are there.
func dig2(b []byte, i int) (int64, bool) {
	x, y := b[i]-'0', b[i+1]-'0'
	return int64(x)*10 + int64(y), x <= 9 && y <= 9
}

// digits reads n decimal digits at i.
func digits(b []byte, i, n int) (int64, bool) {
	if i < 0 || i+n > len(b) {
		return 0, false
	}
	v := int64(0)
	for _, c := range b[i : i+n] {
		if !isDigit(c) {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// civilDays returns the days from 1970-01-01 to the date y-m-d, and false where the date does
// not exist (month 13, Feb 30, Feb 29 of a common year) or lies outside 1970 to 2200.
func civilDays(y, m, d int64) (int64, bool) {
	if y < 1970 || y > 2200 || m < 1 || m > 12 || d < 1 || d > monthDays(y, m) {
		return 0, false
	}
	// Howard Hinnant's days_from_civil, for years from 1970.
	if m <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468, true
}

func monthDays(y, m int64) int64 {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// traceStamp reads the milliseconds since init that open a TRACE line's location,
// `1843.225104` (NCCL's %f); ok is false where loc does not start with one.
func traceStamp(loc string) (Stamp, bool) {
	ms, j := int64(0), 0
	for j < len(loc) && isDigit(loc[j]) && j < 15 {
		ms = ms*10 + int64(loc[j]-'0')
		j++
	}
	if j == 0 || j == len(loc) || loc[j] != '.' {
		return Stamp{}, false
	}
	st := Stamp{Nanos: ms * 1e6, Form: StampTrace}
	k, frac := j+1, int64(0)
	for k < len(loc) && isDigit(loc[k]) && k-j <= 9 {
		frac = frac*10 + int64(loc[k]-'0')
		k++
	}
	n := k - j - 1
	if n == 0 || k != len(loc) {
		return Stamp{}, false
	}
	// The fraction is of milliseconds: six digits are nanoseconds.
	for ; n < 6; n++ {
		frac *= 10
	}
	for ; n > 6; n-- {
		frac /= 10
	}
	st.Nanos += frac
	st.Digits = uint8(k - j - 1)
	return st, true
}
