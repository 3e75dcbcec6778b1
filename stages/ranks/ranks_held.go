package ranks

// A RankEvent is held (see held) while it waits for its step.

func (e *RankEvent) Settle(step int64) { e.Step = step }

func (e *RankEvent) Anchor(file string, base int64) { e.File, e.Line = file, e.Line+base }
