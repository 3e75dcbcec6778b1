package diagnose

// commIndex finds a Partial's communicator states by their commKey. A log of set-up looks
// one up for every lifecycle line and adds thousands, and a map keyed by the commKey itself
// took the map's generic path, its key hashed field by field: the index is keyed by one word
// made of the pid and the communicator (the map's path for 64-bit keys), the state found
// there checked against the whole key. States whose word another state took first (a rare
// coincidence) are kept by their whole key.
type commIndex struct {
	byWord map[uint64]*commState
	more   map[commKey]*commState
}

// commWord is k's word: its pid and communicator mixed.
func commWord(k *commKey) uint64 {
	return uint64(k.Pid)*0x9e3779b97f4a7c15 ^ k.Comm
}

// get is k's state, nil where there is none.
func (x *commIndex) get(k *commKey) *commState {
	st := x.byWord[commWord(k)]
	if st == nil || st.commKey == *k {
		return st // nil: no state has k's word
	}
	return x.more[*k]
}

// put adds st, whose key is not in x.
func (x *commIndex) put(st *commState) {
	w := commWord(&st.commKey)
	if x.byWord[w] == nil {
		x.byWord[w] = st
		return
	}
	if x.more == nil {
		x.more = map[commKey]*commState{}
	}
	x.more[st.commKey] = st
}

// reset forgets every state, keeping the maps' room.
func (x *commIndex) reset() {
	clear(x.byWord)
	clear(x.more)
}
