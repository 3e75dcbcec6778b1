package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
)

// metaCommands are the commands that read no log: they are listed in the help and completed
// like the others.
var metaCommands = []struct{ name, summary, args string }{
	{"version", "nccllog's version, commit and Go version (also --version)", ""},
	{"completion", "a shell completion script: nccllog completion bash|zsh|fish", "bash zsh fish"},
	{"help", "a command's help, or a topic's: nccllog help COMMAND|TOPIC", ""},
}

// isMeta reports whether name is one of metaCommands.
func isMeta(name string) bool {
	return slices.ContainsFunc(metaCommands, func(m struct{ name, summary, args string }) bool { return m.name == name })
}

// metaHelp is the meta commands' lines of the main help.
func metaHelp() string {
	var b strings.Builder
	for _, m := range metaCommands {
		fmt.Fprintf(&b, "  %-11s %s\n", m.name, m.summary)
	}
	return b.String()
}

// runMeta runs version or completion; ok is false for any other command.
func runMeta(args []string, e env) (code int, ok bool) {
	for _, m := range metaCommands {
		if m.name == args[0] && len(args) == 2 && (args[1] == "-h" || args[1] == "--help") {
			fmt.Fprintf(e.stdout, "nccllog %s: %s\n", m.name, m.summary)
			return exitOK, true
		}
	}
	switch args[0] {
	case "version", "--version":
		if len(args) > 1 {
			return usageError(e, fmt.Errorf("version takes no arguments")), true
		}
		fmt.Fprint(e.stdout, versionText())
		return exitOK, true
	case "completion":
		if len(args) != 2 {
			return usageError(e, fmt.Errorf("completion wants one shell: bash, zsh or fish")), true
		}
		script, err := completionScript(args[1])
		if err != nil {
			return usageError(e, err), true
		}
		fmt.Fprint(e.stdout, script)
		return exitOK, true
	}
	return 0, false
}

// stampedVersion and stampedCommit are what a release build sets with -ldflags
// "-X main.stampedVersion=v1.2.3 -X main.stampedCommit=HASH" (contrib/dist/dist.sh does, from
// git); empty in other builds, which report what Go recorded.
var stampedVersion, stampedCommit string

// versionText is the module version, the commit it was built from and the Go that built it,
// as the binary records them.
func versionText() string {
	version, commit := "unknown", "unknown (built without version control information)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		commit = vcsText(bi.Settings, commit)
	}
	if stampedVersion != "" {
		version = stampedVersion
	}
	if stampedCommit != "" {
		commit = stampedCommit
	}
	return fmt.Sprintf("nccllog %s\ncommit %s\n%s %s/%s\n", version, commit, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func vcsText(settings []debug.BuildSetting, none string) string {
	s := make(map[string]string)
	for _, kv := range settings {
		s[kv.Key] = kv.Value
	}
	rev := s["vcs.revision"]
	if rev == "" {
		return none
	}
	if s["vcs.time"] != "" {
		rev += " (" + s["vcs.time"] + ")"
	}
	if s["vcs.modified"] == "true" {
		rev += ", with uncommitted changes"
	}
	return rev
}
