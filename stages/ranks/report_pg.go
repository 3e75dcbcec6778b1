package ranks

// PGReport is one PyTorch process group in hang's JSON: its ranks' watchdog states, verdict
// and suspects.
type PGReport struct {
	PG       int64             `json:"pg"`
	GUID     string            `json:"pg_guid,omitempty"`
	Name     string            `json:"pg_name,omitempty"`
	Comm     string            `json:"comm,omitempty"`
	NRanks   *int64            `json:"nranks"`
	Seq      *int64            `json:"timed_out_seq"`
	OpType   string            `json:"op_type,omitempty"`
	TimedOut int               `json:"ranks_timed_out"`
	Started  string            `json:"started,omitempty"`
	Verdict  string            `json:"verdict"`
	Ranks    []PGRowReport     `json:"ranks"`
	Suspects []PGSuspectReport `json:"suspects"`
	// Label names the group as its watchdog lines do; Head says what its lines cover and
	// what its ranks timed out on (the line its table goes under).
	Label, Head string `json:"-"`
}

// PGRowReport is one rank of a process group.
type PGRowReport struct {
	Rank          int64   `json:"rank"`
	Host          string  `json:"host,omitempty"`
	Pid           int64   `json:"pid,omitempty"`
	State         PGState `json:"state"`
	LastEnqueued  *int64  `json:"last_enqueued"`
	LastStarted   *int64  `json:"last_started"`
	StartedOp     string  `json:"started_op,omitempty"`
	LastCompleted *int64  `json:"last_completed"`
	TimedOut      *int64  `json:"timed_out_seq"`
	OpType        string  `json:"op_type,omitempty"`
	TimeoutMs     *int64  `json:"timeout_ms"`
	RanForMs      *int64  `json:"ran_for_ms"`
	Started       string  `json:"started,omitempty"`
	DumpFirst     bool    `json:"dump_first,omitempty"`
	Where         string  `json:"line,omitempty"`
	NCCLCalls     *int64  `json:"nccl_calls,omitempty"`
}

// PGSuspectReport is a suspect of a process group, with its evidence in words.
type PGSuspectReport struct {
	Rank     int64    `json:"rank"`
	Host     string   `json:"host,omitempty"`
	Pid      int64    `json:"pid,omitempty"`
	Score    int      `json:"score"`
	Evidence []string `json:"evidence"`
	// Calls is how many NCCL calls its rank of the group's communicator issued (nil: none
	// known); Absent: no line of any kind from the rank.
	Calls  *int64 `json:"-"`
	Absent bool   `json:"-"`
}

func pgReport(f PGFinding) PGReport {
	v := PGReport{PG: f.PG.ID, GUID: f.PG.GUID, Name: f.Name, Seq: known(f.Seq), OpType: f.OpType,
		TimedOut: f.TimedOut, Started: clock(f.StartMonth, f.StartDay, f.StartNanos), Verdict: pgVerdict(f),
		Ranks: []PGRowReport{}, Suspects: []PGSuspectReport{}, Label: pgLabel(f), Head: pgHead(f)}
	if f.Comm != nil {
		n := f.NRanks
		v.Comm, v.NRanks = f.Comm.Label(), &n
	}
	for _, r := range f.Rows {
		v.Ranks = append(v.Ranks, pgRowReport(r))
	}
	for _, s := range f.Suspects {
		ps := PGSuspectReport{Rank: s.Row.Rank, Host: s.Row.Host, Pid: s.Row.Pid, Score: s.Score,
			Evidence: pgEvidence(s, f), Absent: s.Row.W == nil && s.Row.Member == nil}
		if m := s.Row.Member; m != nil {
			c := m.Calls
			ps.Calls = &c
		}
		v.Suspects = append(v.Suspects, ps)
	}
	return v
}

func pgRowReport(r PGRow) PGRowReport {
	v := PGRowReport{Rank: r.Rank, Host: r.Host, Pid: r.Pid, State: r.State, Where: where(r.W),
		Started: clock(r.StartMonth, r.StartDay, r.StartNanos)}
	if m := r.Member; m != nil {
		c := m.Calls
		v.NCCLCalls = &c
	}
	if q := r.W; q != nil {
		v.LastEnqueued, v.LastStarted, v.StartedOp = known(q.LastEnqueued), known(q.LastStarted), q.StartedOp
		v.LastCompleted, v.TimedOut, v.OpType = known(q.LastCompleted), known(q.TimedOut), q.OpType
		v.TimeoutMs, v.RanForMs, v.DumpFirst = known(q.TimeoutMs), known(q.RanForMs), q.DumpFirst
	}
	return v
}
