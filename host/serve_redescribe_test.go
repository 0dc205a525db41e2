package host

import (
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"folio/pipeline"
)

// TestReloadRedescribes: a SIGHUP after a Hugo site's shortcode template
// changed describes the posts again with it, so that their descriptions
// (meta tags, the feed, posts.json, llms.txt) agree with their bodies; a
// SIGHUP that changes nothing describes none again. (The description
// function was made once at start, and reloads kept it: the body showed
// the new template, everything made of the summary the old one.)
func TestReloadRedescribes(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"hugo.toml":                   "baseURL = 'https://example.org/'\ntitle = 'T'\n",
		"content/posts/p.md":          "---\ntitle: P\ndate: 2024-01-02\n---\nText {{< hi >}} here.\n",
		"content/posts/own.md":        "---\ntitle: Own\ndate: 2024-01-01\ndescription: Its own {{< hi >}}\n---\nMore {{< hi >}}.\n",
		"layouts/_shortcodes/hi.html": "HI-1",
	})
	srv := startServing(t, Spec{Source: dir}.ForServe(false))
	reload := func() *pipeline.Snapshot {
		t.Helper()
		srv.hup <- syscall.SIGHUP
		return srv.applied(t)
	}
	if d := srv.h.Snapshot().Post("p").Description; d != "Text HI-1 here." {
		t.Fatalf("description at start %q, want the template's HI-1", d)
	}

	writeFile(t, filepath.Join(dir, "layouts/_shortcodes/hi.html"), "HI-2")
	s := reload()
	if d := s.Post("p").Description; d != "Text HI-2 here." {
		t.Errorf("description after the reload %q, want the new template's HI-2", d)
	}
	if d := s.Post("own").Description; d != "Its own {{< hi >}}" {
		t.Errorf("own description %q, want the front matter's", d)
	}
	for _, path := range []string{"/posts/p/", "/api/posts.json", "/rss.xml", "/llms.txt"} {
		resp, err := http.Get(srv.url + path)
		must(t, err)
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		must(t, err)
		if body := string(b); !strings.Contains(body, "Text HI-2 here.") || strings.Contains(body, "HI-1") {
			t.Errorf("%s does not show the new template's description alone:\n%s", path, body)
		}
	}

	if again := reload(); again.Post("p") != s.Post("p") {
		t.Error("a reload that changed nothing described the post again")
	}
}
