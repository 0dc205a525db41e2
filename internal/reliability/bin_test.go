package reliability

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// The folio binary, built on first use by the tests that need the real
// process: its http.Server limits, its os.OpenRoot content folder, its
// signals and its writes.
var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// folioBin returns the path of the folio binary, building it once.
func folioBin(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "folio-reliability-")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "folio")
		cmd := exec.Command("go", "build", "-o", binPath, "folio")
		cmd.Dir = filepath.Join("..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build folio: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// runFolio runs a folio command to its end (at most a minute) in dir and
// returns its exit code and stderr.
func runFolio(t testing.TB, dir string, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, folioBin(t), args...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("folio %s: still running after a minute", strings.Join(args, " "))
	}
	if err != nil && cmd.ProcessState == nil {
		t.Fatalf("folio %s: %v", strings.Join(args, " "), err)
	}
	return cmd.ProcessState.ExitCode(), stderr.String()
}

// A proc is a running folio serve.
type proc struct {
	cmd    *exec.Cmd
	addr   string // host:port it answers on
	log    *logLines
	exited chan struct{}
}

var startLine = regexp.MustCompile(`^folio: serving http://(\S+)/ \(\d+ posts`)

// startServe runs folio serve on 127.0.0.1 with a free port in dir, waits
// for its start-up line, and kills it when the test ends.
func startServe(t testing.TB, dir string, args ...string) *proc {
	t.Helper()
	args = append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)
	cmd := exec.Command(folioBin(t), args...)
	cmd.Dir = dir
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, log: &logLines{}, exited: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.log.read(stderr)
		cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.exited
		if t.Failed() {
			t.Logf("folio %s stderr:\n%s", strings.Join(args, " "), p.log)
		}
	})
	p.addr = p.log.wait(t, startLine, 30*time.Second)[1]
	return p
}

// logLines collects a process's stderr.
type logLines struct {
	mu    sync.Mutex
	lines []string
	done  bool
}

func (l *logLines) read(r io.Reader) {
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 64<<10), 1<<20)
	for s.Scan() {
		l.mu.Lock()
		l.lines = append(l.lines, s.Text())
		l.mu.Unlock()
	}
	l.mu.Lock()
	l.done = true
	l.mu.Unlock()
}

// wait returns the submatches of the first line matching re, failing
// the test when none comes within limit.
func (l *logLines) wait(t testing.TB, re *regexp.Regexp, limit time.Duration) []string {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		l.mu.Lock()
		for _, line := range l.lines {
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
		time.Sleep(20 * time.Millisecond)
	}
}

// has reports whether a line so far matches re.
func (l *logLines) has(re *regexp.Regexp) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range l.lines {
		if re.MatchString(line) {
			return true
		}
	}
	return false
}

func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}
