package main

import (
	"fmt"
	"strings"
)

// bashCompletion completes commands, each command's flags, the values of --format and
// --boundary, file names for file flags and arguments, and completion's shells.
func bashCompletion(model []complCmd) string {
	var b strings.Builder
	b.WriteString(`# bash completion for nccllog: source <(nccllog completion bash)
# _nccllog_files offers the file names that start with $1, one word each however many spaces
# they hold (read line by line, not split on blanks).
_nccllog_files() {
  COMPREPLY=()
  local f
  while IFS= read -r f; do COMPREPLY+=("$f"); done < <(compgen -f -- "$1")
}
_nccllog() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
  COMPREPLY=()
  # bash splits --flag=value at the '=' (COMP_WORDBREAKS): complete value as --flag's.
  if [[ $cur == "=" ]]; then
    cur=""
  elif [[ $prev == "=" && $COMP_CWORD -ge 3 ]]; then
    prev="${COMP_WORDS[COMP_CWORD-2]}"
  fi
  if [[ $COMP_CWORD -eq 1 ]]; then
`)
	fmt.Fprintf(&b, "    COMPREPLY=( $(compgen -W %q -- \"$cur\") )\n    return\n  fi\n  case \"${COMP_WORDS[1]}\" in\n", commandNames(model))
	for _, c := range model {
		fmt.Fprintf(&b, "  %s)\n", c.name)
		if c.args != nil {
			fmt.Fprintf(&b, "    [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=( $(compgen -W %q -- \"$cur\") )\n    ;;\n", strings.Join(c.args, " "))
			continue
		}
		b.WriteString("    case \"$prev\" in\n")
		for _, f := range c.flags {
			if !f.value {
				continue
			}
			fmt.Fprintf(&b, "    %s) ", flagAlternatives(f))
			switch {
			case f.values != nil:
				fmt.Fprintf(&b, "COMPREPLY=( $(compgen -W %q -- \"$cur\") ); return ;;\n", strings.Join(f.values, " "))
			case f.file:
				b.WriteString("_nccllog_files \"$cur\"; return ;;\n")
			default:
				b.WriteString("return ;;\n")
			}
		}
		b.WriteString("    esac\n")
		fmt.Fprintf(&b, "    if [[ \"$cur\" == -* ]]; then COMPREPLY=( $(compgen -W %q -- \"$cur\") ); return; fi\n", flagWords(c))
		b.WriteString("    _nccllog_files \"$cur\"\n    ;;\n")
	}
	b.WriteString("  esac\n}\ncomplete -o filenames -F _nccllog nccllog\n")
	return b.String()
}

func flagAlternatives(f complFlag) string {
	if f.short != "" {
		return "--" + f.long + "|-" + f.short
	}
	return "--" + f.long
}

// zshCompletion is a native zsh function: _arguments specs from the same flags.
func zshCompletion(model []complCmd) string {
	var b strings.Builder
	b.WriteString("#compdef nccllog\n# zsh completion for nccllog: nccllog completion zsh > \"${fpath[1]}/_nccllog\"\n_nccllog() {\n  local -a cmds\n  cmds=(\n")
	for _, c := range model {
		fmt.Fprintf(&b, "    '%s:%s'\n", c.name, firstClause(c.summary))
	}
	b.WriteString("  )\n  if (( CURRENT == 2 )); then\n    _describe 'command' cmds\n    return\n  fi\n  case $words[2] in\n")
	for _, c := range model {
		fmt.Fprintf(&b, "  %s)\n    _arguments \\\n", c.name)
		for _, f := range c.flags {
			fmt.Fprintf(&b, "      %s \\\n", zshSpec(f))
		}
		if c.args != nil {
			fmt.Fprintf(&b, "      '1:shell:(%s)'\n    ;;\n", strings.Join(c.args, " "))
		} else {
			b.WriteString("      '*:log file:_files'\n    ;;\n")
		}
	}
	b.WriteString("  esac\n}\n_nccllog \"$@\"\n")
	return b.String()
}

func zshSpec(f complFlag) string {
	action := ""
	switch {
	case f.values != nil:
		action = ":" + f.long + ":(" + strings.Join(f.values, " ") + ")"
	case f.file:
		action = ":file:_files"
	case f.value:
		action = ":" + f.long + ": "
	}
	desc := "[" + f.usage + "]"
	if f.short == "" {
		return "'--" + f.long + desc + action + "'"
	}
	return "'(-" + f.short + " --" + f.long + ")'{-" + f.short + ",--" + f.long + "}'" + desc + action + "'"
}

// fishCompletion is one complete line per command and per flag of each command.
func fishCompletion(model []complCmd) string {
	var b strings.Builder
	b.WriteString("# fish completion for nccllog: nccllog completion fish > ~/.config/fish/completions/nccllog.fish\ncomplete -c nccllog -f\n")
	for _, c := range model {
		fmt.Fprintf(&b, "complete -c nccllog -n __fish_use_subcommand -a %s -d '%s'\n", c.name, firstClause(c.summary))
	}
	for _, c := range model {
		on := "-n '__fish_seen_subcommand_from " + c.name + "'"
		if c.args != nil {
			fmt.Fprintf(&b, "complete -c nccllog %s -a '%s'\n", on, strings.Join(c.args, " "))
			continue
		}
		fmt.Fprintf(&b, "complete -c nccllog %s -F\n", on)
		for _, f := range c.flags {
			fmt.Fprintf(&b, "complete -c nccllog %s -l %s", on, f.long)
			if f.short != "" {
				fmt.Fprintf(&b, " -s %s", f.short)
			}
			switch {
			case f.values != nil:
				fmt.Fprintf(&b, " -x -a '%s'", strings.Join(f.values, " "))
			case f.file:
				b.WriteString(" -r -F")
			case f.value:
				b.WriteString(" -x")
			}
			fmt.Fprintf(&b, " -d '%s'\n", f.usage)
		}
	}
	return b.String()
}
