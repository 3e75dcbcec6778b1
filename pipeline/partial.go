package pipeline

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"

	"github.com/nccllog/nccllog/stages"
)

// readPartial reads src as a partial result where its first bytes (after any compression)
// say it is one (stages.PartialMagic): its Result stands for the logs it was made from. ok is
// false for a log. Inputs opened late (standard input, FIFOs) are taken for logs.
// Its set-up lines are read again by a Parser borrowed from ps (a new one takes milliseconds).
func readPartial(src *source, name string, plan *stages.Plan, ps *Parsers) (res *stages.Result, ok bool, err error) {
	if src.late != nil {
		return nil, false, nil
	}
	br, isBuffered := src.r.(*bufio.Reader)
	if !isBuffered {
		br = bufio.NewReaderSize(src.r, 64<<10)
		src.r = br
	}
	head, _ := br.Peek(len(stages.PartialMagic))
	if !bytes.Equal(head, []byte(stages.PartialMagic)) {
		return nil, false, nil
	}
	p, err := ps.get()
	if err != nil {
		return nil, true, err
	}
	defer ps.put(p)
	res, err = stages.Decode(br, plan, stages.NewLimits(src.size).WithParser(p))
	switch {
	case errors.Is(err, stages.ErrPartialLimit):
		err = fmt.Errorf("%w (summarize fewer logs into each partial result, or read the logs themselves)", err)
	case errors.Is(err, stages.ErrPartialDamaged):
		err = fmt.Errorf("%w (it was damaged on the way, or not written by nccllog summarize: summarize the logs again)", err)
	}
	if err != nil {
		return nil, true, fmt.Errorf("%q: %w", name, err)
	}
	for i := range res.Inputs {
		res.Inputs[i].From = name
	}
	return res, true, nil
}
