package server

import (
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"folio/pipeline"
)

// exportFixture is the sample site plus a post with a slug that must be
// escaped and aliases, one of them inside the section.
func exportFixture() fstest.MapFS {
	fsys := sampleSite()
	fsys["blog/moved.md"] = &fstest.MapFile{Data: []byte("---\ntitle: Moved\ndate: 2026-04-01T00:00:00Z\nslug: café au lait\naliases: [/old/moved/, /blog/previous, \"\"]\n---\nMoved here.\n")}
	return fsys
}

func TestExportPaths(t *testing.T) {
	s := newServer(t, build(t, exportFixture(), pipeline.Options{}), false)
	paths := s.ExportPaths()
	for _, want := range []string{
		"/", "/blog/", "/blog.md",
		"/blog/hello-world/", "/blog/hello-world.md",
		"/blog/trip/", "/blog/trip.md", "/blog/trip/photo.svg", "/blog/trip/data.bin",
		"/blog/caf%C3%A9-au-lait/", "/blog/caf%C3%A9-au-lait.md", // the slug as Hugo puts it in a URL
		"/api/posts.json", "/api/posts/cursor/0.json",
		"/openapi.json", "/rss.xml", "/llms.txt", "/sitemap.xml", "/sdk/blog-client.js",
	} {
		if !slices.Contains(paths, want) {
			t.Errorf("ExportPaths lacks %s", want)
		}
	}
	for _, p := range paths {
		if strings.Contains(p, "draft") || strings.Contains(p, "future") || p == "/healthz" {
			t.Errorf("ExportPaths lists %s", p)
		}
	}
	if last := paths[len(paths)-1]; last != NotFoundPath {
		t.Errorf("last path %s, want the 404 page %s", last, NotFoundPath)
	}
	sorted := slices.Clone(paths)
	slices.Sort(sorted)
	if len(slices.Compact(sorted)) != len(paths) {
		t.Errorf("ExportPaths lists a path twice: %v", paths)
	}
	for name := range s.theme.Load().assets {
		if !slices.Contains(paths, "/static/"+escapePath(name)) {
			t.Errorf("ExportPaths lacks the asset %s", name)
		}
	}
	answersAll(t, s, paths)
}

// TestExportPathsCursors: the export holds exactly the cursor pages a walk
// from 0 issues, and each answers.
func TestExportPathsCursors(t *testing.T) {
	s := newServer(t, build(t, generatedSite(120), pipeline.Options{}), false)
	var cursors []string
	for _, p := range s.ExportPaths() {
		if strings.HasPrefix(p, "/api/posts/cursor/") {
			cursors = append(cursors, p)
		}
	}
	want := s.Snapshot().Cursors(s.Snapshot().Config().API.PageSize)
	if len(want) != 3 || len(cursors) != len(want) {
		t.Fatalf("cursor pages %v, want the %d issued: %v", cursors, len(want), want)
	}
	for i, c := range want {
		if cursors[i] != "/api/posts/cursor/"+c+".json" {
			t.Errorf("cursor page %d is %s, want %s", i, cursors[i], c)
		}
	}
	answersAll(t, s, cursors)
}

// answersAll checks every exported path answers 200 (the 404 page 404).
func answersAll(t *testing.T, s *Server, paths []string) {
	t.Helper()
	for _, p := range paths {
		req, err := http.NewRequest(http.MethodGet, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		want := http.StatusOK
		if p == NotFoundPath {
			want = http.StatusNotFound
		}
		if rec.Code != want {
			t.Errorf("GET %s: %d, want %d", p, rec.Code, want)
		}
	}
}

func TestExportRedirects(t *testing.T) {
	s := newServer(t, build(t, exportFixture(), pipeline.Options{}), false)
	got := s.ExportRedirects()
	for _, want := range []string{"/blog", "/blog/hello-world", "/blog/caf%C3%A9-au-lait", "/old/moved", "/old/moved/", "/blog/previous", "/blog/previous/"} {
		if !slices.Contains(got, want) {
			t.Errorf("ExportRedirects lacks %s: %v", want, got)
		}
	}
	for _, p := range got {
		req, _ := http.NewRequest(http.MethodGet, p, nil)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != http.StatusMovedPermanently {
			t.Errorf("GET %s: %d, want 301", p, rec.Code)
		}
	}
}

// TestExportMovedHome: on a site whose home lives in its default
// language's folder (configdir: defaultContentLanguageInSubdir), / is a
// redirect to it, so the export records its 301 rather than a file, and
// its other answers (405, OPTIONS) do not say Vary: Accept, as its GET
// does not negotiate. The home page's twin is /en.md; /index.md is the
// twin of no page, not exported.
func TestExportMovedHome(t *testing.T) {
	dir := "../pipeline/testdata/sites/configdir"
	cfg, err := pipeline.LoadSite(pipeline.SiteOptions{Source: dir, Environment: "production"})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := pipeline.Build(os.DirFS(dir), cfg, pipeline.Options{Root: dir}, fixtureNow)
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(t, snap, false)
	paths := s.ExportPaths()
	if slices.Contains(paths, "/") || !slices.Contains(paths, "/en/") || slices.Contains(paths, "/index.md") || !slices.Contains(paths, "/en.md") {
		t.Errorf("ExportPaths: / listed %v, /en/ %v, /index.md %v, /en.md %v; want the home at /en/ and its twin /en.md only",
			slices.Contains(paths, "/"), slices.Contains(paths, "/en/"), slices.Contains(paths, "/index.md"), slices.Contains(paths, "/en.md"))
	}
	if !slices.Contains(s.ExportRedirects(), "/") {
		t.Errorf("ExportRedirects lacks /: %v", s.ExportRedirects())
	}
	answersAll(t, s, paths)
	for _, tc := range []struct {
		method string
		status int
	}{{http.MethodGet, http.StatusMovedPermanently}, {http.MethodHead, http.StatusMovedPermanently},
		{http.MethodPost, http.StatusMethodNotAllowed}, {http.MethodOptions, http.StatusNoContent}} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(tc.method, "/", nil))
		if rec.Code != tc.status || rec.Header().Get("Vary") != "" {
			t.Errorf("%s /: %d, Vary %q; want %d and no Vary", tc.method, rec.Code, rec.Header().Get("Vary"), tc.status)
		}
	}
	// A site whose home is / still negotiates there, 405 included.
	rec := httptest.NewRecorder()
	newServer(t, build(t, sampleSite(), pipeline.Options{}), false).ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", nil))
	if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Vary") != "Accept" {
		t.Errorf("sample site, POST /: %d, Vary %q; want 405 and Vary: Accept", rec.Code, rec.Header().Get("Vary"))
	}
}
