package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
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
	nextSecond()                         // HTTP dates count seconds; the pages' first one is the start's
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
	nextSecond()
	s.Swap(build(t, site, pipeline.Options{}))
	for p := range changed {
		resp, _ := get(t, ts, "GET", p, "If-Modified-Since", after[p])
		if resp.StatusCode != 200 || !later(t, resp.Header.Get("Last-Modified"), after[p]) {
			t.Errorf("%s changed back: %d, Last-Modified %s (was %s)", p, resp.StatusCode, resp.Header.Get("Last-Modified"), after[p])
		}
		lm := resp.Header.Get("Last-Modified")
		if later(t, lm, resp.Header.Get("Date")) {
			t.Errorf("%s: Last-Modified %s is later than the answer's Date %s", p, lm, resp.Header.Get("Date"))
		}
		if resp, _ := get(t, ts, "GET", p, "If-Modified-Since", lm, "Accept-Encoding", "gzip"); resp.StatusCode != 304 {
			t.Errorf("%s: its own Last-Modified %s got %d, want 304", p, lm, resp.StatusCode)
		}
	}
}

// nextSecond waits for the clock's next whole second.
func nextSecond() { time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second))) }

// TestSettle: the record's rules with the clock given: new bytes get the
// time they were prepared, never a later one, not even for a second
// change within the same second; unchanged bytes keep theirs; an older
// snapshot's bytes do not overwrite a newer record; a clock that goes
// back does not take Last-Modified with it.
func TestSettle(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	content := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	rep := func(body string) *rep { // over 1 KiB, so it has a gzip form too
		return newRep("text/plain; charset=utf-8", []byte(strings.Repeat(body, 2000)), content)
	}
	var c changes
	steps := []struct {
		name string
		body string
		now  time.Time
		snap uint64
		want time.Time
	}{
		{"first sight: the content's date", "a", t0, 1, content},
		{"same bytes, later snapshot: kept", "a", t0.Add(5 * time.Second), 2, content},
		{"new bytes: when prepared", "b", t0.Add(7*time.Second + 400*time.Millisecond), 3, t0.Add(7 * time.Second)},
		{"new bytes in the same second: that second, not later", "c", t0.Add(7*time.Second + 900*time.Millisecond), 4, t0.Add(7 * time.Second)},
		{"an older snapshot's bytes: its own date, no record", "b", t0.Add(8 * time.Second), 3, content},
		{"the newer record stood", "c", t0.Add(9 * time.Second), 5, t0.Add(7 * time.Second)},
		{"clock gone back: not earlier", "d", t0.Add(2 * time.Second), 6, t0.Add(7 * time.Second)},
		{"next change: now", "e", t0.Add(20 * time.Second), 7, t0.Add(20 * time.Second)},
	}
	for _, st := range steps {
		got := c.settle("k", rep(st.body), st.now, st.snap)
		if !got.modified.Equal(st.want) || got.hdr.lastModified[0] != st.want.Format(http.TimeFormat) {
			t.Errorf("%s: Last-Modified %v (%q), want %v", st.name, got.modified, got.hdr.lastModified, st.want)
		}
		if len(got.encoded) != 1 {
			t.Fatalf("%s: %d compressed forms", st.name, len(got.encoded))
		}
		for _, e := range got.encoded {
			if e.hdr.lastModified[0] != got.hdr.lastModified[0] {
				t.Errorf("%s: %s form has Last-Modified %q", st.name, e.coding, e.hdr.lastModified)
			}
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

// TestFutureDateNoLastModified: a representation dated after the clock
// (a future post a site publishes, buildFuture) is sent without
// Last-Modified, the same in every process, rather than with a date
// later than the clock.
func TestFutureDateNoLastModified(t *testing.T) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	var c changes
	got := c.settle("/x/", newRep("text/html", []byte("x"), time.Date(2999, 1, 1, 0, 0, 0, 0, time.UTC)), now, 1)
	if !got.modified.IsZero() || got.hdr.lastModified != nil {
		t.Errorf("Last-Modified %v %q, want none", got.modified, got.hdr.lastModified)
	}
	past := c.settle("/y/", newRep("text/html", []byte("y"), now.Add(-time.Hour)), now, 1)
	if want := now.Add(-time.Hour).Format(http.TimeFormat); len(past.hdr.lastModified) != 1 || past.hdr.lastModified[0] != want {
		t.Errorf("a past date: Last-Modified %q, want %s", past.hdr.lastModified, want)
	}
}

// TestAssetsModifiedAtStart: the theme's assets, the client and robots.txt
// were last modified when the server started (Options.Started), not when
// New happened to run, so two servers of one site and one start answer
// alike whatever second each was made in.
func TestAssetsModifiedAtStart(t *testing.T) {
	s := newServer(t, build(t, sampleSite(), pipeline.Options{}), false)
	want := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC).Format(http.TimeFormat)
	for _, p := range []string{"/robots.txt", "/sdk/blog-client.js", "/healthz"} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		if got := rec.Header().Get("Last-Modified"); rec.Code != 200 || got != want {
			t.Errorf("GET %s: %d, Last-Modified %q, want 200 and %q", p, rec.Code, got, want)
		}
	}
}
