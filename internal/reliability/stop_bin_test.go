package reliability

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"folio/internal/proctest"
)

// bigSite writes n posts under dir/content: enough that loading them
// takes a second or more.
func bigSite(t *testing.T, dir string, n int) {
	t.Helper()
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("blog/p%05d.md", i)] = fmt.Sprintf("---\ntitle: Post %d\ndate: 2024-01-02\n---\n%s\n", i, strings.Repeat("Some words to render. ", 40))
	}
	writeTree(t, filepath.Join(dir, "content"), files)
}

// freeAddr is a loopback address no one listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startRaw starts folio with args in dir, collecting its stderr, without
// waiting for anything; the process is killed when the test ends.
func startRaw(t *testing.T, dir string, args ...string) (*exec.Cmd, *proctest.Lines, chan struct{}) {
	t.Helper()
	return startRawTo(t, dir, nil, args...)
}

// startRawTo is startRaw with folio's stdout written to stdout (nil:
// discarded).
func startRawTo(t *testing.T, dir string, stdout io.Writer, args ...string) (*exec.Cmd, *proctest.Lines, chan struct{}) {
	t.Helper()
	cmd := exec.Command(folioBin(t), args...)
	cmd.Dir = dir
	cmd.Stdout = stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines, exited := &proctest.Lines{}, make(chan struct{})
	go func() { lines.Read(stderr); cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("stderr:\n%s", lines)
		}
	})
	return cmd, lines, exited
}

func waitExit(t *testing.T, cmd *exec.Cmd, exited chan struct{}) int {
	t.Helper()
	select {
	case <-exited:
	case <-time.After(2 * time.Minute): // a hang, not a speed
		t.Fatal("folio still running after SIGTERM")
	}
	return cmd.ProcessState.ExitCode()
}

// TestSIGTERMDuringSlowStart (issue 15, finding 14): SIGTERM while serve
// loads a large site (the port is bound first, the site loads after)
// stops it then, exit 0, without serving; before, it went on loading and
// stopped only once the site was built and served.
func TestSIGTERMDuringSlowStart(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the folio binary")
	}
	dir := t.TempDir()
	bigSite(t, dir, 10_000)
	addr := freeAddr(t)
	cmd, lines, exited := startRaw(t, dir, "serve", "--addr", addr, "--content", "content", "--base-url", base)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil { // bound: loading
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("serve never bound its address")
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if code := waitExit(t, cmd, exited); code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
	if log := lines.String(); strings.Contains(log, "folio: serving") || !strings.Contains(log, "stopped while loading the site") {
		t.Errorf("SIGTERM during the load did not stop it there:\n%s", log)
	}
}

// TestSIGTERMDuringReload: SIGTERM while a SIGHUP reload builds a large
// site drains, exits 0 and drops the reload, rather than waiting for it.
func TestSIGTERMDuringReload(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the folio binary")
	}
	dir := t.TempDir()
	writeTree(t, filepath.Join(dir, "content"), unlinked(publicOnly()))
	p := startServe(t, dir, "--content", "content", "--base-url", base)
	bigSite(t, dir, 20_000) // a reload of a second or more
	p.Signal(t, syscall.SIGHUP)
	time.Sleep(300 * time.Millisecond) // the reload has started: it takes seconds
	p.Signal(t, syscall.SIGTERM)
	if code := p.Wait(t, 2*time.Minute); code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
	if log := p.Log.String(); strings.Contains(log, "msg=reloaded") || !strings.Contains(log, "stopped while a reload was building") {
		t.Errorf("SIGTERM waited for the reload:\n%.3000s", log)
	}
}

// TestConnectionCap (issue 15, finding 14): serve under an open-file
// limit of 1,024 with 1,100 idle keep-alive connections open still
// answers a newcomer (the idle connections longest unused are closed for
// it) and exits 0 on SIGTERM; before, accept(2) failed with EMFILE and
// every new client waited for an idle connection to time out.
func TestConnectionCap(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the folio binary")
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("no prlimit (util-linux) to run folio under a small open-file limit")
	}
	dir := t.TempDir()
	writeTree(t, filepath.Join(dir, "content"), unlinked(publicOnly()))
	cmd := exec.Command(prlimit, "--nofile=1024:1024", folioBin(t), "serve", "--addr", "127.0.0.1:0", "--content", "content", "--base-url", base)
	cmd.Dir = dir
	p := proctest.Start(t, cmd)
	const idle = 1100
	var open []net.Conn
	defer func() {
		for _, c := range open {
			c.Close()
		}
	}()
	ok := 0
	for range idle {
		c, err := net.Dial("tcp", p.Addr())
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, c)
		c.SetDeadline(time.Now().Add(30 * time.Second))
		io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			ok++
		}
	}
	client := &http.Client{Timeout: 30 * time.Second} // a hang, not a speed
	resp, err := client.Get(p.URL + "/blog/hello/")
	if err != nil {
		t.Fatalf("a new client with %d idle connections open: %v", idle, err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("a new client: %d", resp.StatusCode)
	}
	p.Signal(t, syscall.SIGTERM)
	if code := p.Wait(t, time.Minute); code != 0 {
		t.Errorf("exit %d after SIGTERM, want 0", code)
	}
	if !strings.Contains(p.Log.String(), "connection cap reached") {
		t.Error("the cap was never reached")
	}
	t.Logf("%d of %d keep-alive connections answered, then a new client: %d", ok, idle, resp.StatusCode)
}

// tree reads every file under dir: its contents by slash path.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// staging lists the names beside out that a build of out stages in.
func staging(t *testing.T, out string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Dir(out))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "."+filepath.Base(out)+".tmp-") {
			names = append(names, e.Name())
		}
	}
	return names
}

// TestSIGTERMDuringBuild (review 31, item 16): SIGTERM while folio build
// writes a large export stops it there, exit 1, with the staged output
// removed and the previous output as it was; before, the signal was
// caught and ignored, and the build ran to its end and replaced it.
func TestSIGTERMDuringBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the folio binary")
	}
	dir := t.TempDir()
	writeTree(t, filepath.Join(dir, "content"), map[string]string{"blog/first.md": "---\ntitle: First\ndate: 2024-01-01\n---\nHello.\n"})
	out := filepath.Join(dir, "public")
	args := []string{"build", "--out", out, "--content", "content", "--base-url", base}
	if code, log := runFolio(t, dir, args...); code != 0 {
		t.Fatalf("first build: exit %d\n%s", code, log)
	}
	before := tree(t, out)
	bigSite(t, dir, 10_000)
	cmd, lines, exited := startRaw(t, dir, args...)
	for deadline := time.Now().Add(2 * time.Minute); len(staging(t, out)) == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) { // a hang, not a speed
			t.Fatal("the build never staged its output")
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if code := waitExit(t, cmd, exited); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if log := lines.String(); !strings.Contains(log, "stopped by a signal") || strings.Contains(log, "folio: wrote") {
		t.Errorf("SIGTERM did not stop the build:\n%.3000s", log)
	}
	if after := tree(t, out); !maps.Equal(before, after) {
		t.Errorf("the previous output changed: %d files before, %d after", len(before), len(after))
	}
	if left := staging(t, out); len(left) > 0 {
		t.Errorf("left beside the output: %v", left)
	}
}

// TestSIGINTDuringCheck (review 31, item 16): Ctrl-C while folio check
// renders a large site stops it there, exit 1, saying nothing on stdout;
// before, it ran to its end.
func TestSIGINTDuringCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the folio binary")
	}
	dir := t.TempDir()
	bigSite(t, dir, 10_000)
	var stdout strings.Builder
	cmd, lines, exited := startRawTo(t, dir, &stdout, "check", "-v", "--content", "content", "--base-url", base)
	lines.Wait(t, regexp.MustCompile(`^ok `), 2*time.Minute) // loaded: rendering
	cmd.Process.Signal(os.Interrupt)
	if code := waitExit(t, cmd, exited); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(lines.String(), "stopped by a signal") || stdout.Len() > 0 {
		t.Errorf("Ctrl-C did not stop check: stdout %q", stdout.String())
	}
}
