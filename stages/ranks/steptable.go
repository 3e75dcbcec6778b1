package ranks

// stepTable interns step numbers as small ids, so that a position of a communicator's
// reference sequence keeps its step in four bytes whatever the step's value (steps past 2^31
// are real: counters of samples or micro-steps). Id 0 is "no known step"; the table grows
// with the distinct steps of the run, not with calls.
type stepTable struct {
	ids   map[int64]uint32
	steps []int64
	// last is the step asked for last, and lastID its id: calls come a step at a time.
	last   int64
	lastID uint32
}

func newStepTable() *stepTable {
	return &stepTable{ids: make(map[int64]uint32), steps: []int64{-1}, last: -1}
}

// id is step's id, 0 for a step that is not known (negative).
func (t *stepTable) id(step int64) uint32 {
	if step < 0 {
		return 0
	}
	if step == t.last {
		return t.lastID
	}
	id, ok := t.ids[step]
	if !ok {
		id = uint32(len(t.steps))
		t.steps = append(t.steps, step)
		t.ids[step] = id
	}
	t.last, t.lastID = step, id
	return id
}

// step is the step of id, -1 for id 0.
func (t *stepTable) step(id uint32) int64 { return t.steps[id] }
