package info

import (
	"bufio"
	"bytes"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages/internal/stagetest"
)

// infoOfComms reads n generated communicators (an Init line and a call each) into an Info
// that lists at most maxComms, in chunks of 1,000 lines merged in order.
func infoOfComms(t *testing.T, n int64, maxComms int) *Info {
	t.Helper()
	var buf bytes.Buffer
	if err := gen.WriteDistinct(&buf, gen.DistinctComms, n); err != nil {
		t.Fatal(err)
	}
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	all, cur := NewInfo(), NewInfo()
	all.maxComms, cur.maxComms = maxComms, maxComms
	var line int64
	sc := bufio.NewScanner(&buf)
	for sc.Scan() {
		var l parser.Line
		p.Parse(sc.Bytes(), &l)
		line++
		cur.Add("job.log", line, sc.Bytes(), &l)
		if line%1000 == 0 {
			all.Merge(cur)
			cur = NewInfo()
			cur.maxComms = maxComms
		}
	}
	all.Merge(cur)
	return all
}

// TestInfoCommsPastCap: info lists at most maxComms communicators and says how many Init
// lines it left out; one past the cap costs a few bytes, not a table entry.
func TestInfoCommsPastCap(t *testing.T) {
	const maxComms = 500
	in := infoOfComms(t, 2000, maxComms)
	rep := in.Report()
	if len(rep.Comms) != maxComms || rep.CommsNotListed != 1500 {
		t.Errorf("%d communicators listed, %d Init lines not; want %d and 1500", len(rep.Comms), rep.CommsNotListed, maxComms)
	}
	small := stagetest.Retained(func() any { return infoOfComms(t, 2*maxComms, maxComms) })
	large := stagetest.Retained(func() any { return infoOfComms(t, 12*maxComms, maxComms) })
	per := (large - small) / (10 * maxComms)
	t.Logf("%d bytes for %d communicators, %d for %d: %d a communicator past the cap", small, 2*maxComms, large, 12*maxComms, per)
	if per > 64 {
		t.Errorf("a communicator past the cap keeps %d bytes, want at most 64", per)
	}
}
