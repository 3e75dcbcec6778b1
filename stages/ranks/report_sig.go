package ranks

// SigReport is a call as the ranks must agree on it, in JSON.
type SigReport struct {
	Op    string `json:"op"`
	Count int64  `json:"count"`
	Dtype string `json:"dtype"`
	RedOp string `json:"redop"`
	Root  int64  `json:"root"`
	// Text is the call in one phrase: "AllReduce count 1024 float sum".
	Text string `json:"-"`
}

func sigReport(s Sig) SigReport {
	return SigReport{string(s.Op), s.Count, dtypeName(s.Datatype), s.RedOp.String(), s.Root, sigText(s)}
}

// sigReportOf is s's report, nil where no call is known (an empty op).
func sigReportOf(s Sig, ok bool) *SigReport {
	if !ok || s.Op == "" {
		return nil
	}
	v := sigReport(s)
	return &v
}
