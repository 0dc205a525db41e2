package cdp

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"
)

// A Tab is one page of the browser. Its methods fail the test on an
// error, except Eval and Call, which return it.
type Tab struct {
	b       *Browser
	t       testing.TB
	session string
}

// Open makes a new page showing url, loaded.
func (b *Browser) Open(url string) *Tab {
	b.t.Helper()
	res, err := b.call("", "Target.createTarget", map[string]any{"url": "about:blank"})
	if err != nil {
		b.t.Fatal(err)
	}
	var target struct{ TargetID string }
	json.Unmarshal(res, &target)
	res, err = b.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true})
	if err != nil {
		b.t.Fatal(err)
	}
	var att struct{ SessionID string }
	json.Unmarshal(res, &att)
	tab := &Tab{b: b, t: b.t, session: att.SessionID}
	b.t.Cleanup(func() { b.call("", "Target.closeTarget", map[string]any{"targetId": target.TargetID}) })
	for _, domain := range []string{"Runtime.enable", "Log.enable", "Page.enable"} {
		tab.MustCall(domain, nil)
	}
	tab.Navigate(url)
	return tab
}

// Call sends one DevTools command to the page and returns its result.
func (tab *Tab) Call(method string, params any) (json.RawMessage, error) {
	return tab.b.call(tab.session, method, params)
}

// MustCall is Call that fails the test on an error.
func (tab *Tab) MustCall(method string, params any) json.RawMessage {
	tab.t.Helper()
	res, err := tab.Call(method, params)
	if err != nil {
		tab.t.Fatalf("%v", err)
	}
	return res
}

// Navigate loads url and waits for its load event.
func (tab *Tab) Navigate(url string) {
	tab.t.Helper()
	loaded := tab.b.expect(tab.session, "Page.loadEventFired")
	res := tab.MustCall("Page.navigate", map[string]any{"url": url})
	var nav struct{ ErrorText string }
	json.Unmarshal(res, &nav)
	if nav.ErrorText != "" {
		tab.t.Fatalf("navigate to %s: %s", url, nav.ErrorText)
	}
	select {
	case <-loaded:
	case <-time.After(Wait):
		tab.t.Fatalf("navigate to %s: no load event in %s", url, Wait)
	}
}

// Eval evaluates a JavaScript expression in the page, awaits it when it
// is a promise, and decodes its value (as JSON) into out, unless out is
// nil.
func (tab *Tab) Eval(expr string, out any) error {
	res, err := tab.Call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true})
	if err != nil {
		return err
	}
	var r struct {
		Result           struct{ Value json.RawMessage }
		ExceptionDetails *struct {
			Text      string
			Exception struct{ Description string }
		}
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return err
	}
	if r.ExceptionDetails != nil {
		return errors.New(r.ExceptionDetails.Text + " " + r.ExceptionDetails.Exception.Description)
	}
	if out == nil || r.Result.Value == nil {
		return nil
	}
	return json.Unmarshal(r.Result.Value, out)
}

// MustEval is Eval that fails the test on an error.
func (tab *Tab) MustEval(expr string, out any) {
	tab.t.Helper()
	if err := tab.Eval(expr, out); err != nil {
		tab.t.Fatalf("%s: %v", expr, err)
	}
}

// String evaluates expr and returns its value as text (String(value)).
func (tab *Tab) String(expr string) string {
	tab.t.Helper()
	var s string
	tab.MustEval("Promise.resolve("+expr+").then(String)", &s)
	return s
}

// WaitTrue polls a boolean expression until it is true, for at most Wait.
func (tab *Tab) WaitTrue(what, expr string) {
	tab.t.Helper()
	deadline := time.Now().Add(Wait)
	var last string
	for time.Now().Before(deadline) {
		var ok bool
		err := tab.Eval(expr, &ok)
		if err == nil && ok {
			return
		}
		last = fmt.Sprint(ok, " ", err)
		time.Sleep(25 * time.Millisecond)
	}
	tab.t.Fatalf("timed out waiting for %s (%s); last: %s; browser errors: %q", what, expr, last, tab.b.Errors())
}

// Type focuses the element selector names and types text into it one key
// at a time, as the keyboard does (one input event per character).
func (tab *Tab) Type(selector, text string) {
	tab.t.Helper()
	tab.MustEval(`document.querySelector(`+strconv.Quote(selector)+`).focus()`, nil)
	for _, r := range text {
		for _, typ := range []string{"keyDown", "keyUp"} {
			params := map[string]any{"type": typ, "key": string(r)}
			if typ == "keyDown" {
				params["text"] = string(r)
			}
			tab.MustCall("Input.dispatchKeyEvent", params)
		}
	}
}

// Press sends a named key (Tab, Escape) as the keyboard does: trusted
// events, so that Tab moves the focus the way it does for a person.
func (tab *Tab) Press(key string, shift bool) {
	tab.t.Helper()
	codes := map[string]int{"Tab": 9, "Escape": 27, "Enter": 13}
	modifiers := 0
	if shift {
		modifiers = 8
	}
	for _, typ := range []string{"rawKeyDown", "keyUp"} {
		tab.MustCall("Input.dispatchKeyEvent", map[string]any{
			"type": typ, "key": key, "code": key, "modifiers": modifiers,
			"windowsVirtualKeyCode": codes[key], "nativeVirtualKeyCode": codes[key],
		})
	}
}

// Offline turns the page's network off or on again.
func (tab *Tab) Offline(off bool) {
	tab.t.Helper()
	tab.MustCall("Network.enable", nil)
	tab.MustCall("Network.emulateNetworkConditions", map[string]any{
		"offline": off, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1,
	})
}

// Screenshot returns a PNG of the whole page.
func (tab *Tab) Screenshot() []byte {
	tab.t.Helper()
	res := tab.MustCall("Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true})
	var shot struct{ Data string }
	json.Unmarshal(res, &shot)
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		tab.t.Fatalf("screenshot: %v", err)
	}
	return png
}
