package reliability

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"folio/internal/proctest"
)

// The folio binary, built on first use by the tests that need the real
// process: its http.Server limits, its os.OpenRoot content folder, its
// signals and its writes.
var (
	binOnce sync.Once
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	removeCache, err := proctest.OwnCache()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	removeCache()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// folioBin returns the path of the folio binary, building it once.
func folioBin(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() { binPath, binErr = proctest.Build(filepath.Join("..", "..")) })
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// runFolio runs a folio command to its end in dir and returns its exit
// code and stderr. The 5 minutes are a guard against a hang, not a bound
// on speed (under -race on a busy machine a build takes seconds); the
// binary is built first, outside them.
func runFolio(t testing.TB, dir string, args ...string) (int, string) {
	t.Helper()
	bin := folioBin(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("folio %s: still running after 5 minutes", strings.Join(args, " "))
	}
	if err != nil && cmd.ProcessState == nil {
		t.Fatalf("folio %s: %v", strings.Join(args, " "), err)
	}
	return cmd.ProcessState.ExitCode(), stderr.String()
}

// startServe runs folio serve on 127.0.0.1 with a free port in dir, waits
// for its start-up line, and kills it when the test ends.
func startServe(t testing.TB, dir string, args ...string) *proctest.Proc {
	t.Helper()
	args = append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)
	cmd := exec.Command(folioBin(t), args...)
	cmd.Dir = dir
	return proctest.Start(t, cmd)
}
