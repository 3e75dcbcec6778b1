package parser

import "strings"

// rasFailure reads a line of an NCCL RAS report.
func rasFailure(f Failure, r *gFailRAS) (Failure, bool) {
	f.Event = FailureRAS
	switch {
	case r.Header:
		f.RAS = RASHeader
	case r.Section != "":
		f.RAS, f.Text = RASHeader, strings.Clone(r.Section)
		if r.Section == "DEAD" {
			f.RAS = RASDead
		}
	case r.Row != nil:
		if _, err := parseDec(r.Row.Group); err != nil {
			return f, false
		}
		f.RAS, f.Comm = RASCommStatus, strings.Clone(r.Row.Group)
		f.Text = r.Row.Status + " " + strings.Join(r.Row.Errors, "")
	case r.Entry != nil:
		if g, ok := strings.CutPrefix(r.Entry.Group, "#"); !ok || !isDec(g) {
			return f, false // an entry's group is `#<n>`
		}
		f.RAS, f.Comm, f.Text = RASFinding, strings.Clone(r.Entry.Comm), strings.Join(r.Entry.What, "")
	case r.Finding != nil:
		if w := r.Finding[0]; !rasFindingHeads[w] && !isDec(w) {
			return f, false // `<n> ranks have ...` counts its ranks
		}
		f.RAS, f.Text = RASFinding, failureText(strings.Join(r.Finding, ""))
	case r.Rank != nil:
		k := r.Rank
		f.RAS, f.Task, f.TaskLast = RASRank, int64(k.Rank), int64(k.Rank)
		f.Text = failureText(strings.Join(k.What, ""))
		f.GPU, f.Pid, f.Host = optDec(k.GPU), optDec(k.Pid), strings.Join(k.Host, "")
	case r.Dead != nil:
		f.RAS, f.Pid, f.GPU = RASDead, int64(r.Dead.Pid), int64(r.Dead.GPU)
		f.Host = strings.Join(r.Dead.Host, "")
	case r.Gone != nil:
		f.RAS, f.Text = RASDead, "processes considered dead"
	default:
		return f, false
	}
	return f, true
}

// rasFindingHeads are the words that open a RAS finding other than a count of ranks.
var rasFindingHeads = map[string]bool{"Communicator": true, "Missing": true, "Initialization": true, "Asynchronous": true}

// isDec reports whether s is a decimal number.
func isDec(s string) bool {
	_, err := parseDec(s)
	return err == nil
}
