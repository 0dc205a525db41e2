package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"folio/host"
)

// TestStaticNotFoundPage: a site's static/404.html (GitHub Pages'
// convention; Hugo 0.165 publishes it as it is) is the site's 404 page:
// check and build take it (they refused the site: "/404.html and
// /404.html both map to the file 404.html"), the export's 404.html is its
// bytes, and serve and dev answer every unknown page with it, /404.html
// too, with status 404 and without the theme's Content-Security-Policy,
// which its author did not write it for. API paths keep their
// problem+json.
func TestStaticNotFoundPage(t *testing.T) {
	dir := t.TempDir()
	const page = "<!doctype html><title>Lost</title><style>p{color:red}</style><p>Nothing here.</p>\n"
	write(t, dir, "hugo.toml", "baseURL = 'https://example.org/'\ntitle = 'Own 404'\n")
	write(t, dir, "content/posts/a.md", "---\ntitle: A\ndate: 2024-01-01T00:00:00Z\n---\nThe post.\n")
	write(t, dir, "static/404.html", page)

	if code, stdout, _ := runCLI(t, "check", "--source", dir); code != 0 || !strings.Contains(stdout, "1 post, 0 problems") {
		t.Errorf("check: exit %d, said\n%s", code, stdout)
	}
	out := filepath.Join(t.TempDir(), "public")
	if code, _, stderr := runCLI(t, "build", "--source", dir, "--out", out); code != 0 {
		t.Fatalf("build: exit %d, said\n%s", code, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(out, "404.html")); err != nil || string(b) != page {
		t.Errorf("export's 404.html = %.80q (%v), want the site's", b, err)
	}
	for _, dev := range []bool{false, true} {
		h, err := host.Load(host.Spec{Source: dir, Dev: dev})
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		for _, p := range []string{"/nope/", "/posts/none/", "/404.html"} {
			rec := httptest.NewRecorder()
			h.Server().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+p, nil))
			if rec.Code != http.StatusNotFound || rec.Body.String() != page || rec.Header().Get("Content-Security-Policy") != "" ||
				rec.Header().Get("Cache-Control") != "no-store" {
				t.Errorf("dev=%v %s: %d %v %.80q", dev, p, rec.Code, rec.Header(), rec.Body.String())
			}
		}
		rec := httptest.NewRecorder()
		h.Server().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://127.0.0.1/api/posts/none.json", nil))
		if rec.Code != http.StatusNotFound || !strings.Contains(rec.Header().Get("Content-Type"), "problem+json") {
			t.Errorf("dev=%v API 404: %d %s", dev, rec.Code, rec.Header().Get("Content-Type"))
		}
	}
}
