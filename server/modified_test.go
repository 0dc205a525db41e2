package server

import (
	"net/http/httptest"
	"testing"
	"testing/fstest"
	"time"

	"folio/pipeline"
)

// TestLastModifiedAcrossSwaps: after a reload, a representation whose bytes
// changed gets a later Last-Modified even when the content's dates did
// not move (a body edited without lastmod, a post removed), so the old
// If-Modified-Since is a 200; one whose bytes did not change keeps its
// Last-Modified and still revalidates with a 304.
func TestLastModifiedAcrossSwaps(t *testing.T) {
	site := generatedSite(6)
	s := newServer(t, build(t, site, pipeline.Options{}), false)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)

	paths := []string{"/blog/post-00001.md", "/blog/post-00001/", "/blog/post-00000.md", "/blog/post-00000/", "/api/posts.json", "/rss.xml", "/llms.txt", "/sitemap.xml"}
	before := map[string]string{}
	for _, p := range paths {
		resp, _ := get(t, ts, "GET", p)
		before[p] = resp.Header.Get("Last-Modified")
		if before[p] == "" {
			t.Fatalf("%s: no Last-Modified", p)
		}
	}

	edited := fstest.MapFS{}
	for name, f := range site {
		edited[name] = f
	}
	edited["blog/post-00001.md"] = &fstest.MapFile{Data: append([]byte(nil), site["blog/post-00001.md"].Data...)}
	edited["blog/post-00001.md"].Data = append(edited["blog/post-00001.md"].Data, "An edit, with no lastmod.\n"...)
	delete(edited, "blog/post-00004.md") // an older post: the newest date stays
	s.Swap(build(t, edited, pipeline.Options{}))

	changed := map[string]bool{"/blog/post-00001.md": true, "/blog/post-00001/": true, "/api/posts.json": true, "/rss.xml": true, "/llms.txt": true, "/sitemap.xml": true}
	after := map[string]string{}
	for _, p := range paths {
		resp, _ := get(t, ts, "GET", p, "If-Modified-Since", before[p])
		after[p] = resp.Header.Get("Last-Modified")
		switch {
		case changed[p] && resp.StatusCode != 200:
			t.Errorf("%s changed: If-Modified-Since %s got %d, want 200", p, before[p], resp.StatusCode)
		case changed[p] && !later(t, after[p], before[p]):
			t.Errorf("%s changed: Last-Modified %s, not later than %s", p, after[p], before[p])
		case !changed[p] && (resp.StatusCode != 304 || after[p] != before[p]):
			t.Errorf("%s unchanged: %d, Last-Modified %s (was %s); want 304 and the same", p, resp.StatusCode, after[p], before[p])
		}
	}

	// Back to the first content: new bytes again, so later again; and the
	// Last-Modified just sent revalidates until the next change.
	s.Swap(build(t, site, pipeline.Options{}))
	for p := range changed {
		resp, _ := get(t, ts, "GET", p, "If-Modified-Since", after[p])
		if resp.StatusCode != 200 || !later(t, resp.Header.Get("Last-Modified"), after[p]) {
			t.Errorf("%s changed back: %d, Last-Modified %s (was %s)", p, resp.StatusCode, resp.Header.Get("Last-Modified"), after[p])
		}
		lm := resp.Header.Get("Last-Modified")
		if resp, _ := get(t, ts, "GET", p, "If-Modified-Since", lm, "Accept-Encoding", "gzip"); resp.StatusCode != 304 {
			t.Errorf("%s: its own Last-Modified %s got %d, want 304", p, lm, resp.StatusCode)
		}
	}
}

func later(t *testing.T, a, b string) bool {
	t.Helper()
	ta, err1 := time.Parse(time.RFC1123, a)
	tb, err2 := time.Parse(time.RFC1123, b)
	if err1 != nil || err2 != nil {
		t.Fatalf("dates %q %q", a, b)
	}
	return ta.After(tb)
}
