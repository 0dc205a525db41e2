package server

import (
	"bytes"
	"net/http/httptest"
	"strings"
	"testing"

	"folio/pipeline"
)

// TestRelease: releasing a post's page or Markdown URL drops its render
// and answers, which come back byte for byte on the next request; other
// paths, and posts that do not exist, are ignored.
func TestRelease(t *testing.T) {
	s, ts := startSite(t, generatedSite(3))
	page, md := "/blog/post-00001/", "/blog/post-00001.md"
	held := func() []string {
		st := s.current.Load()
		var keys []string
		for _, k := range []string{"page:post:blog/post-00001.md", "md:post:blog/post-00001.md"} {
			if _, ok := st.reps.Load(k); ok {
				keys = append(keys, k)
			}
		}
		if _, ok := st.renders().results.Load(st.snap.Post("post-00001")); ok {
			keys = append(keys, "render")
		}
		if v, ok := st.postKeys.Load(st.snap.Post("post-00001")); ok {
			if k := v.(*postKeys); k.pageRep.Load() != nil || k.mdRep.Load() != nil {
				keys = append(keys, "memo slots") // they hold the answers too
			}
		}
		return keys
	}
	_, html := get(t, ts, "GET", page)
	_, negotiated := get(t, ts, "GET", page, "Accept", "text/markdown")
	_, markdown := get(t, ts, "GET", md)
	if got := held(); len(got) != 4 {
		t.Fatalf("after serving the post: held %v, want its two answers, its render and the memo's slots", got)
	}
	for _, p := range []string{"/", "/blog/", "/blog/post-00001/x/", "/blog/%zz/", "/blog/nope/", "/api/posts.json", "/other/post-00001/", "/blog/post-00001", "/blog/post-00001.md/"} {
		s.Release(p)
	}
	if got := held(); len(got) != 4 {
		t.Fatalf("other paths released something: held %v", got)
	}
	for _, p := range []string{page, md} {
		s.Release(p)
		if got := held(); len(got) != 0 {
			t.Fatalf("after Release(%s): still held %v", p, got)
		}
		for _, c := range []struct {
			path, accept string
			want         []byte
		}{{page, "", html}, {page, "text/markdown", negotiated}, {md, "", markdown}} {
			resp, body := get(t, ts, "GET", c.path, "Accept", c.accept)
			if resp.StatusCode != 200 || !bytes.Equal(body, c.want) {
				t.Errorf("after Release(%s), %s (Accept %q): %d, %d bytes; want the same %d bytes", p, c.path, c.accept, resp.StatusCode, len(body), len(c.want))
			}
		}
	}
}

// TestReleaseBundleFile: releasing a bundle file's URL drops its answer
// (kept in memory up to maxMemoResource) and nothing of the post.
func TestReleaseBundleFile(t *testing.T) {
	s, ts := startSite(t, sampleSite())
	st := s.current.Load()
	var p *pipeline.Post
	for _, q := range st.snap.Posts() {
		if len(q.Resources) > 0 {
			p = q
			break
		}
	}
	if p == nil {
		t.Fatal("the fixture has no page bundle")
	}
	file := p.Resources[0]
	urlPath := "/" + st.snap.URLOf(p) + escapePath(file)
	resp, body := get(t, ts, "GET", urlPath)
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %d", urlPath, resp.StatusCode)
	}
	get(t, ts, "GET", "/"+st.snap.URLOf(p))
	key := "file:" + p.Bundle + "/" + file
	if _, ok := st.reps.Load(key); !ok {
		t.Fatalf("%s not memoised", key)
	}
	s.Release(urlPath)
	if _, ok := st.reps.Load(key); ok {
		t.Errorf("Release(%s) kept %s", urlPath, key)
	}
	if _, ok := st.reps.Load("page:" + postKey(p)); !ok {
		t.Errorf("Release(%s) dropped the post's page", urlPath)
	}
	if resp, again := get(t, ts, "GET", urlPath); resp.StatusCode != 200 || !bytes.Equal(again, body) {
		t.Errorf("after Release, %s: %d, %d bytes; want the same %d bytes", urlPath, resp.StatusCode, len(again), len(body))
	}
}

// TestNewRoutesAnySection: the route table does not depend on the
// section (the site's pages are found by lookup), so a section named as
// one of folio's routes, even one Validate refuses, neither fails nor
// panics, and folio's own route still answers there.
func TestNewRoutesAnySection(t *testing.T) {
	for _, sec := range []string{"rss.xml", "llms.txt", "sitemap.xml", "openapi.json", "healthz", "static", "{x}", "rss", "notes.md", "posts"} {
		cfg := fixtureConfig(t)
		cfg.Section = sec // as if Validate had missed it
		snap, err := pipeline.Build(sampleSite(), cfg, pipeline.Options{}, fixtureNow)
		if err != nil {
			t.Fatal(err)
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("section %q: New panicked: %v", sec, r)
				}
			}()
			s, err := New(snap, Options{Site: testSite()})
			if err != nil {
				t.Errorf("section %q: %v", sec, err)
				return
			}
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, httptest.NewRequest("GET", "/rss.xml", nil))
			if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/rss+xml") {
				t.Errorf("section %q: /rss.xml answers %d %s", sec, rec.Code, rec.Header().Get("Content-Type"))
			}
		}()
	}
}

// TestReleaseSiteWide: the answers made of every post (the directory and
// its Markdown, posts.json, the cursor pages, llms.txt, llms-full.txt,
// the sitemap) are dropped when their path is released, and come back
// byte for byte; the home page is kept.
func TestReleaseSiteWide(t *testing.T) {
	s, ts := startSite(t, generatedSite(60))
	st := s.current.Load()
	var cursor string
	for _, p := range s.ExportPaths() {
		if strings.HasPrefix(p, "/api/posts/cursor/") {
			cursor = p
			break
		}
	}
	if cursor == "" {
		t.Fatal("no cursor page exported")
	}
	token := strings.TrimSuffix(strings.TrimPrefix(cursor, "/api/posts/cursor/"), ".json")
	for _, c := range []struct {
		path   string
		keys   []any
		accept string
	}{
		{"/blog/", []any{"page:directory", "md:directory"}, "text/markdown"},
		{"/blog.md", []any{"md:directory"}, ""},
		{"/api/posts.json", []any{"posts.json"}, ""},
		{cursor, []any{issuedCursors(st)[token]}, ""},
		{"/llms.txt", []any{"llms.txt"}, ""},
		{"/llms-full.txt", []any{"llms-full.txt"}, ""},
		{"/sitemap.xml", []any{"sitemap.xml"}, ""},
	} {
		_, plain := get(t, ts, "GET", c.path)
		var other []byte
		if c.accept != "" {
			_, other = get(t, ts, "GET", c.path, "Accept", c.accept)
		}
		for _, k := range c.keys {
			if _, ok := st.reps.Load(k); !ok {
				t.Fatalf("%s: %v not memoised", c.path, k)
			}
		}
		s.Release(c.path)
		for _, k := range c.keys {
			if _, ok := st.reps.Load(k); ok {
				t.Errorf("Release(%s) kept %v", c.path, k)
			}
		}
		if resp, again := get(t, ts, "GET", c.path); resp.StatusCode != 200 || !bytes.Equal(again, plain) {
			t.Errorf("after Release, %s: %d, %d bytes; want the same %d bytes", c.path, resp.StatusCode, len(again), len(plain))
		}
		if c.accept != "" {
			if _, again := get(t, ts, "GET", c.path, "Accept", c.accept); !bytes.Equal(again, other) {
				t.Errorf("after Release, %s (Accept %s): %d bytes; want the same %d", c.path, c.accept, len(again), len(other))
			}
		}
	}
	get(t, ts, "GET", "/")
	s.Release("/")
	if _, ok := st.reps.Load("page:home"); !ok {
		t.Error(`Release("/") dropped the home page`)
	}
}
