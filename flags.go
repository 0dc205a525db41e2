package main

import (
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// The flag package parses single- and double-dash flags alike but speaks
// of them with one dash, and on a mistake prints the whole help after
// its message. folio's documentation spells flags with two dashes; these
// functions print the help and the mistakes that way, the mistake on one
// line that says where the help is.

// usageError is a command-line mistake: exit status 2. Its text is the
// whole line printed ("folio serve: unknown flag --nosuch (see …)").
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// commandUsageError is a mistake in the flags of one command.
func commandUsageError(command, format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf("folio %s: %s (see folio %s --help)", command, fmt.Sprintf(format, args...), command)}
}

// flagMistakes rewrite the flag package's errors; each captures the
// flag's name and maybe a value.
var flagMistakes = []struct {
	re     *regexp.Regexp
	format func(m []string) string
}{
	{regexp.MustCompile(`^flag provided but not defined: -+(.*)$`),
		func(m []string) string { return "unknown flag " + dashes(m[1]) + m[1] + hugoFlag(m[1]) }},
	{regexp.MustCompile(`^flag needs an argument: -+(.*)$`),
		func(m []string) string { return "flag --" + m[1] + " needs a value" }},
	{regexp.MustCompile(`^invalid boolean value (".*") for -+(\S+):`),
		func(m []string) string { return "invalid value " + m[1] + " for --" + m[2] + ": want true or false" }},
	{regexp.MustCompile(`^invalid value (".*") for flag -+(\S+):`),
		func(m []string) string { return "invalid value " + m[1] + " for --" + m[2] }},
}

// flagMistake turns an error from FlagSet.Parse into a usageError.
func flagMistake(command string, err error) error {
	msg := err.Error()
	for _, fm := range flagMistakes {
		if m := fm.re.FindStringSubmatch(msg); m != nil {
			return commandUsageError(command, "%s", fm.format(m))
		}
	}
	return commandUsageError(command, "%s", msg)
}

// topLevelMistake is the error for a first argument that is not a
// command: a flag given before the command, or an unknown word.
func topLevelMistake(arg string) error {
	const commands = "commands: serve, dev, build, check; see folio --help"
	if !strings.HasPrefix(arg, "-") {
		if arg == "server" { // Hugo's word
			return &usageError{msg: fmt.Sprintf("folio: unknown command %q: folio dev is the author's server with live reload, folio serve the production one (%s)", arg, commands)}
		}
		return &usageError{msg: fmt.Sprintf("folio: unknown command %q (%s)", arg, commands)}
	}
	name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
	switch name {
	case "source", "config", "content", "addr", "base-url":
		return &usageError{msg: fmt.Sprintf("folio: --%s goes after the command, as in folio serve --%s … (%s)", name, name, commands)}
	}
	return &usageError{msg: fmt.Sprintf("folio: unknown flag %s%s%s (%s)", dashes(name), name, hugoFlag(name), commands)}
}

// hugoFlags are the flags of hugo server and hugo that folio spells
// differently.
var hugoFlags = map[string]string{
	"D": "--drafts", "buildDrafts": "--drafts", "buildFuture": "--drafts", "buildExpired": "--drafts",
	"p": "--addr", "port": "--addr", "bind": "--addr",
	"b": "--base-url", "baseURL": "--base-url", "baseurl": "--base-url",
	"s": "--source", "contentDir": "--content",
	"d": "--out", "destination": "--out",
}

// dashes is how the documentation writes the flag name: one dash for a
// single letter ("-D"), two otherwise.
func dashes(name string) string {
	if len(name) == 1 {
		return "-"
	}
	return "--"
}

// hugoFlag is the hint for a flag Hugo users type: "" or " (folio's is …)".
func hugoFlag(name string) string {
	if f, ok := hugoFlags[name]; ok {
		return " (folio's is " + f + ")"
	}
	return ""
}

// flagValue names the value each flag takes in the help.
var flagValue = map[string]string{
	"source": "DIR", "config": "FILE", "content": "DIR", "addr": "HOST:PORT", "base-url": "URL", "out": "DIR", "nginx": "FILE",
	"cloudflare": "DIR", "cloudflare-plan": "PLAN", "cache-dir": "DIR",
}

// printFlags lists the flags as the top-level help does: two dashes (one
// for a one-letter flag), the value's name, the usage and a default that
// is not empty.
func printFlags(w io.Writer, fset *flag.FlagSet) {
	type row struct{ left, right string }
	var rows []row
	width := 0
	fset.VisitAll(func(f *flag.Flag) {
		// One-letter flags keep their usual single dash (-v).
		left, usage := "--"+f.Name, f.Usage
		if len(f.Name) == 1 {
			left = "-" + f.Name
		}
		if v := flagValue[f.Name]; v != "" {
			left += " " + v
		}
		if f.DefValue != "" && f.DefValue != "false" {
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		rows = append(rows, row{left, usage})
		width = max(width, len(left))
	})
	for _, r := range rows {
		indent := "\n" + strings.Repeat(" ", 2+width+2)
		fmt.Fprintf(w, "  %-*s  %s\n", width, r.left, strings.ReplaceAll(r.right, "\n", indent))
	}
}
