// Package hugotest finds Hugo 0.165, the oracle folio's Hugo-compatibility
// tests compare with, and builds fixture sites with it.
//
// Hugo is a test oracle only, never a dependency of folio at run time. A
// test that needs it skips when it is missing, except in CI (CI=true),
// where .ci/run installs it and a missing or wrong Hugo is a failure.
package hugotest

import (
	"bytes"
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
