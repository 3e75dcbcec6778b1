package agg

import (
	"fmt"
	"github.com/nccllog/nccllog/stages"
)

// check says whether s can be an Agg's content: its counts in range.
func (s *AggSnapshot) check() error {
	for _, g := range s.Groups {
		if err := stages.CheckCount(fmt.Sprintf("its count of %s calls of count %d", g.Op, g.Count), g.Calls); err != nil {
			return err
		}
	}
	for _, d := range s.Dropped {
		if err := stages.CheckCount(fmt.Sprintf("its count of %s calls left out", d.Op), d.Calls); err != nil {
			return err
		}
	}
	for _, o := range s.Ops {
		if err := stages.CheckCount(fmt.Sprintf("its count of %s calls", o.Op), o.Calls); err != nil {
			return err
		}
		for _, n := range o.Hist {
			if err := stages.CheckCount(fmt.Sprintf("its count of %s calls in a histogram bucket", o.Op), n); err != nil {
				return err
			}
		}
	}
	return nil
}
