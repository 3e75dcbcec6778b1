package pipeline

// progress tells Options.Progress how far the merge has got through one input.
type progress struct {
	report func(n int64) // Options.Progress; nil: nobody asked
	done   int64         // bytes of the input reported so far
}

// upTo says that the input has been read and merged up to byte pos; a position at or
// before the last one reported adds nothing.
func (p *progress) upTo(pos int64) {
	if p.report == nil || pos <= p.done {
		return
	}
	p.report(pos - p.done)
	p.done = pos
}
