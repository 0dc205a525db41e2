// Package integration drives the folio binary as users and hosts do:
// built once per test run, started with real flags, sent real signals,
// served behind real nginx and Varnish.
package integration

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"folio/internal/proctest"
)

// folio is the binary under test, built once by TestMain.
var folio string

// buildFlags are the go build flags for it (see race_test.go).
var buildFlags []string

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	removeCache, err := proctest.OwnCache()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer removeCache()
	bin, err := proctest.Build(filepath.Join("..", ".."), buildFlags...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(filepath.Dir(bin))
	folio = bin
	return m.Run()
}

// start runs folio with args (and extra environment) and waits for its
// start-up line. It is killed when the test ends if it is still running.
func start(t *testing.T, env []string, args ...string) *proctest.Proc {
	t.Helper()
	cmd := exec.Command(folio, args...)
	cmd.Env = append(os.Environ(), env...)
	return proctest.Start(t, cmd)
}
