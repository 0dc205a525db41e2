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

// TestStaticFileAtATwinPath: a site's static file at the path of a
// page's Markdown twin (static/posts/a.md beside content/posts/a.md) is
// what Hugo 0.165 publishes there, the author's file. check, build and
// serve agree: one warning at the static file, the export's posts/a.md
// is Hugo's (the file), and serve answers the file at /posts/a.md and
// for Accept: text/markdown on /posts/a/. (build refused the site with
// no file named; check said nothing; serve gave two Markdowns of a.)
func TestStaticFileAtATwinPath(t *testing.T) {
	const static = "# The author's own a.md\n"
	dir := t.TempDir()
	write(t, dir, "hugo.toml", "baseURL = 'https://example.org/'\ntitle = 'Twins'\n")
	write(t, dir, "content/posts/a.md", "---\ntitle: A\ndate: 2024-01-01T00:00:00Z\n---\nThe post.\n")
	write(t, dir, "content/posts/b.md", "---\ntitle: B\ndate: 2024-01-02T00:00:00Z\n---\nAnother.\n")
	write(t, dir, "static/posts/a.md", static)
	want := filepath.Join(dir, "static/posts/a.md") + ":1: warning: /posts/a.md is the URL of the Markdown of /posts/a/ (" + filepath.Join(dir, "content/posts/a.md") + ")"

	code, stdout, _ := runCLI(t, "check", "--source", dir)
	if code != 0 || !strings.Contains(stdout, want) || !strings.HasSuffix(stdout, "2 posts, 0 problems, 1 warning\n") {
		t.Errorf("check: exit %d, said\n%s\nwant exit 0 and one warning:\n%s", code, stdout, want)
	}
	out := filepath.Join(t.TempDir(), "public")
	code, _, stderr := runCLI(t, "build", "--source", dir, "--out", out)
	if code != 0 || !strings.Contains(stderr, want) {
		t.Fatalf("build: exit %d, said\n%s\nwant exit 0 and\n%s", code, stderr, want)
	}
	got, err := os.ReadFile(filepath.Join(out, "posts/a.md"))
	if err != nil || string(got) != static {
		t.Errorf("export's posts/a.md = %q (%v), want the static file %q", got, err, static)
	}
	if b, err := os.ReadFile(filepath.Join(out, "posts/b.md")); err != nil || !strings.Contains(string(b), "Another.") {
		t.Errorf("export's posts/b.md = %q (%v), want b's twin", b, err)
	}

	h, err := host.Load(host.Spec{Source: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, c := range []struct{ path, accept string }{{"/posts/a.md", ""}, {"/posts/a/", "text/markdown"}} {
		req := httptest.NewRequest(http.MethodGet, "http://example.org"+c.path, nil)
		if c.accept != "" {
			req.Header.Set("Accept", c.accept)
		}
		rec := httptest.NewRecorder()
		h.Server().ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || rec.Body.String() != static {
			t.Errorf("serve: %s (Accept %q) answers %d %q, want the static file", c.path, c.accept, rec.Code, rec.Body.String())
		}
	}

	// Hugo publishes the static file there.
	bin := hugotest.Binary(t)
	hugoOut := filepath.Join(t.TempDir(), "public")
	cmd := exec.Command(bin, "--quiet", "--source", dir, "--destination", hugoOut, "--cacheDir", t.TempDir())
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hugo: %v\n%s", err, msg)
	}
	if h, err := os.ReadFile(filepath.Join(hugoOut, "posts/a.md")); err != nil || string(h) != string(got) {
		t.Errorf("Hugo's posts/a.md = %q (%v), folio's %q", h, err, got)
	}
}
