package ranks_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/nccllog/nccllog/pipeline"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/internal/goldentest"
	"github.com/nccllog/nccllog/stages/ranks"
)

// TestCheckSidesOrderStable: the sides of a mismatch between ranks whose numbers no line
// gives (an excerpt's inferred communicator) come out in one order, run after run; they were
// gathered in a map, and the order of two one-rank sides once followed its iteration.
func TestCheckSidesOrderStable(t *testing.T) {
	in := []pipeline.Input{{Name: filepath.Join("testdata", "ranks", "excerpt-opcount0-mismatch.log")}}
	var first []byte
	for i := range 40 {
		res, err := pipeline.AnalyzeWith(context.Background(), in, stages.Config{}, goldentest.Parsers(), "ranks")
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(ranks.RanksOf(res.Set).CheckReport())
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = got
		} else if string(got) != string(first) {
			t.Fatalf("run %d: check's report differs from the first run's:\n%s\n%s", i, first, got)
		}
	}
}
