package htmlreport

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

func TestRenderSelfContained(t *testing.T) {
	var b bytes.Buffer
	if err := Render(&b, fixture(1000, 20)); err != nil {
		t.Fatal(err)
	}
	// The check looks at the page around the inlined ECharts, whose code holds tags in strings.
	page := strings.Replace(b.String(), echartsJS, "", 1)
	// Nothing is loaded: no element names a source or a stylesheet to fetch.
	if m := regexp.MustCompile(`(?i)<(script|link|img|iframe)[^>]*(src|href)=`).FindString(page); m != "" {
		t.Errorf("page loads something: %s", m)
	}
	for _, id := range []string{"chart-ops", "chart-hist", "chart-step-volume", "chart-step-time", "chart-ranks", "chart-lags"} {
		if strings.Count(page, `id="`+id+`"`) != 1 || !strings.Contains(page, `["`+id+`", {`) {
			t.Errorf("chart %s is not placed and initialised once", id)
		}
	}
	for _, want := range []string{"Findings", "rank 6 (gpu-node-01:66963)", "NCCL version 2.21.5",
		"980 more ranks", "5,407,145", "7.00 GiB", "prefers-color-scheme: dark"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

func TestRenderEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := Render(&b, &Data{Title: "empty"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `class="item"`) || strings.Contains(b.String(), "Findings") {
		t.Error("an empty report shows a chart or findings")
	}
}

func TestRenderRejectsRaggedHist(t *testing.T) {
	d := fixture(4, 2)
	d.Hist.Counts[1] = d.Hist.Counts[1][:3]
	if err := Render(&bytes.Buffer{}, d); err == nil {
		t.Error("a histogram row short of a bucket was rendered")
	}
}

func TestRankTableEnds(t *testing.T) {
	d := fixture(1000, 1)
	rows, elided := rankTable(d.Rank)
	if len(rows) != 2*topN || elided != 1000-2*topN || rows[0].Rank != 6 {
		t.Errorf("rankTable: %d rows, %d elided, first rank %d; want %d, %d, rank 6", len(rows), elided, rows[0].Rank, 2*topN, 1000-2*topN)
	}
	var n int64
	for _, b := range rankBins(d.Rank) {
		n += b.Ranks
	}
	if n != 1000 || len(rankBins(d.Rank)) != maxBins {
		t.Errorf("rankBins: %d ranks in %d bins", n, len(rankBins(d.Rank)))
	}
}

func TestHumanBytes(t *testing.T) {
	for b, want := range map[float64]string{0: "0 B", 512: "512 B", 1023: "1023 B", 1024: "1.00 KiB", 1048572: "1.00 MiB",
		1.5 * (1 << 20): "1.50 MiB", 24 << 30: "24.0 GiB", 999 << 20: "999 MiB", 1000 << 20: "1000 MiB"} {
		if got := humanBytes(b); got != want {
			t.Errorf("humanBytes(%v) = %q, want %q", b, got, want)
		}
	}
}
