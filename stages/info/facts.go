package info

import "iter"

// facts are a process's facts by name, in the order it printed them: a list searched in
// order, with an index once it holds more than factsIndexed. A process prints a few facts
// (its interfaces, NICs, network, transports; its variables on a log of NCCL_DEBUG_SUBSYS=ENV):
// on a log of communicator set-up, a map for each process, with a heap object for each of
// its facts, was a third of info's memory.
type facts struct {
	list []namedFact
	at   map[string]int // nil until the list holds more than factsIndexed
}

type namedFact struct {
	name string
	factVal
}

// factsIndexed is how many facts are looked up without the index.
const factsIndexed = 16

// get returns the fact name, nil where none. The pointer is good until the next add.
func (fs *facts) get(name string) *factVal {
	if fs.at != nil {
		if i, ok := fs.at[name]; ok {
			return &fs.list[i].factVal
		}
		return nil
	}
	for i := range fs.list {
		if fs.list[i].name == name {
			return &fs.list[i].factVal
		}
	}
	return nil
}

// add adds the fact name, which get does not find, first read at ev.
func (fs *facts) add(name string, ev Evidence) *factVal {
	fs.list = append(fs.list, namedFact{name: name, factVal: factVal{ev: ev}})
	switch {
	case fs.at != nil:
		fs.at[name] = len(fs.list) - 1
	case len(fs.list) > factsIndexed:
		fs.at = make(map[string]int, 2*len(fs.list))
		for i := range fs.list {
			fs.at[fs.list[i].name] = i
		}
	}
	return &fs.list[len(fs.list)-1].factVal
}

// all yields each fact with its name, in the order they were added.
func (fs *facts) all() iter.Seq2[string, *factVal] {
	return func(yield func(string, *factVal) bool) {
		for i := range fs.list {
			if !yield(fs.list[i].name, &fs.list[i].factVal) {
				return
			}
		}
	}
}
