package site_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The browser tests drive Debian's headless Chromium over the DevTools
// protocol (chromedp) against the real server. They run in CI; elsewhere
// they are skipped when there is no Chromium. With FOLIO_SCREENSHOTS=DIR
// they also save PNG screenshots of the directory and an article, light
// and dark, for a look at the design.

// browser is one headless Chromium with a fresh profile, and the errors
// its pages reported (console errors, uncaught exceptions, failed loads,
// CSP violations).
type browser struct {
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

func newBrowser(t *testing.T, features ...string) *browser {
	t.Helper()
	chrome := tool(t, "chromium", "chromium-browser", "google-chrome")
	// Not t.TempDir: Chromium's helper processes may still write to the
	// profile for a moment after the browser is gone, and TempDir's
	// cleanup fails the test on that.
	profile, err := os.MkdirTemp("", "folio-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chrome),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1000, 1200),
	}
	if len(features) > 0 {
		opts = append(opts, chromedp.Flag("enable-features", strings.Join(features, ",")))
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() {
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
		for range 20 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})

	b := &browser{ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeAssert {
				b.fail(fmt.Sprintf("console.%s: %s", ev.Type, args(ev.Args)))
			}
		case *runtime.EventExceptionThrown:
			b.fail("uncaught: " + ev.ExceptionDetails.Error())
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.LevelError {
				b.fail(fmt.Sprintf("log: %s (%s)", ev.Entry.Text, ev.Entry.URL))
			}
		}
	})
	if err := chromedp.Run(ctx, log.Enable(), runtime.Enable()); err != nil {
		t.Fatalf("start %s: %v", chrome, err)
	}
	return b
}

func (b *browser) fail(msg string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.errors = append(b.errors, msg)
}

// checkNoErrors fails the test if any page reported an error so far.
func (b *browser) checkNoErrors(t *testing.T) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.errors {
		t.Errorf("browser error: %s", e)
	}
}

func args(list []*runtime.RemoteObject) string {
	var parts []string
	for _, a := range list {
		if a.Value != nil {
			parts = append(parts, string(a.Value))
		} else {
			parts = append(parts, a.Description)
		}
	}
	return strings.Join(parts, " ")
}

func (b *browser) run(t *testing.T, actions ...chromedp.Action) {
	t.Helper()
	if err := chromedp.Run(b.ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// eval evaluates a JavaScript expression, awaiting it if it is a promise.
func eval(expr string, out any) chromedp.Action {
	return chromedp.Evaluate(expr, out, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
		return p.WithAwaitPromise(true)
	})
}

// visibleSlugs lists the directory items that are not hidden.
const visibleSlugs = `[...document.querySelectorAll("[data-posts] li[data-slug]")].filter((li) => !li.hidden && li.offsetParent !== null).map((li) => li.dataset.slug)`

// clientSearch is the client's own search over the API, in the page.
func clientSearch(base, query string) string {
	return fmt.Sprintf(`import(%q).then((m) => m.createClient(%q).search(%q)).then((ps) => ps.map((p) => p.slug))`,
		base+"sdk/blog-client.js", base, query)
}

func TestBrowserDirectorySearch(t *testing.T) {
	base := startFixture(t)
	b := newBrowser(t)
	for _, tc := range []struct {
		query string
		want  []string
	}{
		// Each word alone matches more posts than the two together.
		{"HTTP go", []string{"go-http"}},
		{"order slug", []string{"same-day-a", "same-day-b"}},
		{"tags category", []string{"no-category"}},
		{"été naïveté", []string{"cafe"}},
		{"http nothing", nil},
	} {
		var before, after, client []string
		var status string
		b.run(t,
			chromedp.Navigate(base+"blog/"),
			chromedp.WaitVisible(`form[data-search]`), // shown by the script
			eval(visibleSlugs, &before),
			chromedp.SendKeys(`#search-query`, tc.query),
			chromedp.Poll(`document.querySelector("#search-status").textContent !== ""`, nil, chromedp.WithPollingTimeout(10*time.Second)),
			eval(visibleSlugs, &after),
			chromedp.Text(`#search-status`, &status),
			eval(clientSearch(base, tc.query), &client),
		)
		if len(before) != 8 {
			t.Errorf("before typing, %d posts shown, want all 8: %v", len(before), before)
		}
		if !reflect.DeepEqual(nonNil(after), nonNil(tc.want)) {
			t.Errorf("typed %q: page shows %v, want %v", tc.query, after, tc.want)
		}
		if !reflect.DeepEqual(nonNil(after), nonNil(client)) {
			t.Errorf("typed %q: page shows %v, the client's search finds %v", tc.query, after, client)
		}
		if len(tc.want) == 0 && status != "No post matches." {
			t.Errorf("typed %q: status %q", tc.query, status)
		}
	}
	var noWebMCP bool
	b.run(t, eval(`document.modelContext === undefined && navigator.modelContext === undefined`, &noWebMCP))
	if !noWebMCP {
		t.Log("this Chromium has WebMCP without the flag; the no-WebMCP path is not exercised")
	}
	b.checkNoErrors(t)
}

// When /api/posts.json cannot be fetched, the status line says so in a
// plain sentence, the detail goes to console.warn (not console.error), once
// per failed search, and the next keystroke tries again.
func TestBrowserDirectorySearchUnavailable(t *testing.T) {
	base := startFixture(t)
	b := newBrowser(t)
	const statusSet = `document.querySelector("#search-status").textContent !== ""`
	var status string
	var warnings []string
	var after []string
	b.run(t,
		chromedp.Navigate(base+"blog/"),
		chromedp.WaitVisible(`form[data-search]`),
		// The page's warnings, kept for the test to read.
		eval(`(() => { window.folioWarnings = []; const warn = console.warn;
			console.warn = (...a) => { window.folioWarnings.push(a.map(String).join(" ")); warn.apply(console, a); }; return true; })()`, nil),
		network.EmulateNetworkConditions(true, 0, -1, -1),
		// One input event, so one search runs: typed key by key, each key
		// starts a search, and how many of them fail before the next key
		// (each failure warns) depends on timing the test does not control.
		eval(`(() => { const q = document.querySelector("#search-query"); q.value = "http";
			q.dispatchEvent(new Event("input")); return true; })()`, nil),
		chromedp.Poll(statusSet, nil, chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Text(`#search-status`, &status),
		eval(`window.folioWarnings`, &warnings),
	)
	if status != "Search is unavailable right now." {
		t.Errorf("offline, the status line says %q", status)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], base+"api/posts.json") {
		t.Errorf("offline, console.warn got %q, want one warning naming %sapi/posts.json", warnings, base)
	}

	b.run(t,
		network.EmulateNetworkConditions(false, 0, -1, -1),
		chromedp.SendKeys(`#search-query`, " go"),
		// Generous: the first request after the emulation ends may wait
		// for Chromium's network service.
		chromedp.Poll(`document.querySelector("#search-status").textContent === "1 post matches."`, nil,
			chromedp.WithPollingTimeout(30*time.Second)),
		eval(visibleSlugs, &after),
	)
	if !reflect.DeepEqual(after, []string{"go-http"}) {
		t.Errorf("back online, typed %q: page shows %v, want [go-http]", "http go", after)
	}
	// The browser logs the refused request itself, and any other request
	// the emulated outage cut (the favicon, when it had not loaded yet);
	// nothing else may fail.
	b.errors = slicesWithout(slicesWithout(b.errors, "api/posts.json"), "net::ERR_INTERNET_DISCONNECTED")
	b.checkNoErrors(t)
}

// Without JavaScript the directory is a plain list of every post.
func TestBrowserDirectoryWithoutJS(t *testing.T) {
	base := startFixture(t)
	b := newBrowser(t)
	var shown []string
	var formHidden bool
	b.run(t,
		emulation.SetScriptExecutionDisabled(true),
		chromedp.Navigate(base+"blog/"),
		chromedp.WaitReady(`[data-posts]`),
		eval(visibleSlugs, &shown),
		eval(`document.querySelector("form[data-search]").offsetParent === null`, &formHidden),
	)
	if len(shown) != 8 {
		t.Errorf("without JavaScript, %d posts shown, want 8: %v", len(shown), shown)
	}
	if !formHidden {
		t.Error("without JavaScript the search form, which cannot work, is shown")
	}
}

// webMCPProbe waits for the page's tool, calls it the way an agent's
// browser would, and returns the tool, its answer and the client's search.
const webMCPProbe = `(async () => {
  const mc = document.modelContext ?? navigator.modelContext;
  if (!mc) return { error: "no document.modelContext" };
  let tool;
  for (let i = 0; i < 100 && !tool; i++) {
    tool = (await mc.getTools()).find((t) => t.name === "search_blog_posts");
    if (!tool) await new Promise((r) => setTimeout(r, 50));
  }
  if (!tool) return { error: "search_blog_posts not registered" };
  const raw = await mc.executeTool(tool, { query: QUERY });
  const answer = typeof raw === "string" ? JSON.parse(raw) : raw;
  const m = await import(BASE + "sdk/blog-client.js");
  const found = await m.createClient(BASE).search(QUERY);
  const expected = found.map(({ title, url, markdownUrl, description, tags, date }) =>
    ({ title, url, markdownUrl, description, tags, date }));
  return {
    tool: { name: tool.name, description: tool.description, inputSchema: tool.inputSchema,
            readOnly: tool.annotations?.readOnlyHint === true },
    answer, expected,
  };
})()`

type webMCPResult struct {
	Error string
	Tool  struct {
		Name, Description string
		InputSchema       map[string]any
		ReadOnly          bool
	}
	Answer   map[string]json.RawMessage
	Expected json.RawMessage
}

func TestBrowserWebMCP(t *testing.T) {
	base := startFixture(t)
	b := newBrowser(t, "WebMCPTesting")
	for _, query := range []string{"http go", "HTTP", "order", "", "no such words"} {
		probe := strings.NewReplacer("QUERY", fmt.Sprintf("%q", query), "BASE", fmt.Sprintf("%q", base)).Replace(webMCPProbe)
		var res webMCPResult
		b.run(t, chromedp.Navigate(base+"blog/"), eval(probe, &res))
		if res.Error != "" {
			t.Fatalf("query %q: %s", query, res.Error)
		}
		if res.Tool.Name != "search_blog_posts" || !res.Tool.ReadOnly || res.Tool.Description == "" {
			t.Errorf("tool registered as %+v", res.Tool)
		}
		schema, _ := json.Marshal(res.Tool.InputSchema)
		if !strings.Contains(string(schema), `"required":["query"]`) || !strings.Contains(string(schema), `"query":{`) {
			t.Errorf("inputSchema %s", schema)
		}
		if len(res.Answer) != 1 || res.Answer["posts"] == nil {
			t.Errorf("query %q: answer has members %v, want only posts", query, keys(res.Answer))
		}
		var got, want []map[string]any
		json.Unmarshal(res.Answer["posts"], &got)
		json.Unmarshal(res.Expected, &want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("query %q: tool returned\n%s\nthe client's search\n%s", query, res.Answer["posts"], res.Expected)
		}
		if query == "http go" && len(got) != 1 {
			t.Errorf("query %q: %d posts, want 1", query, len(got))
		}
	}
	b.checkNoErrors(t)
}

// TestBrowserScreenshots saves the pages as PNG when FOLIO_SCREENSHOTS
// names a folder, in the light and the dark scheme, and checks that the
// article page loads without errors either way.
func TestBrowserScreenshots(t *testing.T) {
	dir := os.Getenv("FOLIO_SCREENSHOTS")
	if dir == "" {
		t.Skip("FOLIO_SCREENSHOTS not set")
	}
	base := startFixture(t)
	b := newBrowser(t)
	for _, scheme := range []string{"light", "dark"} {
		for name, path := range map[string]string{"home": "", "directory": "blog/", "article": "blog/go-http/", "bundle": "blog/trip/", "404": "nope"} {
			var png []byte
			b.run(t,
				emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}),
				chromedp.EmulateViewport(900, 1100),
				chromedp.Navigate(base+path),
				chromedp.WaitReady("main"),
				chromedp.FullScreenshot(&png, 100),
			)
			if err := os.WriteFile(filepath.Join(dir, name+"-"+scheme+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	b.errors = slicesWithout(b.errors, "404") // the 404 page's own status is logged
	b.checkNoErrors(t)
}

func slicesWithout(list []string, sub string) []string {
	var out []string
	for _, s := range list {
		if !strings.Contains(s, sub) {
			out = append(out, s)
		}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func keys(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
