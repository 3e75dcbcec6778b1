package parser

import (
	"bufio"
	"fmt"
	"os"
	"testing"
)

func TestFailureTry(t *testing.T) {
	g, _ := NewGrammar()
	p, _ := NewParser()
	f, err := os.Open(os.Getenv("FAILTRY"))
	if err != nil {
		t.Skip()
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := g.Parse(sc.Bytes())
		var s Line
		ok := p.Scan(sc.Bytes(), &s)
		if l.Kind == KindFailure {
			fmt.Printf("%q\n   %+v sp=%v rank=%d\n", sc.Text(), *l.Fail, l.Spliced, l.Rank)
		}
		if ok && !sameLine(&l, &s) {
			fmt.Printf("DISAGREE %q\n", sc.Text())
		}
	}
}
