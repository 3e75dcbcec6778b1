package ranks

import (
	"bufio"
	"bytes"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// BenchmarkRanksAdd feeds a generated 16-rank log's calls, communicator lines and WARNs to
// Ranks, as the ordered merge does (the parsing is done before the clock starts).
func BenchmarkRanksAdd(b *testing.B) {
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, gen.Config{Seed: 1, Size: 32 << 20, Noise: true}); err != nil {
		b.Fatal(err)
	}
	p, err := parser.NewParser()
	if err != nil {
		b.Fatal(err)
	}
	var events []RankEvent
	sc := bufio.NewScanner(&buf)
	for n := int64(1); sc.Scan(); n++ {
		var l parser.Line
		p.Parse(sc.Bytes(), &l)
		e, ok := rankEvent(n, sc.Bytes(), &l)
		if !ok {
			continue
		}
		events = append(events, e)
	}
	b.ReportAllocs()
	for b.Loop() {
		r := NewRanks(&stages.Config{})
		for i := range events {
			r.Add("gen.log", &events[i])
		}
		r.Hang()
	}
	b.ReportMetric(float64(len(events))*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mevents/s")
}
