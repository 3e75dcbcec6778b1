package main

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
)

// complFlag is one flag as a completion script offers it.
type complFlag struct {
	long, short string
	usage       string
	value       bool     // takes a value
	values      []string // the values it takes, where they are a fixed list
	file        bool     // its value is a file name
}

// complCmd is a command, its flags, and the words its arguments complete to (nil: files).
type complCmd struct {
	name, summary string
	flags         []complFlag
	args          []string
}

// completionModel reads every command's flags from the same pflag definitions that parse
// them, so the scripts offer exactly what the commands accept.
func completionModel() []complCmd {
	var out []complCmd
	for _, c := range commands {
		cc := complCmd{name: c.name, summary: c.summary}
		c.flagSet(&options{}).VisitAll(func(f *pflag.Flag) { cc.flags = append(cc.flags, flagOf(c, f)) })
		out = append(out, cc)
	}
	for _, m := range metaCommands {
		cc := complCmd{name: m.name, summary: m.summary, args: strings.Fields(m.args)}
		if m.name == "help" {
			cc.args = helpWords()
		}
		out = append(out, cc)
	}
	return out
}

// helpWords are the words "nccllog help" takes: every command and every topic.
func helpWords() []string {
	var out []string
	for _, c := range commands {
		out = append(out, c.name)
	}
	for _, m := range metaCommands {
		out = append(out, m.name)
	}
	for _, t := range helpTopics {
		out = append(out, t.name)
	}
	return out
}

func flagOf(c *command, f *pflag.Flag) complFlag {
	name, usage := pflag.UnquoteUsage(f)
	cf := complFlag{long: f.Name, short: f.Shorthand, usage: firstClause(usage), value: f.Value.Type() != "bool", file: name == "FILE"}
	switch f.Name {
	case "format":
		cf.values = c.formats
	case "boundary":
		cf.values = []string{"end", "start"}
	}
	return cf
}

// firstClause is a flag's usage up to its first colon, semicolon or parenthesis: short enough
// for a completion menu, with none of the characters zsh's specs treat specially.
func firstClause(s string) string {
	if i := strings.IndexAny(s, ":;(["); i > 0 {
		s = s[:i]
	}
	return strings.TrimSpace(strings.NewReplacer("'", "", "`", "", "\\", "", "]", "", "$", "").Replace(s))
}

func completionScript(shell string) (string, error) {
	model := completionModel()
	switch shell {
	case "bash":
		return bashCompletion(model), nil
	case "zsh":
		return zshCompletion(model), nil
	case "fish":
		return fishCompletion(model), nil
	}
	return "", fmt.Errorf("completion: no script for %q (bash, zsh or fish)", shell)
}

func commandNames(model []complCmd) string {
	var names []string
	for _, c := range model {
		names = append(names, c.name)
	}
	return strings.Join(names, " ")
}

// flagWords is "--steps --format -f ..." for one command.
func flagWords(c complCmd) string {
	var w []string
	for _, f := range c.flags {
		w = append(w, "--"+f.long)
		if f.short != "" {
			w = append(w, "-"+f.short)
		}
	}
	return strings.Join(w, " ")
}
