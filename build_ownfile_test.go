package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"folio/host"
	"folio/internal/hugotest"
)

// TestStaticFileAtAnOwnURL: a site's static file at one of folio's own
// URLs (static/openapi.json, rss.xml, api/posts.json, sitemap.xml, the
// home's index.md, …) is published by Hugo 0.165, but CONTRACT fixes what
// those routes answer (its routes table, "/rss.xml stays as the posts
// feed", the API catalog's service-desc), so folio keeps its own answer
// and warns at the file, the same in check, build (the export holds
// folio's), serve and dev. robots.txt and llms.txt are the site's own
// where it has them (no warning); another static file is simply served.
// (All of them were replaced silently.)
func TestStaticFileAtAnOwnURL(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "hugo.toml", "baseURL = 'https://example.org/'\ntitle = 'Own'\n")
	write(t, dir, "content/posts/a.md", "---\ntitle: A\ndate: 2024-01-01T00:00:00Z\n---\nThe post.\n")
	own := []string{"openapi.json", "rss.xml", "api/posts.json", "api/posts/cursor/0.json", "sitemap.xml", "index.md",
		".well-known/api-catalog", "sdk/blog-client.js", "healthz", "api/index.html"}
	for _, name := range own {
		write(t, dir, "static/"+name, "the author's "+name+"\n")
	}
	write(t, dir, "static/llms.txt", "the author's llms.txt\n")
	write(t, dir, "static/data.json", "the author's data.json\n")
	var want []string
	for _, name := range own {
		want = append(want, filepath.Join(dir, "static", name)+":1: warning: /"+name+" is one of folio's own URLs")
	}

	code, stdout, _ := runCLI(t, "check", "--source", dir, "-v")
	for _, w := range want {
		if !strings.Contains(stdout, w) {
			t.Errorf("check does not say\n%s", w)
		}
	}
	if code != 0 || strings.Count(stdout, "one of folio's own URLs") != len(own) {
		t.Errorf("check: exit %d, said\n%s\nwant exit 0 and %d warnings", code, stdout, len(own))
	}
	out := filepath.Join(t.TempDir(), "public")
	code, _, stderr := runCLI(t, "build", "--source", dir, "--out", out)
	if code != 0 || strings.Count(stderr, "one of folio's own URLs") != len(own) {
		t.Fatalf("build: exit %d, said\n%s\nwant exit 0 and %d warnings", code, stderr, len(own))
	}
	for _, name := range []string{"openapi.json", "rss.xml", "api/posts.json", "sitemap.xml", "index.md", "api/index.html"} {
		if b, err := os.ReadFile(filepath.Join(out, name)); err != nil || strings.Contains(string(b), "the author's") {
			t.Errorf("export's %s = %.60q (%v), want folio's", name, b, err)
		}
	}
	for _, name := range []string{"llms.txt", "data.json"} {
		if b, err := os.ReadFile(filepath.Join(out, name)); err != nil || string(b) != "the author's "+name+"\n" {
			t.Errorf("export's %s = %.60q (%v), want the site's file", name, b, err)
		}
	}

	for _, dev := range []bool{false, true} {
		h, err := host.Load(host.Spec{Source: dir, Dev: dev})
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		n := 0
		for _, p := range h.Snapshot().Problems() {
			if strings.Contains(p.Message, "one of folio's own URLs") {
				n++
			}
		}
		if n != len(own) {
			t.Errorf("dev=%v: the snapshot has %d warnings of folio's own URLs, want %d: %v", dev, n, len(own), h.Snapshot().Problems())
		}
		for _, p := range []string{"/openapi.json", "/rss.xml", "/llms.txt", "/data.json"} {
			rec := httptest.NewRecorder()
			h.Server().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+p, nil))
			site := strings.HasPrefix(rec.Body.String(), "the author's")
			if rec.Code != http.StatusOK || site != (p == "/llms.txt" || p == "/data.json") {
				t.Errorf("dev=%v %s: %d %.60q", dev, p, rec.Code, rec.Body.String())
			}
		}
	}

	// Hugo publishes every one of them as it is.
	bin := hugotest.Binary(t)
	hugoOut := filepath.Join(t.TempDir(), "public")
	cmd := exec.Command(bin, "--quiet", "--source", dir, "--destination", hugoOut, "--cacheDir", t.TempDir())
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hugo: %v\n%s", err, msg)
	}
	for _, name := range []string{"openapi.json", "api/posts.json", "index.md", "healthz"} {
		if b, err := os.ReadFile(filepath.Join(hugoOut, name)); err != nil || string(b) != "the author's "+name+"\n" {
			t.Errorf("Hugo's %s = %.60q (%v), want the static file", name, b, err)
		}
	}
}
