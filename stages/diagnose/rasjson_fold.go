package diagnose

import (
	"slices"
	"strconv"
)

// rasRec is one rank's record in a RAS JSON report (rasDumpCommsToJSON's jsonWriteRankData
// or jsonWriteMissingRank), from its "rank" line to the line that ends it.
type rasRec struct {
	at                  *RASField // the "rank" line
	rank, pid, gpu      int64
	host                string
	initState, asyncErr int64
	flags               map[string]bool // finalize_called, destroy_flag, abort_flag, unresponsive, considered_dead
	ops                 []string        // the collectives, in the order printed
	counts              []string        // their operation counts
	bad                 bool            // a field twice, or not of its number
}

// rasComm is one communicator of a RAS JSON report, from its "hash" line on.
type rasComm struct {
	at                     *RASField // the "hash" line
	hash                   string
	size, nRanks, nMissing int64
	recs                   []*rasRec // the records some later line ended
	bad                    bool
}

// rasFold reads the RAS JSON fields of one file in order back into communicators and hands
// each one to done when it ends (at the next communicator, the report's footer or head, or
// the file's end). A record is only taken once a line after it ends it, so a report cut
// short never lends its last, maybe cut, record to a verdict.
type rasFold struct {
	file string
	comm *rasComm
	rec  *rasRec
	done func(*rasComm)
}

func (w *rasFold) field(f *RASField) {
	if f.File != w.file {
		w.end()
		w.file = f.File
	}
	switch f.Key {
	case "nccl_version", "collection_time_sec":
		w.endRec()
		w.endComm()
	case "hash":
		w.endRec()
		w.endComm()
		w.comm = &rasComm{at: f, hash: f.Val, size: -1, nRanks: -1, nMissing: -1}
	case "size", "ranks_count", "missing_ranks_count":
		w.commField(f)
	case "missing_ranks":
		w.endRec()
	case "rank":
		w.endRec()
		if w.comm != nil {
			w.rec = &rasRec{at: f, rank: rasNum(f.Val), pid: -1, gpu: -1, initState: -1, asyncErr: -1, flags: map[string]bool{}}
			w.rec.bad = w.rec.rank < 0
		}
	default:
		if w.rec != nil {
			w.rec.set(f)
		}
	}
}

// end ends the file: its open record was cut, its communicator is judged on what ended.
func (w *rasFold) end() {
	w.rec = nil
	w.endComm()
}

func (w *rasFold) commField(f *RASField) {
	if w.comm == nil {
		return
	}
	if w.rec != nil {
		w.comm.bad = true // a communicator's own field among its ranks' records
		return
	}
	n, p := rasNum(f.Val), &w.comm.size
	switch f.Key {
	case "ranks_count":
		p = &w.comm.nRanks
	case "missing_ranks_count":
		p = &w.comm.nMissing
	}
	if *p >= 0 || n < 0 {
		w.comm.bad = true
	}
	*p = n
}

func (w *rasFold) endRec() {
	if w.rec != nil && w.comm != nil {
		w.comm.recs = append(w.comm.recs, w.rec)
	}
	w.rec = nil
}

func (w *rasFold) endComm() {
	if w.comm != nil {
		w.done(w.comm)
	}
	w.comm = nil
}

// set reads one field of the record.
func (r *rasRec) set(f *RASField) {
	switch f.Key {
	case "host":
		r.bad = r.bad || r.host != ""
		r.host = f.Val
	case "pid":
		r.bad = r.bad || r.pid != -1
		r.pid = rasNum(f.Val)
	case "cuda_dev":
		r.bad = r.bad || r.gpu != -1
		r.gpu = rasNum(f.Val)
	case "init_state", "async_error":
		n, p := rasNum(f.Val), &r.asyncErr
		if f.Key == "init_state" {
			p = &r.initState
		}
		r.bad = r.bad || *p != -1 || n < 0
		*p = n
	case "finalize_called", "destroy_flag", "abort_flag", "unresponsive", "considered_dead":
		_, twice := r.flags[f.Key]
		r.bad = r.bad || twice
		r.flags[f.Key] = f.Val == "true"
	default: // a collective's operation count
		r.bad = r.bad || slices.Contains(r.ops, f.Key) || rasNum(f.Val) < 0
		r.ops, r.counts = append(r.ops, f.Key), append(r.counts, f.Val)
	}
}

// rasRankKeys and rasMissingKeys are the flags a rank's and a missing rank's record print.
var (
	rasRankKeys    = []string{"finalize_called", "destroy_flag", "abort_flag"}
	rasMissingKeys = []string{"unresponsive", "considered_dead"}
)

// kind says whether the record is whole: a rank's (with its status and operation counts) or
// a missing rank's (with why it is missing), and which.
func (r *rasRec) kind() (whole, missing bool) {
	has := func(keys []string) bool {
		for _, k := range keys {
			if _, ok := r.flags[k]; !ok {
				return false
			}
		}
		return true
	}
	switch {
	case r.bad:
		return false, false
	case len(r.flags) == len(rasRankKeys) && has(rasRankKeys) && r.initState >= 0 && r.asyncErr >= 0 && len(r.ops) > 0:
		return true, false
	case len(r.flags) == len(rasMissingKeys) && has(rasMissingKeys) && r.initState < 0 && r.asyncErr < 0 && len(r.ops) == 0:
		return true, true
	}
	return false, false
}

// rasNum reads a field's decimal value; -1 where it is none or negative (an unknown pid).
func rasNum(v string) int64 {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return -1
	}
	return n
}
