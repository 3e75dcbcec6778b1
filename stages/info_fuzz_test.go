package stages

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sync"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/parser"
)

// infoFuzzParser is the parser every run of FuzzInfoChunking reads its lines with.
var infoFuzzParser = sync.OnceValues(parser.NewParser)

// FuzzInfoChunking: the report on any lines is the same read as one Info or cut into Infos
// of chunk lines merged in order. The lines are parsed once, by one parser for every run (as
// RunAll's inputs share theirs): a fresh parser per run read each line with the grammar.
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
		p, err := infoFuzzParser()
		if err != nil {
			t.Fatal(err)
		}
		lines := parseLines(p, data)
		want := infoOfParsed(lines, 0)
		got := infoOfParsed(lines, int(chunk%16)+1)
		if !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Fatalf("chunks of %d lines:\n got %s\nwant %s", chunk%16+1, g, w)
		}
	})
}
