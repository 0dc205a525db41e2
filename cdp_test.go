package main

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
)

// A minimal Chrome DevTools Protocol client for the browser tests. It
// talks to Chromium over --remote-debugging-pipe (JSON messages ended by
// NUL on file descriptors 3 and 4), so it needs neither a WebSocket
// library nor a dependency: only the handful of commands the tests send.

// browser is one headless Chromium with a fresh profile.
type browser struct {
	t        testing.TB
	cmd      *exec.Cmd
	toChrome *os.File

	mu      sync.Mutex
	nextID  int
	pending map[int]chan cdpMessage
	logs    []string // console errors, exceptions, CSP reports
	exited  chan struct{}
}

type cdpMessage struct {
	ID        int             `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// chromiumPath finds the browser; the test skips without one unless it
// runs in CI, where a missing browser is a failure.
func chromiumPath(t testing.TB) string {
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

// startBrowser starts Chromium with the test flags and any extra ones.
func startBrowser(t testing.TB, flags ...string) *browser {
	t.Helper()
	bin := chromiumPath(t)
	chromeIn, toChrome, err := os.Pipe()
	must(t, err)
	fromChrome, chromeOut, err := os.Pipe()
	must(t, err)
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--disable-component-update", "--no-first-run",
		"--disable-dev-shm-usage", "--user-data-dir="+t.TempDir(), "--remote-debugging-pipe")
	cmd.Args = append(append(cmd.Args, flags...), "about:blank")
	cmd.ExtraFiles = []*os.File{chromeIn, chromeOut} // fds 3 and 4
	var stderr syncBuffer
	cmd.Stderr = &stderr
	must(t, cmd.Start())
	chromeIn.Close()
	chromeOut.Close()
	b := &browser{t: t, cmd: cmd, toChrome: toChrome, pending: map[int]chan cdpMessage{}, exited: make(chan struct{})}
	go b.read(fromChrome)
	t.Cleanup(func() {
		toChrome.Close()
		cmd.Process.Kill()
		cmd.Wait()
		<-b.exited
		if t.Failed() {
			t.Logf("chromium stderr (tail):\n%s", tail(stderr.String(), 3000))
		}
	})
	return b
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// read dispatches replies to their callers and keeps the log events.
func (b *browser) read(from *os.File) {
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
		var m cdpMessage
		if json.Unmarshal(raw[:len(raw)-1], &m) != nil {
			continue
		}
		b.mu.Lock()
		if c, ok := b.pending[m.ID]; ok && m.ID != 0 {
			delete(b.pending, m.ID)
			c <- m
		} else if line := logLine(m); line != "" {
			b.logs = append(b.logs, line)
		}
		b.mu.Unlock()
	}
}

// logLine describes the events the tests check for: exceptions, console
// errors and the browser's own errors (CSP violations among them).
func logLine(m cdpMessage) string {
	switch m.Method {
	case "Runtime.exceptionThrown":
		return "exception: " + string(m.Params)
	case "Log.entryAdded":
		var p struct {
			Entry struct{ Level, Text, URL string }
		}
		json.Unmarshal(m.Params, &p)
		if p.Entry.Level == "error" {
			return "log: " + p.Entry.Text + " " + p.Entry.URL
		}
	case "Runtime.consoleAPICalled":
		var p struct{ Type string }
		json.Unmarshal(m.Params, &p)
		if p.Type == "error" {
			return "console: " + string(m.Params)
		}
	}
	return ""
}

// call sends one command (to a page when session is set) and returns its
// result.
func (b *browser) call(session, method string, params any) (json.RawMessage, error) {
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	c := make(chan cdpMessage, 1)
	b.pending[id] = c
	b.mu.Unlock()
	p, _ := json.Marshal(params)
	msg, _ := json.Marshal(cdpMessage{ID: id, Method: method, Params: p, SessionID: session})
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
	case <-time.After(devWait):
		return nil, fmt.Errorf("%s: no answer", method)
	}
}

// tab is one page of the browser.
type tab struct {
	b       *browser
	session string
}

// open makes a new page showing url.
func (b *browser) open(url string) *tab {
	b.t.Helper()
	res, err := b.call("", "Target.createTarget", map[string]any{"url": "about:blank"})
	must(b.t, err)
	var target struct{ TargetID string }
	must(b.t, json.Unmarshal(res, &target))
	res, err = b.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true})
	must(b.t, err)
	var att struct{ SessionID string }
	must(b.t, json.Unmarshal(res, &att))
	tb := &tab{b: b, session: att.SessionID}
	for _, domain := range []string{"Runtime.enable", "Log.enable", "Page.enable"} {
		_, err := b.call(tb.session, domain, map[string]any{})
		must(b.t, err)
	}
	_, err = b.call(tb.session, "Page.navigate", map[string]any{"url": url})
	must(b.t, err)
	return tb
}

// eval evaluates a JavaScript expression in the page and returns its
// value as JSON; an error while the page is between documents.
func (tb *tab) eval(expr string) (json.RawMessage, error) {
	res, err := tb.b.call(tb.session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true})
	if err != nil {
		return nil, err
	}
	var r struct {
		Result           struct{ Value json.RawMessage }
		ExceptionDetails *struct{ Text string }
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return nil, err
	}
	if r.ExceptionDetails != nil {
		return nil, errors.New(r.ExceptionDetails.Text)
	}
	return r.Result.Value, nil
}

// evalAwait evaluates an expression whose value is a promise and returns
// what it resolves to, as a string.
func (tb *tab) evalAwait(expr string) (string, error) {
	res, err := tb.b.call(tb.session, "Runtime.evaluate", map[string]any{"expression": "Promise.resolve(" + expr + ").then(String)", "awaitPromise": true, "returnByValue": true})
	if err != nil {
		return "", err
	}
	var r struct {
		Result           struct{ Value string }
		ExceptionDetails *struct{ Text string }
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return "", err
	}
	if r.ExceptionDetails != nil {
		return "", errors.New(r.ExceptionDetails.Text)
	}
	return r.Result.Value, nil
}

// waitTrue polls a boolean expression until it is true.
func (tb *tab) waitTrue(what, expr string) {
	tb.b.t.Helper()
	deadline := time.Now().Add(devWait)
	var last string
	for time.Now().Before(deadline) {
		v, err := tb.eval(expr)
		if err == nil && string(v) == "true" {
			return
		}
		last = fmt.Sprint(string(v), err)
		time.Sleep(25 * time.Millisecond)
	}
	tb.b.t.Fatalf("timed out waiting for %s (%s); last: %s; browser log: %s", what, expr, last, strings.Join(tb.b.log(), "\n"))
}

func (tb *tab) mustEval(expr string) string {
	tb.b.t.Helper()
	v, err := tb.eval(expr)
	must(tb.b.t, err)
	return string(v)
}

func (b *browser) log() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.logs...)
}
