package gen

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"testing"
)

// TestRASJSONReport: the ras scenario's JSON report is one JSON document of NCCL's shape,
// its world communicator's two hung ranks one AllReduce behind the others.
func TestRASJSONReport(t *testing.T) {
	var b bytes.Buffer
	s, err := Write(&b, Config{Seed: 1, Ranks: 16, Steps: 4, Failure: "ras", NCCLVersion: "2.29.2", RASFormat: "json"})
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b.Bytes(), []byte("\n{\n"))
	if i < 0 {
		t.Fatal("no JSON report in the log")
	}
	var doc struct {
		Comms []struct {
			Hash  string `json:"hash"`
			Size  int    `json:"size"`
			Ranks []struct {
				Rank   int              `json:"rank"`
				Counts map[string]int64 `json:"collective_counts"`
			} `json:"ranks"`
		} `json:"communicators"`
	}
	if err := json.Unmarshal(b.Bytes()[i+1:], &doc); err != nil {
		t.Fatalf("the report is no JSON document: %v", err)
	}
	if len(doc.Comms) < 2 || len(doc.Comms[0].Ranks) != 16 {
		t.Fatalf("%d communicators, the first of %d ranks", len(doc.Comms), len(doc.Comms[0].Ranks))
	}
	var behind []int
	for _, r := range doc.Comms[0].Ranks {
		if r.Counts["AllReduce"] == int64(s.Truth.Seq)-1 {
			behind = append(behind, r.Rank)
		}
	}
	if !slices.Equal(behind, s.Truth.Ranks) {
		t.Errorf("ranks %v are behind, want %v", behind, s.Truth.Ranks)
	}
}

// TestRASFormatRefused: an unknown form, the JSON form before NCCL 2.28.7 or without the ras
// scenario is refused.
func TestRASFormatRefused(t *testing.T) {
	for _, c := range []Config{
		{Ranks: 16, Steps: 4, Failure: "ras", NCCLVersion: "2.29.2", RASFormat: "xml"},
		{Ranks: 16, Steps: 4, Failure: "ras", NCCLVersion: "2.28.3", RASFormat: "json"},
		{Ranks: 16, Steps: 4, Failure: "oom", RASFormat: "json"},
		{Ranks: 16, Steps: 4, RASFormat: "json"},
	} {
		if _, err := Write(io.Discard, c); err == nil {
			t.Errorf("%+v: accepted", c)
		}
	}
}
