package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// runCLI runs folio with args and returns its exit status and output.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestCLIUsageMistakes: a mistake on the command line is one line on
// stderr saying what is wrong and where the help is, and exit 2; the
// help itself is not printed.
func TestCLIUsageMistakes(t *testing.T) {
	const commands = "(commands: serve, dev, build, check; see folio --help)"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--nosuch"}, "folio serve: unknown flag --nosuch (see folio serve --help)"},
		{[]string{"dev", "-nosuch=1"}, "folio dev: unknown flag --nosuch (see folio dev --help)"},
		{[]string{"build", "--out"}, "folio build: flag --out needs a value (see folio build --help)"},
		{[]string{"dev", "--drafts=maybe"}, `folio dev: invalid value "maybe" for --drafts: want true or false (see folio dev --help)`},
		{[]string{"check", "extra"}, `folio check: unexpected argument "extra" (see folio check --help)`},
		{[]string{"--nosuch"}, "folio: unknown flag --nosuch " + commands},
		{[]string{"-x"}, "folio: unknown flag --x " + commands},
		{[]string{"--addr", ":9000", "serve"}, "folio: --addr goes after the command, as in folio serve --addr … " + commands},
		{[]string{"nosuch"}, `folio: unknown command "nosuch" ` + commands},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.args...)
			if code != 2 || stdout != "" || stderr != tc.want+"\n" {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 2, no stdout, stderr:\n%s", code, stdout, stderr, tc.want)
			}
		})
	}
}

// TestCLIHelpSpellsFlagsWithTwoDashes: each command's --help goes to
// stdout, exits 0 and spells its flags as the README does.
func TestCLIHelpSpellsFlagsWithTwoDashes(t *testing.T) {
	tests := []struct {
		command string
		want    []string // lines of the help
	}{
		{"serve", []string{
			"  --addr HOST:PORT  listen address (default :8080, or :$PORT when PORT is set)",
			"  --watch           watch the content folder and reload on change",
		}},
		{"dev", []string{
			"  --addr HOST:PORT  listen address (default 127.0.0.1:1313)",
			"  --drafts          also show drafts, future and expired posts",
		}},
		{"build", []string{
			"  --addr HOST:PORT  the address the export will be served on: with --nginx, nginx's listen address",
			"                    (default 80); without a baseURL in the config or --base-url, the base URL's",
			"  --out DIR         output folder (default public)",
			"  --nginx FILE      also write an nginx config there (outside the output folder)",
		}},
		{"check", []string{
			"  --config FILE     config file (default ./config.toml if present, else built-in defaults)",
			"  --content DIR     content folder (overrides contentDir)",
			"  -v                also list each published post on stderr",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.command, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.command, "--help")
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q; want 0 and nothing", code, stderr)
			}
			lines := strings.Split(stdout, "\n")
			for _, w := range tc.want {
				if !contains(lines, w) {
					t.Errorf("help has no line %q:\n%s", w, stdout)
				}
			}
			for _, l := range lines {
				if strings.HasPrefix(l, "  -") && !strings.HasPrefix(l, "  --") && !strings.HasPrefix(l, "  -v ") {
					t.Errorf("flag with one dash: %q", l)
				}
			}
		})
	}
}

func contains(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}
