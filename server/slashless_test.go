package server

import (
	"net/http/httptest"
	"os"
	"slices"
	"testing"

	"folio/pipeline"
)

// TestStaticFolderSlashless: a static folder's name without its final
// slash (/report for static/report/index.html) redirects to the folder,
// as nginx, GitHub Pages, Netlify and hugo server answer it and as a
// page's URL without its slash does, in serve and dev; the export lists
// it among its redirects, so that the nginx config and the Worker answer
// it too. A static folder without an index.html stays a 404.
func TestStaticFolderSlashless(t *testing.T) {
	dir := "../pipeline/testdata/sites/blog"
	cfg, err := pipeline.LoadSite(pipeline.SiteOptions{Source: dir, Environment: "production"})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := pipeline.Build(os.DirFS(dir), cfg, pipeline.Options{Root: dir}, fixtureNow)
	if err != nil {
		t.Fatal(err)
	}
	for _, dev := range []bool{false, true} {
		s := newServer(t, snap, dev)
		ts := httptest.NewServer(s)
		t.Cleanup(ts.Close)
		for _, c := range []struct {
			path     string
			status   int
			location string
		}{
			{"/report", 301, "https://example.org/report/"},
			{"/report/run", 301, "https://example.org/report/run/"},
			{"/report/", 200, ""},
			{"/app", 404, ""},
		} {
			resp, _ := get(t, ts, "GET", c.path)
			if resp.StatusCode != c.status || resp.Header.Get("Location") != c.location {
				t.Errorf("dev=%v %s: %d to %q, want %d to %q", dev, c.path, resp.StatusCode, resp.Header.Get("Location"), c.status, c.location)
			}
		}
		if dev {
			continue
		}
		redirects := s.ExportRedirects()
		for _, p := range []string{"/report", "/report/run"} {
			if !slices.Contains(redirects, p) {
				t.Errorf("ExportRedirects lacks %s: %q", p, redirects)
			}
		}
		if slices.Contains(redirects, "/app") {
			t.Errorf("ExportRedirects lists /app, a folder without an index.html")
		}
	}
}
