package server

import (
	"net/url"
	"strings"
	"testing"

	"folio/pipeline"
)

// TestPatternMatch: a row's pattern against request paths as sent: a
// segment wildcard never spans a slash, escaped or not, a rest wildcard
// takes slashes, literals match however their letters were escaped, and
// values come out unescaped.
func TestPatternMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, target string
		lookup          bool
		value           string
		ok              bool
	}{
		{"/rss.xml", "/rss.xml", false, "", true},
		{"/rss.xml", "/rss%2Exml", false, "", true},
		{"/rss.xml", "/rss.xml/", false, "", false},
		{"/api/posts.json", "/api%2Fposts.json", false, "", false},
		{"/api/posts/cursor/{cursor}.json", "/api/posts/cursor/0.json", false, "0", true},
		{"/api/posts/cursor/{cursor}.json", "/api/posts/cursor/a%2Fb.json", false, "a/b", true},
		{"/api/posts/cursor/{cursor}.json", "/api/posts/cursor/a/b.json", false, "", false},
		{"/api/posts/cursor/{cursor}.json", "/api/posts/cursor/.json", false, "", true},
		{"/api/posts/cursor/{cursor}.json", "/api/posts/cursor/", false, "", false},
		{"/api/posts/cursor/{cursor}.json", "/api/posts/cursor/0", false, "", false},
		{"/api/posts/cursor/{cursor}.json", "/api/posts/cursor/100%25.json", false, "100%", true},
		{"/static/{asset...}", "/static/css/a.css", false, "css/a.css", true},
		{"/static/{asset...}", "/static/a%2Fb.css", false, "a/b.css", true},
		{"/static/{asset...}", "/static/", false, "", true},
		{"/static/{asset...}", "/static", false, "", false},
		{"/{path...}.md", "/x/y.md", false, "x/y", true},
		{"/{path...}.md", "/x/y.md/", false, "", false},
		{"/blog/{slug}/{file}", "/blog/trip/photo.svg", true, "trip/photo.svg", true},
		{"/blog/{slug}/{file}", "/blog/trip%2Fphoto.svg", true, "trip/photo.svg", true},
		{"/blog/{slug}/", "/%62log/x/", true, "x/", true},
		{"/blog/{slug}/", "/blog/100%25/", true, "100%/", true},
		{"/blog/{slug}/", "/blogs/x/", true, "", false},
	} {
		u, err := url.ParseRequestURI(tc.target)
		if err != nil {
			t.Fatal(err)
		}
		rp := routingPathOf(u)
		v, ok := compilePattern(tc.pattern, tc.lookup).match(rp)
		v = rp.unescape(v)
		if v != tc.value || ok != tc.ok {
			t.Errorf("%s against %s: %q %v, want %q %v", tc.pattern, tc.target, v, ok, tc.value, tc.ok)
		}
	}
}

// TestTableRows: what the table promises its readers (the OpenAPI
// document, the export, a static host's config).
func TestTableRows(t *testing.T) {
	for _, dev := range []bool{false, true} {
		tb, err := newTable(dev)
		if err != nil {
			t.Fatal(err)
		}
		last := tb.rows[len(tb.rows)-1]
		if last.Kind != KindNotFound || last.Path != "/{path...}" {
			t.Errorf("the last row is %s, want the one that refuses every path", last.Path)
		}
		for _, rt := range tb.rows {
			switch {
			case rt.serve == nil:
				t.Errorf("%s: no handler", rt.Path)
			case rt.Dev && !dev:
				t.Errorf("%s: a dev row in serve's table", rt.Path)
			case rt.Negotiates != (len(rt.Types) == 2):
				t.Errorf("%s: Negotiates %v with types %v", rt.Path, rt.Negotiates, rt.Types)
			case rt.Export != ExportNone && rt.pat.wild != wildNone && rt.list == nil:
				t.Errorf("%s: exported, but nothing lists its paths", rt.Path)
			case rt.Doc != nil && (rt.Dev || rt.Kind == KindNotFound || rt.Kind == KindRedirect || rt.Kind == KindAlias):
				t.Errorf("%s: documented, but it is not a resource", rt.Path)
			case rt.Doc == nil && !rt.Dev && len(rt.Types) > 0:
				t.Errorf("%s: a resource the OpenAPI document leaves out", rt.Path)
			}
		}
	}
}

// TestSwapMovesRoutes: a snapshot of another section brings its routes
// with it; the server and its Last-Modified record stay. The other
// section's pages stay, as every section's do in a Hugo site, but the
// posts are the new section's.
func TestSwapMovesRoutes(t *testing.T) {
	s, ts := startSite(t, sampleSite())
	if resp, _ := get(t, ts, "GET", "/blog/hello-world/"); resp.StatusCode != 200 {
		t.Fatalf("before: %d", resp.StatusCode)
	}
	cfg := fixtureConfig(t)
	cfg.Section = "notes"
	fsys := sampleSite()
	fsys["notes/elsewhere.md"] = fsys["blog/quiet.md"]
	snap, err := pipeline.Build(fsys, cfg, pipeline.Options{}, fixtureNow)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Swap(snap); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]int{"/notes/elsewhere/": 200, "/notes.md": 200, "/notes": 301, "/blog/hello-world/": 200, "/blog/": 200, "/blog/nope/": 404} {
		if resp, _ := get(t, ts, "GET", path); resp.StatusCode != want {
			t.Errorf("after the move, %s: %d, want %d", path, resp.StatusCode, want)
		}
	}
	if _, body := get(t, ts, "GET", "/api/posts.json"); !strings.Contains(string(body), "/notes/elsewhere/") || strings.Contains(string(body), "hello-world") {
		t.Errorf("posts after the move: %s", body)
	}
	cfg = fixtureConfig(t)
	cfg.Section = "static" // as if Validate had missed it: folio's own rows still answer first
	shadowed, err := pipeline.Build(fsys, cfg, pipeline.Options{}, fixtureNow)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Swap(shadowed); err != nil {
		t.Fatal(err)
	}
	if resp, _ := get(t, ts, "GET", "/static/style.css"); resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/css; charset=utf-8" {
		t.Errorf("/static/style.css with a section named static: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}
