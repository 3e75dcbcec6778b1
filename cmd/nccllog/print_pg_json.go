package main

import (
	"strconv"
	"strings"

	"github.com/nccllog/nccllog/stages/ranks"
)

// hang's JSON and CSV for PyTorch process groups.

type pgRowJSON struct {
	Rank          int64  `json:"rank"`
	Host          string `json:"host,omitempty"`
	Pid           int64  `json:"pid,omitempty"`
	State         string `json:"state"`
	LastEnqueued  *int64 `json:"last_enqueued"`
	LastStarted   *int64 `json:"last_started"`
	StartedOp     string `json:"started_op,omitempty"`
	LastCompleted *int64 `json:"last_completed"`
	TimedOut      *int64 `json:"timed_out_seq"`
	OpType        string `json:"op_type,omitempty"`
	TimeoutMs     *int64 `json:"timeout_ms"`
	RanForMs      *int64 `json:"ran_for_ms"`
	Started       string `json:"started,omitempty"`
	DumpFirst     bool   `json:"dump_first,omitempty"`
	Where         string `json:"line,omitempty"`
	NCCLCalls     *int64 `json:"nccl_calls,omitempty"`
}

type pgSuspectJSON struct {
	Rank     int64    `json:"rank"`
	Host     string   `json:"host,omitempty"`
	Pid      int64    `json:"pid,omitempty"`
	Score    int      `json:"score"`
	Evidence []string `json:"evidence"`
}

type pgJSON struct {
	PG       int64           `json:"pg"`
	GUID     string          `json:"pg_guid,omitempty"`
	Name     string          `json:"pg_name,omitempty"`
	Comm     string          `json:"comm,omitempty"`
	NRanks   *int64          `json:"nranks"`
	Seq      *int64          `json:"timed_out_seq"`
	OpType   string          `json:"op_type,omitempty"`
	TimedOut int             `json:"ranks_timed_out"`
	Started  string          `json:"started,omitempty"`
	Verdict  string          `json:"verdict"`
	Ranks    []pgRowJSON     `json:"ranks"`
	Suspects []pgSuspectJSON `json:"suspects"`
}

func pgValue(f ranks.PGFinding) pgJSON {
	v := pgJSON{PG: f.PG.ID, GUID: f.PG.GUID, Name: f.Name, Seq: known(f.Seq), OpType: f.OpType,
		TimedOut: f.TimedOut, Started: clock(f.StartMonth, f.StartDay, f.StartNanos), Verdict: pgVerdict(f),
		Ranks: []pgRowJSON{}, Suspects: []pgSuspectJSON{}}
	if f.Comm != nil {
		v.Comm, v.NRanks = commLabel(f.Comm), &f.NRanks
	}
	for _, r := range f.Rows {
		v.Ranks = append(v.Ranks, pgRowValue(r))
	}
	for _, s := range f.Suspects {
		v.Suspects = append(v.Suspects, pgSuspectJSON{s.Row.Rank, s.Row.Host, s.Row.Pid, s.Score, pgEvidence(s, f)})
	}
	return v
}

func pgRowValue(r ranks.PGRow) pgRowJSON {
	v := pgRowJSON{Rank: r.Rank, Host: r.Host, Pid: r.Pid, State: r.State.String(), Where: where(r.W),
		Started: clock(r.StartMonth, r.StartDay, r.StartNanos)}
	if m := r.Member; m != nil {
		v.NCCLCalls = &m.Calls
	}
	if q := r.W; q != nil {
		v.LastEnqueued, v.LastStarted, v.StartedOp = known(q.LastEnqueued), known(q.LastStarted), q.StartedOp
		v.LastCompleted, v.TimedOut, v.OpType = known(q.LastCompleted), known(q.TimedOut), q.OpType
		v.TimeoutMs, v.RanForMs, v.DumpFirst = known(q.TimeoutMs), known(q.RanForMs), q.DumpFirst
	}
	return v
}

// pgCSVRows are hang's CSV rows for the suspects of process groups: the comm column names
// the group, the columns that are about NCCL calls stay empty.
func pgCSVRows(fs []ranks.PGFinding) [][]string {
	var rows [][]string
	for _, f := range fs {
		n := ""
		if f.Comm != nil {
			n = itoa(f.NRanks)
		}
		for _, s := range f.Suspects {
			calls := ""
			if m := s.Row.Member; m != nil {
				calls = itoa(m.Calls)
			}
			pid := ""
			if s.Row.Host != "" {
				pid = itoa(s.Row.Pid)
			}
			absent := s.Row.W == nil && s.Row.Member == nil // no line of any kind from the rank
			rows = append(rows, []string{pgLabel(f), n, itoa(s.Row.Rank), s.Row.Host, pid, itoa(int64(s.Score)),
				calls, "", strconv.FormatBool(absent), "", "", strings.Join(pgEvidence(s, f), "; ")})
		}
	}
	return rows
}
