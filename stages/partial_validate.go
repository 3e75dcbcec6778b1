package stages

import (
	"errors"
	"fmt"

	"github.com/nccllog/nccllog/parser"
)

// ErrPartialDamaged is returned by Decode where what a partial result declares cannot be
// true of any logs: a negative count, parts that do not add up, a rank outside its
// communicator. Such a file was damaged, or not written by nccllog summarize.
var ErrPartialDamaged = errors.New("partial result is damaged")

func Damaged(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrPartialDamaged}, args...)...)
}

// checkCount says whether n can be a count of lines or calls (see maxPartialCount).
func CheckCount(what string, n int64) error {
	if n < 0 || n > MaxPartialCount {
		return Damaged("%s is %d: a count is between 0 and 2^48", what, n)
	}
	return nil
}

// named is a count and what it counts.
type Named struct {
	Name string
	N    int64
}

// checkCounts checks counts of one thing, named by of (" of input \"x.log\"").
func CheckCounts(of string, ns ...Named) error {
	for _, c := range ns {
		if err := CheckCount("its count of "+c.Name+of, c.N); err != nil {
			return err
		}
	}
	return nil
}

// checkLines says whether l, the line accounting of (" of input \"x.log\""), can be that
// of some logs: its classes and its unread lines add up to its total.
func checkLines(of string, l *Lines) error {
	sum := l.Unread
	if err := CheckCounts(of, Named{"lines", l.Total}, Named{"unread lines", l.Unread},
		Named{"spliced lines", l.Spliced}, Named{"lines with an unknown field", l.UnknownKey}); err != nil {
		return err
	}
	for k, n := range l.ByKind {
		if err := CheckCounts(of, Named{parser.Kind(k).String() + " lines", n}); err != nil {
			return err
		}
		sum += n
	}
	switch {
	case sum != l.Total:
		return Damaged("the line classes and unread lines%s add up to %d, its count of lines says %d", of, sum, l.Total)
	case l.Spliced > l.Total || l.UnknownKey > l.Total:
		return Damaged("more spliced lines or lines with an unknown field than lines%s", of)
	case len(l.Problems) > MaxProblems:
		return Damaged("%d malformed lines kept%s, more than the %d a run keeps", len(l.Problems), of, MaxProblems)
	}
	return nil
}

// checkInputs checks the header: its inputs' line accounting and its parse counts.
func checkInputs(f *partialFile) error {
	for i := range f.Inputs {
		in := &f.Inputs[i]
		if err := checkLines(fmt.Sprintf(" of input %q", in.Name), &in.Lines); err != nil {
			return err
		}
	}
	p := f.Parse
	return CheckCounts(" parsed", Named{"lines", p.Lines},
		Named{"lines read by the grammar", p.Grammar}, Named{"lines checked", p.Checked}, Named{"disagreements", p.Disagree})
}

// checkResult checks what the stages restored against the header: the inputs' lines add up
// to the line accounting.
func checkResult(r *Result) error {
	p, ok := Part[*LinesPart](r.Set)
	if !ok {
		return nil
	}
	var sum int64
	for _, in := range r.Inputs {
		sum += in.Lines.Total // each at most 2^48: no overflow for 2^15 inputs
		if sum > MaxPartialCount {
			return Damaged("its inputs' lines add up to more than 2^48")
		}
	}
	if sum != p.Total {
		return Damaged("its inputs' lines add up to %d, its line accounting says %d", sum, p.Total)
	}
	return nil
}
