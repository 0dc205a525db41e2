package server

import (
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"folio/pipeline"
)

// TestSiteRobots: a Hugo site whose static/ holds a robots.txt gets it
// served byte for byte, folio adding nothing to it; without one, folio
// writes its own.
func TestSiteRobots(t *testing.T) {
	const own = "User-agent: *\nDisallow: /private/\n# mine, exactly\n"
	site := func(withRobots bool) fstest.MapFS {
		fsys := fstest.MapFS{
			"hugo.toml":              {Data: []byte("baseURL = \"https://example.org/\"\ntitle = \"Robots\"\n")},
			"content/posts/hello.md": {Data: []byte("---\ntitle: Hello\ndate: 2026-01-01\n---\nHi.\n")},
		}
		if withRobots {
			fsys["static/robots.txt"] = &fstest.MapFile{Data: []byte(own)}
		}
		return fsys
	}
	for _, withRobots := range []bool{true, false} {
		fsys := site(withRobots)
		cfg, err := pipeline.LoadSite(pipeline.SiteOptions{FS: fsys})
		if err != nil {
			t.Fatal(err)
		}
		snap, err := pipeline.Build(fsys, cfg, pipeline.Options{}, time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(newServer(t, snap, false))
		t.Cleanup(ts.Close)
		resp, body := get(t, ts, "GET", "/robots.txt")
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
			t.Fatalf("static robots.txt %v: %d %s", withRobots, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		switch {
		case withRobots && string(body) != own:
			t.Errorf("the site's robots.txt is not served as it is:\n%s", body)
		case !withRobots && !strings.Contains(string(body), "Content-Signal: ") || !withRobots && !strings.Contains(string(body), "Sitemap: https://example.org/sitemap.xml"):
			t.Errorf("folio's robots.txt:\n%s", body)
		}
	}
}
