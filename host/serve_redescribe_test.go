package host

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

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
	swapped := make(chan *pipeline.Snapshot, 10)
	spec := Spec{Source: dir}.ForServe(false)
	spec.Swapped = func(s *pipeline.Snapshot) { swapped <- s }
	h := loadUnrun(t, spec)
	ts := httptest.NewServer(h.Server())
	defer ts.Close()
	hup := make(chan os.Signal, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); h.Run(ctx, hup) }()
	defer func() { cancel(); <-done }()
	reload := func() *pipeline.Snapshot {
		t.Helper()
		hup <- syscall.SIGHUP
		var next *pipeline.Snapshot
		select {
		case next = <-swapped:
		case <-time.After(devWait):
			t.Fatal("the reload was not applied")
		}
		for deadline := time.Now().Add(devWait); h.Snapshot() != next; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the reload was not made current")
			}
		}
		return next
	}
	if d := h.Snapshot().Post("p").Description; d != "Text HI-1 here." {
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
		resp, err := http.Get(ts.URL + path)
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
