package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"folio/pipeline"
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
		{[]string{"-x"}, "folio: unknown flag -x " + commands},
		{[]string{"dev", "-D"}, "folio dev: unknown flag -D (folio's is --drafts) (see folio dev --help)"},
		{[]string{"serve", "--port", "1313"}, "folio serve: unknown flag --port (folio's is --addr) (see folio serve --help)"},
		{[]string{"build", "--baseURL=https://x.org/"}, "folio build: unknown flag --baseURL (folio's is --base-url) (see folio build --help)"},
		{[]string{"-D"}, "folio: unknown flag -D (folio's is --drafts) " + commands},
		{[]string{"server"}, `folio: unknown command "server": folio dev is the author's server with live reload, folio serve the production one ` + commands},
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
			"  --addr HOST:PORT        the address the export will be served on: with --nginx, nginx's listen address",
			"                          (default 80); without a baseURL in the config or --base-url, the base URL's",
			"  --out DIR               output folder (default public)",
			"  --nginx FILE            also write an nginx config there (outside the output folder)",
			"  --cloudflare DIR        write a Cloudflare Workers project there instead: wrangler.jsonc, the Worker,",
			"  --cloudflare-plan PLAN  the Workers plan whose limits the project must fit: free or paid (default free)",
		}},
		{"check", []string{
			"  --config FILE     config file to read instead of the site's",
			"  --content DIR     content folder (overrides contentDir)",
			"  --source DIR      the site's folder, where its config (hugo.toml, config.toml, config/) is found (default: the working folder)",
			"  -v                print every warning, not each message once; and list on stderr each published post, then each one left out and why",
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

// TestCLIStartErrors: the same mistake gets the same line and the same
// exit status from every command, before any of them listens or builds.
func TestCLIStartErrors(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"content/blog/a.md": "---\ntitle: A\ndate: 2024-01-02\n---\n",
		"file":              "not a folder",
		"config.toml":       "title = 'x'\n",
		"theme.toml":        "siteDir = 'nothere'\n",
	})
	cfg := filepath.Join(dir, "config.toml")
	content := filepath.Join(dir, "content")
	missing := filepath.Join(dir, "nothere")
	tests := []struct {
		name     string
		args     []string
		commands []string
		want     string
		code     int
	}{
		{"missing content folder", []string{"--config", cfg, "--content", missing}, nil,
			"folio: content folder " + missing + ": no such file or directory (set --content or contentDir in " + cfg + ")", 2},
		{"content folder is a file", []string{"--config", cfg, "--content", filepath.Join(dir, "file")}, nil,
			"folio: content folder " + filepath.Join(dir, "file") + ": not a directory (set --content or contentDir in " + cfg + ")", 2},
		{"bad base URL", []string{"--config", cfg, "--content", content, "--base-url", "example.org"}, nil,
			`folio: --base-url: baseURL "example.org" must be an absolute http or https URL`, 2},
		{"no port", []string{"--config", cfg, "--content", content, "--addr", "notaport"}, []string{"serve", "dev", "build"},
			"folio: --addr notaport: missing port in address (want host:port, as in 127.0.0.1:8080 or :8080)", 2},
		{"bad port", []string{"--config", cfg, "--content", content, "--addr", "127.0.0.1:99999"}, []string{"serve", "dev", "build"},
			`folio: --addr 127.0.0.1:99999: invalid port "99999" (want a number up to 65535)`, 2},
		{"missing --config", []string{"--config", missing + ".toml", "--content", content}, nil,
			"folio: --config " + missing + ".toml: no such file (without --config, the site's hugo.toml, config.toml or config/ is read when present)", 2},
		{"bare port", []string{"--config", cfg, "--content", content, "--addr", "8080"}, []string{"serve", "dev", "build"},
			"folio: --addr 8080: missing port in address (did you mean :8080?)", 2},
		{"missing siteDir", []string{"--config", filepath.Join(dir, "theme.toml"), "--content", content}, nil,
			"folio: siteDir " + filepath.Join(dir, "nothere") + ": no such file or directory (set siteDir in " + filepath.Join(dir, "theme.toml") + ")", 2},
	}
	for _, tc := range tests {
		commands := tc.commands
		if commands == nil {
			commands = []string{"check", "serve", "dev", "build"}
		}
		for _, command := range commands {
			t.Run(tc.name+"/"+command, func(t *testing.T) {
				args := append([]string{command, "--out", filepath.Join(dir, "public")}, tc.args...)
				if command != "build" {
					args = append([]string{command}, tc.args...)
				}
				code, stdout, stderr := runCLI(t, args...)
				if code != tc.code || stdout != "" || stderr != tc.want+"\n" {
					t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit %d, stderr:\n%s", code, stdout, stderr, tc.code, tc.want)
				}
			})
		}
	}
}

// TestCLIConfigWarning: a key the config does not know is a warning
// naming it and the key likely meant, which check lists and does not
// fail on (Hugo accepts a config with keys it does not read).
func TestCLIConfigWarning(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"content/blog/a.md": "---\ntitle: A\ndate: 2024-01-02\n---\n",
		"bad.toml":          "title = 'x'\n[cache]\nmaxAge = 60\ntitel = 'y'\n",
	})
	bad := filepath.Join(dir, "bad.toml")
	code, stdout, _ := runCLI(t, "check", "--config", bad)
	want := bad + `:4: warning: unknown key cache.titel (did you mean "title"? it is a top-level key: write it above [cache])` + "\n1 post, 0 problems, 1 warning\n"
	if code != 0 || stdout != want {
		t.Errorf("exit %d, stdout:\n%s\nwant exit 0, stdout:\n%s", code, stdout, want)
	}
}

// TestCLIPORTChecked: serve's $PORT is checked as --addr is, and named.
func TestCLIPORTChecked(t *testing.T) {
	t.Setenv("PORT", "http-ish")
	code, _, stderr := runCLI(t, "serve", "--content", t.TempDir())
	want := `folio: PORT=http-ish: invalid port "http-ish" (want a number up to 65535)` + "\n"
	if code != 2 || stderr != want {
		t.Errorf("exit %d, stderr %q; want 2, %q", code, stderr, want)
	}
}

// TestPortInUse: a port already taken is one plain line that says what
// to do, exit 1 (not a mistake in the flags: the same command works once
// it is free).
func TestPortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "blog"), 0o755)
	addr := ln.Addr().String()
	for _, cmd := range []string{"serve", "dev"} {
		code, _, stderr := runCLI(t, cmd, "--content", dir, "--addr", addr)
		want := "folio: " + addr + " is in use; is folio " + cmd + " already running? use --addr to pick another port\n"
		if code != 1 || stderr != want {
			t.Errorf("%s: exit %d, stderr %q; want 1, %q", cmd, code, stderr, want)
		}
	}
}

// TestBaseWarning: serve, dev and build say in one line when the pages
// would link to a loopback address other than the one served (a sample
// config's dev address under serve, an export made for this machine), and
// say nothing of a public base URL or of their own address.
func TestBaseWarning(t *testing.T) {
	for _, tc := range []struct {
		command, flag, base string
		set                 bool
		served              string // "" for none
		want                string
	}{
		{"serve", "", "http://localhost:1313/", true, "127.0.0.1:8080",
			"folio: pages link to http://localhost:1313/ (baseURL in config.toml), which is not this server; remove baseURL from config.toml, or pass --base-url http://127.0.0.1:8080/"},
		{"serve", "", "http://localhost:8080/", true, "[::]:8080", ""},
		{"serve", "", "http://127.0.0.1:8080/", true, ":8080", ""},
		{"serve", "", "https://blog.example/", true, ":8080", ""},
		{"serve", "", "http://localhost:8080/", false, ":8080", ""},
		{"dev", "http://127.0.0.1:9999/", "http://127.0.0.1:9999/", true, "127.0.0.1:1313",
			"folio: pages link to http://127.0.0.1:9999/ (--base-url), which is not this server; pass --base-url http://127.0.0.1:1313/ or none"},
		{"build", "", "http://localhost:8080/", false, "",
			"folio: the export links to http://localhost:8080/ (no baseURL is set), a loopback address: it works only when served there; set baseURL in config.toml to the address it will be served at"},
		{"build", "", "http://localhost:1313/", true, "",
			"folio: the export links to http://localhost:1313/ (baseURL in config.toml), a loopback address: it works only when served there; set baseURL in config.toml to the address it will be served at"},
		{"build", "", "http://127.0.0.1:8080/", false, "127.0.0.1:8080", ""},
		{"build", "", "https://blog.example/", true, "", ""},
	} {
		o := &options{command: tc.command, baseURL: tc.flag}
		var served net.Addr
		if tc.served != "" {
			served = addrString(tc.served)
		}
		cfg := &pipeline.Config{BaseURL: tc.base, BaseSet: tc.set}
		if got := baseWarning(o, cfg, served); got != tc.want {
			t.Errorf("%s %s (set %v) served at %q:\n got %q\nwant %q", tc.command, tc.base, tc.set, tc.served, got, tc.want)
		}
	}
}

// TestBaseWarningHostless: of a Hugo baseURL that is only a path, the
// build says it has no host, not that there is none.
func TestBaseWarningHostless(t *testing.T) {
	cfg := &pipeline.Config{BaseURL: "http://localhost:8080/blog/", HostlessBase: "/blog/"}
	want := `folio: the export links to http://localhost:8080/blog/ (baseURL "/blog/" has no host), a loopback address: it works only when served there; set baseURL in config.toml to the address it will be served at`
	if got := baseWarning(&options{command: "build"}, cfg, nil); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestBuildSaysLoopback: a build with no baseURL says, once, where its
// links lead; with one, it says nothing more than what it wrote.
func TestBuildSaysLoopback(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"content/blog/a.md": "---\ntitle: A\ndate: 2024-01-02\n---\n"})
	content, out := filepath.Join(dir, "content"), filepath.Join(dir, "public")
	_, _, stderr := runCLI(t, "build", "--content", content, "--out", out)
	if n := strings.Count(stderr, "folio: the export links to http://localhost:8080/ (no baseURL is set)"); n != 1 {
		t.Errorf("without a baseURL, the warning %d times:\n%s", n, stderr)
	}
	_, _, stderr = runCLI(t, "build", "--content", content, "--out", out, "--base-url", "https://blog.example/")
	if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "folio: wrote ") {
		t.Errorf("with a public base URL, stderr:\n%s", stderr)
	}
}
