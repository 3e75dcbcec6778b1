package ranks

// StepVolume returns the calls, message bytes and bus bytes each rank of the communicator
// issues in each step with a known number. Like StepBus, it reads the reference sequence,
// whose calls are the same on every rank.
func (r *Ranks) StepVolume(g *Group) map[int64]Volume {
	r.settle()
	out := make(map[int64]Volume)
	g.ref.each(func(_ int64, c *refCall) {
		if c.sig == 0 || c.step == 0 {
			return
		}
		step := r.steps.step(c.step)
		v := out[step]
		v.add(r.sigs.sig(c.sig), g.NRanks)
		out[step] = v
	})
	return out
}
