package stages

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseStepRange(t *testing.T) {
	tests := []struct {
		in   string
		want StepRange
		ok   bool
	}{
		{"0", StepRange{0, 0}, true},
		{"7", StepRange{7, 7}, true},
		{"10-20", StepRange{10, 20}, true},
		{"5-5", StepRange{5, 5}, true},
		{"0-9223372036854775807", StepRange{0, 9223372036854775807}, true},
		{" 3 - 7 ", StepRange{3, 7}, true},
		{"", StepRange{}, false},
		{"-", StepRange{}, false},
		{"x", StepRange{}, false},
		{"3-", StepRange{}, false},
		{"-3", StepRange{}, false},
		{"-3-5", StepRange{}, false},
		{"7-3", StepRange{}, false},
		{"1-2-3", StepRange{}, false},
		{"1--2", StepRange{}, false},
		{"1.5", StepRange{}, false},
		{"3-x", StepRange{}, false},
		{"x-3", StepRange{}, false},
		{"3,5", StepRange{}, false},
		{"99999999999999999999", StepRange{}, false},
	}
	for _, tc := range tests {
		got, err := ParseStepRange(tc.in)
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
	r := StepRange{10, 20}
	for n, want := range map[int64]bool{-1: false, 9: false, 10: true, 15: true, 20: true, 21: false} {
		if r.Has(n) != want {
			t.Errorf("%v.Has(%d) = %v", r, n, !want)
		}
	}
}

func TestParseBoundary(t *testing.T) {
	tests := []struct {
		in   string
		want Boundary
		ok   bool
	}{
		{"end", BoundaryEnd, true},
		{"start", BoundaryStart, true},
		{"", 0, false},
		{"End", 0, false},
		{"START", 0, false},
		{" end", 0, false},
		{"begin", 0, false},
		{"1", 0, false},
	}
	for _, tc := range tests {
		got, err := ParseBoundary(tc.in)
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
