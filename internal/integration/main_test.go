// Package integration drives the folio binary as users and hosts do:
// built once per test run, started with real flags, sent real signals,
// served behind real nginx and Varnish.
package integration

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

// folio is the binary under test, built once by TestMain.
var folio string

// buildFlags are the go build flags for it (see race_test.go).
var buildFlags []string

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "folio-integration-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	folio = filepath.Join(dir, "folio")
	// go run does not forward signals to the program; a built binary
	// receives them itself.
	cmd := exec.Command("go", append(append([]string{"build"}, buildFlags...), "-o", folio, "folio")...)
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build folio: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// A proc is a running folio.
type proc struct {
	cmd    *exec.Cmd
	URL    string // from the start-up line, without the trailing slash
	log    *lines
	exited chan struct{}
	err    error
}

// startLine is the line serve prints once it answers.
var startLine = regexp.MustCompile(`^folio: serving (http://\S+)/ \((\d+) posts, built in (\S+)\)$`)

// start runs folio with args (and extra environment) and waits for its
// start-up line. It is killed when the test ends if it is still running.
func start(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(folio, args...)
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, log: &lines{}, exited: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.log.read(stderr)
		p.err = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.exited
		if strings.Contains(p.log.String(), "WARNING: DATA RACE") {
			t.Error("the race detector found a race in folio")
		}
		if t.Failed() {
			t.Logf("folio %s stderr:\n%s", strings.Join(args, " "), p.log)
		}
	})
	m := p.log.wait(t, startLine, 20*time.Second)
	p.URL = m[1]
	return p
}

// signal sends sig to the process.
func (p *proc) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
}

// wait waits for the process to exit and returns its exit code.
func (p *proc) wait(t *testing.T, limit time.Duration) int {
	t.Helper()
	select {
	case <-p.exited:
	case <-time.After(limit):
		t.Fatalf("folio still running after %s", limit)
	}
	return p.cmd.ProcessState.ExitCode()
}

// lines collects a process's stderr and lets tests wait for a line.
type lines struct {
	mu   sync.Mutex
	all  []string
	cond *sync.Cond
	done bool
}

func (l *lines) read(r io.Reader) {
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

// wait returns the submatches of the first line matching re, failing the
// test if none comes within limit.
func (l *lines) wait(t *testing.T, re *regexp.Regexp, limit time.Duration) []string {
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
			t.Fatalf("no line matching %s on stderr:\n%s", re, l)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// count is the number of lines matching re so far.
func (l *lines) count(re *regexp.Regexp) int {
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

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.all, "\n")
}
