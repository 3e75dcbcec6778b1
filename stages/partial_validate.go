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

func damaged(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrPartialDamaged}, args...)...)
}

// checkCount says whether n can be a count of lines or calls (see maxPartialCount).
func checkCount(what string, n int64) error {
	if n < 0 || n > maxPartialCount {
		return damaged("%s is %d: a count is between 0 and 2^48", what, n)
	}
	return nil
}

// named is a count and what it counts.
type named struct {
	name string
	n    int64
}

// checkCounts checks counts of one thing, named by of (" of input \"x.log\"").
func checkCounts(of string, ns ...named) error {
	for _, c := range ns {
		if err := checkCount("its count of "+c.name+of, c.n); err != nil {
			return err
		}
	}
	return nil
}

// checkLines says whether l, the line accounting of (" of input \"x.log\""), can be that
// of some logs: its classes and its unread lines add up to its total.
func checkLines(of string, l *Lines) error {
	sum := l.Unread
	if err := checkCounts(of, named{"lines", l.Total}, named{"unread lines", l.Unread},
		named{"spliced lines", l.Spliced}, named{"lines with an unknown field", l.UnknownKey}); err != nil {
		return err
	}
	for k, n := range l.ByKind {
		if err := checkCounts(of, named{parser.Kind(k).String() + " lines", n}); err != nil {
			return err
		}
		sum += n
	}
	switch {
	case sum != l.Total:
		return damaged("the line classes and unread lines%s add up to %d, its count of lines says %d", of, sum, l.Total)
	case l.Spliced > l.Total || l.UnknownKey > l.Total:
		return damaged("more spliced lines or lines with an unknown field than lines%s", of)
	case len(l.Problems) > MaxProblems:
		return damaged("%d malformed lines kept%s, more than the %d a run keeps", len(l.Problems), of, MaxProblems)
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
	return checkCounts(" parsed", named{"lines", p.Lines},
		named{"lines read by the grammar", p.Grammar}, named{"lines checked", p.Checked}, named{"disagreements", p.Disagree})
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
		if sum > maxPartialCount {
			return damaged("its inputs' lines add up to more than 2^48")
		}
	}
	if sum != p.Total {
		return damaged("its inputs' lines add up to %d, its line accounting says %d", sum, p.Total)
	}
	return nil
}
