// Package hugotest finds Hugo 0.165, the oracle folio's Hugo-compatibility
// tests compare with, and builds fixture sites with it.
//
// Hugo is a test oracle only, never a dependency of folio at run time. A
// test that needs it skips when it is missing, except in CI (CI=true),
// where .ci/run installs it and a missing or wrong Hugo is a failure.
package hugotest

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Version is the Hugo release folio follows.
const Version = "v0.165.0"

var (
	once    sync.Once
	binPath string
	whyNot  string
)

// Binary returns the path of Hugo 0.165: $HUGO, else hugo on PATH, else
// $HOME/bin/hugo (where FACTS.md installs it). Without it the test skips,
// or fails in CI.
func Binary(t testing.TB) string {
	t.Helper()
	once.Do(find)
	if binPath == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("hugotest: %s (CI installs Hugo %s: see .ci/run)", whyNot, Version)
		}
		t.Skipf("hugotest: %s; install it with: GOBIN=$HOME/bin go install github.com/gohugoio/hugo@%s", whyNot, Version)
	}
	return binPath
}

// Find returns the path of Hugo 0.165 as Binary finds it, for commands.
func Find() (string, error) {
	once.Do(find)
	if binPath == "" {
		return "", errors.New("hugotest: " + whyNot)
	}
	return binPath, nil
}

func find() {
	var candidates []string
	if p := os.Getenv("HUGO"); p != "" {
		candidates = append(candidates, p)
	}
	if p, err := exec.LookPath("hugo"); err == nil {
		candidates = append(candidates, p)
	}
	if home, err := os.UserHomeDir(); err == nil {
		candidates = append(candidates, filepath.Join(home, "bin", "hugo"))
	}
	whyNot = "no hugo found ($HUGO, PATH, $HOME/bin)"
	for _, p := range candidates {
		out, err := exec.Command(p, "version").Output()
		if err != nil {
			continue
		}
		if !bytes.Contains(out, []byte("hugo "+Version+" ")) && !bytes.Contains(out, []byte("hugo "+Version+"-")) {
			whyNot = p + " is " + strings.TrimSpace(string(out)) + ", not " + Version
			continue
		}
		binPath = p
		return
	}
}

// Build runs hugo in dir with args (for example "--destination", out) and
// fails the test with Hugo's output when it fails.
func Build(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command(Binary(t), args...)
	cmd.Dir = dir
	// No network, no cache shared with the author's own sites.
	cmd.Env = append(os.Environ(), "HUGO_CACHEDIR="+t.TempDir(), "HUGO_ENVIRONMENT=production")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hugo %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
}

// CopySite copies the site folder src into a new temporary folder and
// returns it, so that Hugo's lock file and caches never land in testdata.
func CopySite(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatalf("hugotest: copy %s: %v", src, err)
	}
	return dst
}

// Config runs hugo config in the site folder dir for the environment env
// and the language lang ("" for the first) and returns the configuration
// Hugo merged, keys lower-cased as Hugo prints them.
func Config(t testing.TB, dir, env, lang string) map[string]any {
	t.Helper()
	args := []string{"config", "--format", "json", "--printZero", "--environment", env}
	if lang != "" {
		args = append(args, "--lang", lang)
	}
	out := run(t, dir, args...)
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("hugotest: hugo config in %s: %v\n%s", dir, err, out)
	}
	return m
}

// Mounts runs hugo config mounts in dir and returns the project's mounts.
func Mounts(t testing.TB, dir, env string) []Mount {
	t.Helper()
	out := run(t, dir, "config", "mounts", "--environment", env)
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var mod struct {
			Path   string  `json:"path"`
			Mounts []Mount `json:"mounts"`
		}
		if err := dec.Decode(&mod); err != nil {
			t.Fatalf("hugotest: hugo config mounts in %s: no project module (%v)\n%s", dir, err, out)
		}
		if mod.Path == "project" {
			return mod.Mounts
		}
	}
}

// Mount is one of Hugo's file mounts as hugo config mounts prints it.
type Mount struct {
	Source string `json:"source"`
	Target string `json:"target"`
	Sites  struct {
		Matrix struct {
			Languages []string `json:"languages"`
		} `json:"matrix"`
	} `json:"sites"`
}

// run runs Hugo in dir and returns its standard output, failing the test
// with both outputs when it fails.
func run(t testing.TB, dir string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(Binary(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HUGO_CACHEDIR="+t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("hugo %s in %s: %v\n%s%s", strings.Join(args, " "), dir, err, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.Bytes()
}
