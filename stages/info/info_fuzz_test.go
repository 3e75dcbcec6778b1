package info

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sync"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages/internal/stagetest"
)

// FuzzInfoChunking: the report on any lines is the same read as one Info or cut into Infos
// of chunk lines merged in order. Both readings take the same parsed lines, and the set-up
// messages' readings come from what earlier runs read (see infoMemo): this target checks
// how Infos add and merge, and the parser's own targets hold what a line parses to.
func FuzzInfoChunking(f *testing.F) {
	for i, fam := range gen.SetupFamilies() {
		var b bytes.Buffer
		c := gen.SetupConfig{Family: fam, Hosts: 2, RanksPerHost: 2, WarnRank: gen.Rank(i % 4)}
		if err := gen.WriteSetup(&b, c); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes(), uint8(i+1))
	}
	f.Fuzz(func(t *testing.T, data []byte, chunk uint8) {
		m, err := infoFuzzMemo()
		if err != nil {
			t.Fatal(err)
		}
		lines := m.parse(data)
		seen := m.setups(lines)
		want := infoOfParsedSeen(lines, 0, seen)
		got := infoOfParsedSeen(lines, int(chunk%16)+1, seen)
		if !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Fatalf("chunks of %d lines:\n got %s\nwant %s", chunk%16+1, g, w)
		}
	})
}

// infoFuzzMemo is the memo every run of FuzzInfoChunking shares.
var infoFuzzMemo = sync.OnceValues(func() (*infoMemo, error) {
	p, err := parser.NewParser()
	return &infoMemo{p: p, lines: map[string]parser.Line{}, setup: map[string]setupSeen{}}, err
})

// infoMemo remembers how each distinct line parsed and each distinct set-up message read,
// for the runs of a fuzz target. A run is a mutation of an earlier input and shares most of
// its lines: without it, nine tenths of a run went to reading those lines again with the
// grammar. Parser.Parse and ParseSetup read a line or message the same whenever they read it.
type infoMemo struct {
	p     *parser.Parser
	lines map[string]parser.Line
	setup map[string]setupSeen
}

// maxMemo bounds each of infoMemo's maps; a full map starts again empty.
const maxMemo = 1 << 16

// parse is parseLines with p, reading each distinct line once.
func (m *infoMemo) parse(data []byte) []stagetest.ParsedText {
	if len(m.lines) >= maxMemo {
		clear(m.lines)
	}
	out := stagetest.SplitLines(data)
	for i := range out {
		l, ok := m.lines[string(out[i].Text)]
		if !ok {
			m.p.Parse(out[i].Text, &l)
			m.lines[string(out[i].Text)] = l
		}
		out[i].P = l
	}
	return out
}

// setups returns, for an Info's memo of set-up messages, how the INFO lines' messages read
// (at most maxSeen-1 of them, so that an Info keeps the map it is given and adds to it).
func (m *infoMemo) setups(lines []stagetest.ParsedText) map[string]setupSeen {
	if len(m.setup) >= maxMemo {
		clear(m.setup)
	}
	seen := map[string]setupSeen{}
	for i := range lines {
		k := lines[i].P.Kind
		if (k != parser.KindInfo && k != parser.KindTrace) || len(seen) >= maxSeen-1 {
			continue
		}
		msg := parser.Message(lines[i].Text, &lines[i].P)
		r, ok := m.setup[string(msg)]
		if !ok {
			r.s, r.ok = parser.ParseSetup(msg)
			m.setup[string(msg)] = r
		}
		seen[string(msg)] = r
	}
	return seen
}
