package site_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"folio/internal/cdp"
)

// The browser tests drive Debian's headless Chromium over the DevTools
// protocol (folio/internal/cdp) against the real server. They run in CI;
// elsewhere they are skipped when there is no Chromium. With
// FOLIO_SCREENSHOTS=DIR they also save PNG screenshots of the directory
// and an article, light and dark, for a look at the design.

// TestMain stops the browsers the tests shared.
func TestMain(m *testing.M) {
	code := m.Run()
	cdp.CloseShared()
	os.Exit(code)
}

// newBrowser is the package's Chromium with the given features, shared by
// the tests that ask for the same (see cdp.Shared).
func newBrowser(t *testing.T, features ...string) *cdp.Browser {
	t.Helper()
	return cdp.Shared(t, cdp.Options{Features: features})
}

// statusSet is true once the search has said something.
const statusSet = `document.querySelector("#search-status").textContent !== ""`

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
		tab := b.Open(base + "blog/")
		tab.WaitTrue("the search form", `!document.querySelector("form[data-search]").hidden`) // shown by the script
		tab.MustEval(visibleSlugs, &before)
		tab.Type("#search-query", tc.query)
		tab.WaitTrue("the search status", statusSet)
		tab.MustEval(visibleSlugs, &after)
		status := tab.String(`document.querySelector("#search-status").textContent`)
		tab.MustEval(clientSearch(base, tc.query), &client)
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
	b.Open(base+"blog/").MustEval(`document.modelContext === undefined && navigator.modelContext === undefined`, &noWebMCP)
	if !noWebMCP {
		t.Log("this Chromium has WebMCP without the flag; the no-WebMCP path is not exercised")
	}
	b.CheckNoErrors(t)
}

// When /api/posts.json cannot be fetched, the status line says so in a
// plain sentence, the detail goes to console.warn (not console.error), once
// per failed search, and the next keystroke tries again.
func TestBrowserDirectorySearchUnavailable(t *testing.T) {
	base := startFixture(t)
	b := newBrowser(t)
	var warnings, after []string
	tab := b.Open(base + "blog/")
	tab.WaitTrue("the search form", `!document.querySelector("form[data-search]").hidden`)
	// The page's warnings, kept for the test to read.
	tab.MustEval(`(() => { window.folioWarnings = []; const warn = console.warn;
		console.warn = (...a) => { window.folioWarnings.push(a.map(String).join(" ")); warn.apply(console, a); }; return true; })()`, nil)
	tab.Offline(true)
	// One input event, so one search runs: typed key by key, each key
	// starts a search, and how many of them fail before the next key
	// (each failure warns) depends on timing the test does not control.
	tab.MustEval(`(() => { const q = document.querySelector("#search-query"); q.value = "http";
		q.dispatchEvent(new Event("input")); return true; })()`, nil)
	tab.WaitTrue("the search status", statusSet)
	status := tab.String(`document.querySelector("#search-status").textContent`)
	tab.MustEval(`window.folioWarnings`, &warnings)
	if status != "Search is unavailable right now." {
		t.Errorf("offline, the status line says %q", status)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], base+"api/posts.json") {
		t.Errorf("offline, console.warn got %q, want one warning naming %sapi/posts.json", warnings, base)
	}

	tab.Offline(false)
	tab.Type("#search-query", " go")
	// The first request after the emulation ends may wait for Chromium's
	// network service: WaitTrue is generous.
	tab.WaitTrue("one match", `document.querySelector("#search-status").textContent === "1 post matches."`)
	tab.MustEval(visibleSlugs, &after)
	if !reflect.DeepEqual(after, []string{"go-http"}) {
		t.Errorf("back online, typed %q: page shows %v, want [go-http]", "http go", after)
	}
	// The browser logs the refused request itself, and any other request
	// the emulated outage cut (the favicon, when it had not loaded yet);
	// nothing else may fail.
	b.CheckNoErrors(t, "api/posts.json", "net::ERR_INTERNET_DISCONNECTED")
}

// Without JavaScript the directory is a plain list of every post.
func TestBrowserDirectoryWithoutJS(t *testing.T) {
	base := startFixture(t)
	b := newBrowser(t)
	var shown []string
	var formHidden bool
	tab := b.Open("about:blank")
	tab.MustCall("Emulation.setScriptExecutionDisabled", map[string]any{"value": true})
	tab.Navigate(base + "blog/")
	tab.MustEval(visibleSlugs, &shown)
	tab.MustEval(`document.querySelector("form[data-search]").offsetParent === null`, &formHidden)
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
		b.Open(base+"blog/").MustEval(probe, &res)
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
	b.CheckNoErrors(t)
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
			tab := b.Open("about:blank")
			tab.MustCall("Emulation.setEmulatedMedia", map[string]any{"features": []map[string]string{{"name": "prefers-color-scheme", "value": scheme}}})
			tab.MustCall("Emulation.setDeviceMetricsOverride", map[string]any{"width": 900, "height": 1100, "deviceScaleFactor": 1, "mobile": false})
			tab.Navigate(base + path)
			png := tab.Screenshot()
			if err := os.WriteFile(filepath.Join(dir, name+"-"+scheme+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	b.CheckNoErrors(t, "404") // the 404 page's own status is logged
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
