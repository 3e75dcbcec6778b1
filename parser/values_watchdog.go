package parser

import "strings"

// seqWord is a work sequence number of a watchdog line: an optional minus and decimal
// digits, with whatever runs on after a '.' ignored: the sentence's full stop is a Word byte
// (`last completed NCCL work: 1579.`, even `56118.This is most likely ...`).
type seqWord int64

func (s *seqWord) Capture(values []string) error {
	v := strings.Join(values, "")
	if i := strings.IndexByte(v, '.'); i >= 0 {
		v = v[:i]
	}
	n, err := parseDec(v)
	*s = seqWord(n)
	return err
}

// glogLevel is the first word of a glog head: the level letter, then the month (not padded)
// and the day (two digits) where the head prints a date (`E1016`, `E227`, or `E` alone).
type glogLevel struct {
	Level      byte
	Month, Day int64
}

func (g *glogLevel) Capture(values []string) error {
	v := strings.Join(values, "")
	if len(v) != 1 && len(v) != 4 && len(v) != 5 || strings.IndexByte("IWEF", v[0]) < 0 {
		return errNumber
	}
	*g = glogLevel{Level: v[0]}
	if len(v) > 1 {
		md, err := parseDec(v[1:])
		if err != nil || md/100 < 1 || md/100 > 12 || md%100 < 1 || md%100 > 31 {
			return errNumber
		}
		g.Month, g.Day = md/100, md%100
	}
	return nil
}

// glogTime is a glog head's time of day, `03:31:38.928019586` (or .928019, or none), in
// nanoseconds.
type glogTime int64

func (t *glogTime) Capture(values []string) error {
	v := strings.Join(values, "")
	clock, frac, hasFrac := strings.Cut(v, ".")
	parts := strings.Split(clock, ":")
	if len(parts) != 3 || hasFrac && (len(frac) == 0 || len(frac) > 9) {
		return errNumber
	}
	var ns int64
	for i, limit := range [3]int64{24, 60, 60} {
		n, err := parseDec(parts[i])
		if err != nil || n < 0 || n >= limit || len(parts[i]) != 2 {
			return errNumber
		}
		ns = ns*60 + n
	}
	ns *= 1e9
	if hasFrac {
		f, err := parseDec(frac)
		if err != nil || f < 0 {
			return errNumber
		}
		for range 9 - len(frac) {
			f *= 10
		}
		ns += f
	}
	*t = glogTime(ns)
	return nil
}
