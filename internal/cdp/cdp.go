// Package cdp drives headless Chromium for folio's browser tests over the
// Chrome DevTools Protocol: JSON messages ended by NUL on file descriptors
// 3 and 4 (--remote-debugging-pipe), so it needs neither a WebSocket
// library nor a dependency, only the handful of commands the tests send.
//
// A test starts one Browser (a fresh profile, the flags every test here
// needs), or takes the one its package shares (Shared), opens Tabs on
// URLs, evaluates JavaScript in them and reads what the pages reported:
// uncaught exceptions, console.error and console.assert calls, and the
// browser's own errors (failed loads, CSP violations).
// Without Chromium the test is skipped, except in CI (CI=true), where that
// is a failure.
package cdp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"folio/internal/syncbuf"
)

// Wait bounds every command and every wait of a test: generous, because
// the machine running the tests may be busy. Nothing asserts speed.
const Wait = 30 * time.Second

// Options are what a test asks of its browser.
type Options struct {
	// Features are Chromium features to enable (--enable-features),
	// such as WebMCPTesting.
	Features []string
	// Flags are more command-line flags, such as --host-resolver-rules.
	Flags []string
}

// A Browser is one headless Chromium with a fresh profile, as one test
// sees it: its tabs fail that test, and its Errors are those reported
// since the test took it.
type Browser struct {
	*process
	t     testing.TB
	since int // errors before it are another test's (Shared)
}

// process is one running Chromium.
type process struct {
	cmd      *exec.Cmd
	toChrome *os.File
	stderr   *syncbuf.Buffer
	profile  string

	mu      sync.Mutex
	nextID  int
	pending map[int]chan message
	errs    []string
	events  map[string][]chan message // session+method → waiters
	exited  chan struct{}
}

type message struct {
	ID        int             `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// Path finds Chromium; the test skips without one unless it runs in CI,
// where a missing browser is a failure.
func Path(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium on PATH (CI installs it)")
	}
	t.Skip("no chromium on PATH")
	return ""
}

// Start runs Chromium until the test ends.
func Start(t testing.TB, opts Options) *Browser {
	t.Helper()
	p := start(t, opts)
	t.Cleanup(func() {
		p.stop()
		if t.Failed() {
			t.Logf("chromium stderr (tail):\n%s", tail(p.stderr.String(), 3000))
		}
	})
	return &Browser{process: p, t: t}
}

var shared struct {
	mu    sync.Mutex
	procs map[string]*process
}

// Shared is Start for the tests of a package that can share one Chromium
// (a browser starts in a second or two, a tab in milliseconds): the first
// call with these options starts it, and every call returns it for t,
// whose tabs are closed when t ends. The package's TestMain calls
// CloseShared after its tests.
func Shared(t testing.TB, opts Options) *Browser {
	t.Helper()
	key := fmt.Sprintf("%q %q", opts.Features, opts.Flags)
	shared.mu.Lock()
	defer shared.mu.Unlock()
	p := shared.procs[key]
	if p == nil {
		p = start(t, opts)
		if shared.procs == nil {
			shared.procs = map[string]*process{}
		}
		shared.procs[key] = p
	}
	p.mu.Lock()
	since := len(p.errs)
	p.mu.Unlock()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("chromium stderr (tail):\n%s", tail(p.stderr.String(), 3000))
		}
	})
	return &Browser{process: p, t: t, since: since}
}

// CloseShared stops the browsers Shared started.
func CloseShared() {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	for key, p := range shared.procs {
		p.stop()
		delete(shared.procs, key)
	}
}

// start runs Chromium with opts.
func start(t testing.TB, opts Options) *process {
	t.Helper()
	bin := Path(t)
	// Not t.TempDir: Chromium's helper processes may still write to the
	// profile for a moment after the browser is gone, and TempDir's
	// cleanup fails the test on that.
	profile, err := os.MkdirTemp("", "folio-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	chromeIn, toChrome, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	fromChrome, chromeOut, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--no-default-browser-check",
		"--disable-dev-shm-usage", "--window-size=1000,1200", "--user-data-dir=" + profile, "--remote-debugging-pipe"}
	if len(opts.Features) > 0 {
		args = append(args, "--enable-features="+strings.Join(opts.Features, ","))
	}
	args = append(append(args, opts.Flags...), "about:blank")
	cmd := exec.Command(bin, args...)
	cmd.ExtraFiles = []*os.File{chromeIn, chromeOut} // fds 3 and 4
	p := &process{cmd: cmd, toChrome: toChrome, stderr: &syncbuf.Buffer{}, profile: profile,
		pending: map[int]chan message{}, events: map[string][]chan message{}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	chromeIn.Close()
	chromeOut.Close()
	go p.read(fromChrome)
	return p
}

// stop ends Chromium and removes its profile.
func (p *process) stop() {
	p.toChrome.Close()
	p.cmd.Process.Kill()
	p.cmd.Wait()
	<-p.exited
	for range 20 {
		if os.RemoveAll(p.profile) == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Errors returns what the pages reported since the test took the
// browser: uncaught exceptions, console errors and assertions, and the
// browser's own errors.
func (b *Browser) Errors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errs[b.since:]...)
}

// CheckNoErrors fails the test for each error reported so far whose text
// contains none of the expected substrings.
func (b *Browser) CheckNoErrors(t testing.TB, expected ...string) {
	t.Helper()
	for _, e := range b.Errors() {
		ok := false
		for _, x := range expected {
			ok = ok || strings.Contains(e, x)
		}
		if !ok {
			t.Errorf("browser: %s", e)
		}
	}
}

// read dispatches replies to their callers and events to their waiters,
// and keeps the errors.
func (b *process) read(from *os.File) {
	defer close(b.exited)
	defer from.Close()
	r := bufio.NewReader(from)
	for {
		raw, err := r.ReadBytes(0)
		if err != nil {
			b.mu.Lock()
			for id, c := range b.pending {
				close(c)
				delete(b.pending, id)
			}
			b.mu.Unlock()
			return
		}
		var m message
		if json.Unmarshal(raw[:len(raw)-1], &m) != nil {
			continue
		}
		b.mu.Lock()
		if c, ok := b.pending[m.ID]; ok && m.ID != 0 {
			delete(b.pending, m.ID)
			c <- m
		} else if m.Method != "" {
			if line := errorLine(m); line != "" {
				b.errs = append(b.errs, line)
			}
			key := m.SessionID + " " + m.Method
			for _, c := range b.events[key] {
				c <- m
			}
			delete(b.events, key)
		}
		b.mu.Unlock()
	}
}

// errorLine describes the events that count as a page's errors.
func errorLine(m message) string {
	switch m.Method {
	case "Runtime.exceptionThrown":
		var p struct {
			ExceptionDetails struct {
				Text      string
				Exception struct{ Description string }
			}
		}
		json.Unmarshal(m.Params, &p)
		return "uncaught: " + p.ExceptionDetails.Text + " " + p.ExceptionDetails.Exception.Description
	case "Log.entryAdded":
		var p struct {
			Entry struct{ Level, Text, URL string }
		}
		json.Unmarshal(m.Params, &p)
		if p.Entry.Level == "error" {
			return "log: " + p.Entry.Text + " (" + p.Entry.URL + ")"
		}
	case "Runtime.consoleAPICalled":
		var p struct {
			Type string
			Args []struct {
				Value       json.RawMessage
				Description string
			}
		}
		json.Unmarshal(m.Params, &p)
		if p.Type == "error" || p.Type == "assert" {
			var parts []string
			for _, a := range p.Args {
				if a.Value != nil {
					parts = append(parts, string(a.Value))
				} else {
					parts = append(parts, a.Description)
				}
			}
			return "console." + p.Type + ": " + strings.Join(parts, " ")
		}
	}
	return ""
}

// call sends one command (to a page when session is set) and returns its
// result.
func (b *process) call(session, method string, params any) (json.RawMessage, error) {
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	c := make(chan message, 1)
	b.pending[id] = c
	b.mu.Unlock()
	if params == nil {
		params = map[string]any{}
	}
	p, _ := json.Marshal(params)
	msg, _ := json.Marshal(message{ID: id, Method: method, Params: p, SessionID: session})
	if _, err := b.toChrome.Write(append(msg, 0)); err != nil {
		return nil, err
	}
	select {
	case m, ok := <-c:
		if !ok {
			return nil, errors.New("chromium exited")
		}
		if m.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, m.Error.Message)
		}
		return m.Result, nil
	case <-time.After(Wait):
		return nil, fmt.Errorf("%s: no answer in %s", method, Wait)
	}
}

// expect returns a channel that receives the next event named method in
// session; ask before the command that causes it.
func (b *process) expect(session, method string) <-chan message {
	c := make(chan message, 1)
	b.mu.Lock()
	b.events[session+" "+method] = append(b.events[session+" "+method], c)
	b.mu.Unlock()
	return c
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
