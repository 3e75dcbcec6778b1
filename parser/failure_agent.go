package parser

// agentExit reads torchrun's agent line on the first child that failed.
func agentExit(f Failure, a *gFailAgent) (Failure, bool) {
	f.Event, f.LocalRank, f.Pid = FailureAgentExit, int64(a.Local), int64(a.Pid)
	f.ExitCode, f.HasExit = int64(a.Code), true
	f.Signal = ExitSignal(f.ExitCode)
	return f, true
}

// ExitSignal names the signal a negative exit code of torchrun's stands for (Python's
// returncode -N: killed by signal N), "" for another code.
func ExitSignal(code int64) string {
	if code >= 0 || -code >= int64(len(signalNames)) {
		return ""
	}
	return signalNames[-code]
}

// signalNames are the Linux signals by number, those a killed training process shows.
var signalNames = [...]string{
	1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS",
	8: "SIGFPE", 9: "SIGKILL", 10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2", 13: "SIGPIPE",
	14: "SIGALRM", 15: "SIGTERM",
}
