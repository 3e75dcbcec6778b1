package stages_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages"
)

func TestParseStepRange(t *testing.T) {
	tests := []struct {
		in   string
		want stages.StepRange
		ok   bool
	}{
		{"0", stages.StepRange{0, 0}, true},
		{"7", stages.StepRange{7, 7}, true},
		{"10-20", stages.StepRange{10, 20}, true},
		{"5-5", stages.StepRange{5, 5}, true},
		{"0-9223372036854775807", stages.StepRange{0, 9223372036854775807}, true},
		{" 3 - 7 ", stages.StepRange{3, 7}, true},
		{"", stages.StepRange{}, false},
		{"-", stages.StepRange{}, false},
		{"x", stages.StepRange{}, false},
		{"3-", stages.StepRange{}, false},
		{"-3", stages.StepRange{}, false},
		{"-3-5", stages.StepRange{}, false},
		{"7-3", stages.StepRange{}, false},
		{"1-2-3", stages.StepRange{}, false},
		{"1--2", stages.StepRange{}, false},
		{"1.5", stages.StepRange{}, false},
		{"3-x", stages.StepRange{}, false},
		{"x-3", stages.StepRange{}, false},
		{"3,5", stages.StepRange{}, false},
		{"99999999999999999999", stages.StepRange{}, false},
	}
	for _, tc := range tests {
		got, err := stages.ParseStepRange(tc.in)
		if tc.ok {
			if err != nil || got != tc.want {
				t.Errorf("ParseStepRange(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
			}
			continue
		}
		if err == nil {
			t.Errorf("ParseStepRange(%q) = %v, want an error", tc.in, got)
		} else if !strings.Contains(err.Error(), fmt.Sprintf("%q", tc.in)) {
			t.Errorf("ParseStepRange(%q): error %q does not quote the input", tc.in, err)
		}
	}
}

func TestStepRangeHas(t *testing.T) {
	r := stages.StepRange{10, 20}
	for n, want := range map[int64]bool{-1: false, 9: false, 10: true, 15: true, 20: true, 21: false} {
		if r.Has(n) != want {
			t.Errorf("%v.Has(%d) = %v", r, n, !want)
		}
	}
}

func TestParseBoundary(t *testing.T) {
	tests := []struct {
		in   string
		want stages.Boundary
		ok   bool
	}{
		{"end", stages.BoundaryEnd, true},
		{"start", stages.BoundaryStart, true},
		{"", 0, false},
		{"End", 0, false},
		{"START", 0, false},
		{" end", 0, false},
		{"begin", 0, false},
		{"1", 0, false},
	}
	for _, tc := range tests {
		got, err := stages.ParseBoundary(tc.in)
		if tc.ok {
			if err != nil || got != tc.want {
				t.Errorf("ParseBoundary(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
			}
			if got.String() != tc.in {
				t.Errorf("ParseBoundary(%q).String() = %q", tc.in, got.String())
			}
			continue
		}
		if err == nil {
			t.Errorf("ParseBoundary(%q) = %v, want an error", tc.in, got)
		} else if !strings.Contains(err.Error(), fmt.Sprintf("%q", tc.in)) {
			t.Errorf("ParseBoundary(%q): error %q does not quote the input", tc.in, err)
		}
	}
}
