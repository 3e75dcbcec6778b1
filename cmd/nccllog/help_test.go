package main

import (
	"strings"
	"testing"
)

// TestHelpTopics: the text every command shares is printed once, by "nccllog help TOPIC";
// each command's help ends with the line naming the topics instead of repeating them; the
// main help lists the topics; "help COMMAND" is still "COMMAND --help"; a word that is
// neither a command nor a topic is a usage error.
func TestHelpTopics(t *testing.T) {
	mainOut, _, code := runCLI(t, "", "help")
	if code != exitOK {
		t.Fatalf("help: exit %d", code)
	}
	for _, topic := range helpTopics {
		out, stderr, code := runCLI(t, "", "help", topic.name)
		if code != exitOK || stderr != "" || out != topic.text {
			t.Errorf("help %s: exit %d, stderr %q, stdout %q", topic.name, code, stderr, out)
		}
		if !strings.Contains(mainOut, "\n  "+topic.name+" ") || !strings.Contains(topicsLine, topic.name) {
			t.Errorf("topic %s is not listed in the main help or in the commands' topics line", topic.name)
		}
		if strings.Contains(mainOut, topic.text) {
			t.Errorf("main help still holds the text of topic %s", topic.name)
		}
	}
	for _, c := range commands {
		viaHelp, _, code1 := runCLI(t, "", "help", c.name)
		own, _, code2 := runCLI(t, "", c.name, "--help")
		if code1 != exitOK || code2 != exitOK || viaHelp != own {
			t.Errorf("help %s (exit %d) differs from %s --help (exit %d)", c.name, code1, c.name, code2)
		}
		if !strings.HasSuffix(own, topicsLine) || strings.Contains(own, "\nExit status:") {
			t.Errorf("%s --help does not end with the topics line, or repeats a topic:\n%s", c.name, own)
		}
	}
	for _, args := range [][]string{{"help", "--help"}, {"help", "-h"}, {"--help"}, {"-h"}} {
		if out, _, code := runCLI(t, "", args...); code != exitOK || out != mainOut {
			t.Errorf("%v: exit %d, not the main help", args, code)
		}
	}
	if out, _, code := runCLI(t, "", "help", "version"); code != exitOK || !strings.HasPrefix(out, "nccllog version: ") {
		t.Errorf("help version: exit %d, %q", code, out)
	}
	out, stderr, code := runCLI(t, "", "help", "nosuch")
	if code != exitUsage || out != "" || stderr != "nccllog: help: no command or topic \"nosuch\" (see nccllog help)\n" {
		t.Errorf("help nosuch: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}
