package server

import (
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"folio/pipeline"
)

// TestSiteOwnAgentFiles: a Hugo site whose static/ holds a robots.txt,
// llms.txt or llms-full.txt gets it served byte for byte, as Hugo
// publishes it, folio adding nothing to it; without one, folio writes its
// own.
func TestSiteOwnAgentFiles(t *testing.T) {
	for _, tc := range []struct {
		path, own string
		folios    []string // what folio's own holds
	}{
		{"/robots.txt", "User-agent: *\nDisallow: /private/\n# mine, exactly\n", []string{"Content-Signal: ", "Sitemap: https://example.org/sitemap.xml"}},
		{"/llms.txt", "# My site\n\n> written by hand\n", []string{"# Robots", "(https://example.org/posts/hello.md)"}},
		{"/llms-full.txt", "# All of it, by hand\n", []string{"# Robots", "Hi."}},
	} {
		for _, withOwn := range []bool{true, false} {
			fsys := fstest.MapFS{
				"hugo.toml":              {Data: []byte("baseURL = \"https://example.org/\"\ntitle = \"Robots\"\n")},
				"content/posts/hello.md": {Data: []byte("---\ntitle: Hello\ndate: 2026-01-01\n---\nHi.\n")},
			}
			if withOwn {
				fsys["static"+tc.path] = &fstest.MapFile{Data: []byte(tc.own)}
			}
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
			resp, body := get(t, ts, "GET", tc.path)
			if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
				t.Fatalf("%s, static %v: %d %s", tc.path, withOwn, resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			if withOwn {
				if string(body) != tc.own {
					t.Errorf("the site's %s is not served as it is:\n%s", tc.path, body)
				}
				continue
			}
			for _, want := range tc.folios {
				if !strings.Contains(string(body), want) {
					t.Errorf("folio's %s lacks %q:\n%s", tc.path, want, body)
				}
			}
		}
	}
}
