// Package proctest builds the folio binary and runs it as hosts do, for
// the tests that need the real process: its signals, its http.Server
// limits, its os.OpenRoot content folder, what it writes on stderr.
package proctest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Build builds folio with the given go build flags into a new temporary
// folder and returns the binary's path; the caller removes its folder.
// root is the module's root. go run would not do: it does not forward
// signals to the program, and a built binary receives them itself.
func Build(root string, flags ...string) (string, error) {
	dir, err := os.MkdirTemp("", "folio-bin-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "folio")
	cmd := exec.Command("go", append(append([]string{"build"}, flags...), "-o", bin, "folio")...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("go build folio: %v\n%s", err, out)
	}
	return bin, nil
}

// OwnCache points the parse cache of every folio the tests start
// ($CACHE_DIRECTORY, inherited by the processes) at a new temporary folder
// rather than the user's cache folder, where each test's site would leave
// a file; call the function it returns, which removes the folder, when
// the tests end. Tests that ask for another folder pass their own
// --cache-dir or environment.
func OwnCache() (remove func(), err error) {
	dir, err := os.MkdirTemp("", "folio-test-cache-")
	if err != nil {
		return nil, err
	}
	if err := os.Setenv("CACHE_DIRECTORY", dir); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return func() { os.RemoveAll(dir) }, nil
}

// StartLine is the line serve prints once it answers: its URL without the
// trailing slash, the number of posts, the build time.
var StartLine = regexp.MustCompile(`^folio: serving (http://\S+)/ \((\d+) posts?, built in (\S+)\)$`)

// A Proc is a running folio.
type Proc struct {
	URL    string // from the start-up line, without the trailing slash
	Log    *Lines // its stderr
	Err    error  // what Wait returned, once Exited is closed
	Exited chan struct{}
	cmd    *exec.Cmd
}

// Start starts cmd, collects its stderr and waits for the start-up line
// (at most 2 minutes, a hang guard). When the test ends the process is killed if it still
// runs, the test fails if the race detector reported a race, and a failed
// test shows the process's stderr.
func Start(t testing.TB, cmd *exec.Cmd) *Proc {
	t.Helper()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &Proc{Log: &Lines{}, Exited: make(chan struct{}), cmd: cmd}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.Log.Read(stderr)
		p.Err = cmd.Wait()
		close(p.Exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.Exited
		if strings.Contains(p.Log.String(), "WARNING: DATA RACE") {
			t.Error("the race detector found a race in folio")
		}
		if t.Failed() {
			t.Logf("%s stderr:\n%s", strings.Join(cmd.Args, " "), p.Log)
		}
	})
	p.URL = p.Log.Wait(t, StartLine, 2*time.Minute)[1] // a hang guard: the machine may be busy
	return p
}

// Addr is the host:port the process answers on.
func (p *Proc) Addr() string { return strings.TrimPrefix(p.URL, "http://") }

// Signal sends sig to the process.
func (p *Proc) Signal(t testing.TB, sig syscall.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
}

// Wait waits for the process to exit and returns its exit code.
func (p *Proc) Wait(t testing.TB, limit time.Duration) int {
	t.Helper()
	select {
	case <-p.Exited:
	case <-time.After(limit):
		t.Fatalf("folio still running after %s", limit)
	}
	return p.cmd.ProcessState.ExitCode()
}

// Lines collects a process's stderr and lets tests wait for a line.
type Lines struct {
	mu   sync.Mutex
	all  []string
	done bool
}

// Read collects the lines of r until it ends.
func (l *Lines) Read(r io.Reader) {
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 64<<10), 1<<20)
	for s.Scan() {
		l.mu.Lock()
		l.all = append(l.all, s.Text())
		l.mu.Unlock()
	}
	l.mu.Lock()
	l.done = true
	l.mu.Unlock()
}

// Wait returns the submatches of the first line matching re, failing the
// test if none comes within limit or the stream ends without one.
func (l *Lines) Wait(t testing.TB, re *regexp.Regexp, limit time.Duration) []string {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		l.mu.Lock()
		for _, line := range l.all {
			if m := re.FindStringSubmatch(line); m != nil {
				l.mu.Unlock()
				return m
			}
		}
		done := l.done
		l.mu.Unlock()
		if done || time.Now().After(deadline) {
			t.Fatalf("no line matching %s on stderr within %s:\n%s", re, limit, l)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Count is the number of lines matching re so far.
func (l *Lines) Count(re *regexp.Regexp) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, line := range l.all {
		if re.MatchString(line) {
			n++
		}
	}
	return n
}

func (l *Lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.all, "\n")
}
