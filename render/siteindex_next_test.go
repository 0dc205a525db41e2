package render

import (
	"maps"
	"slices"
	"testing"
	"testing/fstest"
	"time"

	"folio/internal/layered"
	"folio/pipeline"
)

// TestSiteIndexNext holds SiteIndex.Next, which patches the previous
// snapshot's index after a save, to what NewSiteIndex makes of the new
// snapshot: every page path, page name, file and slug answers the same,
// and every post has the same URL. patched says whether the change is one
// Next patches (folio dev's common case) rather than indexes afresh.
func TestSiteIndexNext(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	post := func(title, extra string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("---\ntitle: " + title + "\ndate: 2020-01-02\ntags: [go, web]\ncategories: [notes]\n" + extra + "---\nBody.\n")}
	}
	site := func() fstest.MapFS {
		return fstest.MapFS{
			"hugo.toml":                    {Data: []byte("baseURL = 'https://example.org/'\ntitle = 'Site'\n")},
			"content/_index.md":            {Data: []byte("---\ntitle: Home\n---\n")},
			"content/about.md":             post("About", ""),
			"content/blog/_index.md":       {Data: []byte("---\ntitle: The blog\n---\n")},
			"content/blog/one.md":          post("One", ""),
			"content/blog/two.md":          post("Two", "slug: deux\n"),
			"content/blog/three.md":        post("Three", ""),
			"content/blog/trip/index.md":   post("Trip", ""),
			"content/blog/trip/photo.svg":  {Data: []byte("<svg/>")},
			"content/blog/draft.md":        post("Draft", "draft: true\n"),
			"content/blog/later.md":        post("Later", "date: 2040-01-01\n"),
			"content/notes/first.md":       post("Notes one", ""),
			"content/notes/deep/_index.md": {Data: []byte("---\ntitle: Deep\ndraft: true\n---\n")},
			"content/notes/deep/x.md":      post("Deep x", ""),
		}
	}
	for _, tc := range []struct {
		name    string
		change  func(fstest.MapFS) []string
		patched bool
	}{
		{"title edited", func(f fstest.MapFS) []string {
			f["content/blog/one.md"] = post("One again", "")
			return []string{"content/blog/one.md"}
		}, true},
		{"tags edited", func(f fstest.MapFS) []string {
			f["content/blog/one.md"] = &fstest.MapFile{Data: []byte("---\ntitle: One\ndate: 2020-01-02\ntags: [go]\n---\nBody.\n")}
			return []string{"content/blog/one.md"}
		}, true},
		{"slug changed", func(f fstest.MapFS) []string {
			f["content/blog/two.md"] = post("Two", "slug: zwei\n")
			return []string{"content/blog/two.md"}
		}, true},
		{"post added", func(f fstest.MapFS) []string {
			f["content/blog/four.md"] = post("Four", "")
			return []string{"content/blog/four.md"}
		}, true},
		{"post removed", func(f fstest.MapFS) []string {
			delete(f, "content/blog/three.md")
			return []string{"content/blog/three.md"}
		}, true},
		{"post renamed", func(f fstest.MapFS) []string {
			f["content/blog/tres.md"] = f["content/blog/three.md"]
			delete(f, "content/blog/three.md")
			return []string{"content/blog/three.md", "content/blog/tres.md"}
		}, true},
		{"bundle edited", func(f fstest.MapFS) []string {
			f["content/blog/trip/index.md"] = post("Trip!", "")
			return []string{"content/blog/trip/index.md"}
		}, false}, // the snapshot is assembled
		{"becomes a draft", func(f fstest.MapFS) []string {
			f["content/blog/one.md"] = post("One", "draft: true\n")
			return []string{"content/blog/one.md"}
		}, true},
		{"draft edited", func(f fstest.MapFS) []string {
			f["content/blog/draft.md"] = post("Draft 2", "draft: true\n")
			return []string{"content/blog/draft.md"}
		}, true},
		{"draft section edited", func(f fstest.MapFS) []string {
			f["content/notes/deep/_index.md"] = &fstest.MapFile{Data: []byte("---\ntitle: Deeper\ndraft: true\n---\n")}
			return []string{"content/notes/deep/_index.md"}
		}, true},
		{"a page claims another's path", func(f fstest.MapFS) []string {
			f["content/blog/one/index.md"] = post("One bundle", "")
			return []string{"content/blog/one/index.md"}
		}, false},
		{"a page takes another's slug", func(f fstest.MapFS) []string {
			f["content/blog/three.md"] = post("Three", "slug: deux\n")
			return []string{"content/blog/three.md"}
		}, false},
		{"section title edited", func(f fstest.MapFS) []string {
			f["content/blog/_index.md"] = &fstest.MapFile{Data: []byte("---\ntitle: Blog!\n---\n")}
			return []string{"content/blog/_index.md"}
		}, false},
		{"new tag", func(f fstest.MapFS) []string {
			f["content/blog/one.md"] = &fstest.MapFile{Data: []byte("---\ntitle: One\ndate: 2020-01-02\ntags: [fresh]\n---\nBody.\n")}
			return []string{"content/blog/one.md"}
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := site()
			cfg, err := pipeline.LoadSite(pipeline.SiteOptions{FS: fsys, Environment: "production"})
			if err != nil {
				t.Fatal(err)
			}
			s0, err := pipeline.Build(fsys, cfg, pipeline.Options{}, now)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := s0.Route("/tags/go/"); !ok {
				t.Fatal("the fixture has no tag pages")
			}
			six := NewSiteIndex(s0)
			s1, err := s0.Update(tc.change(fsys), now)
			if err != nil {
				t.Fatal(err)
			}
			if got := six.patch(s1) != nil; got != tc.patched {
				t.Errorf("patched = %v, want %v", got, tc.patched)
			}
			sameIndex(t, six.Next(s1), NewSiteIndex(s1), s1)
			// The previous index is not changed by the patch.
			sameIndex(t, six, NewSiteIndex(s0), s0)
		})
	}
}

// sameIndex fails unless got answers every lookup as want does.
func sameIndex(t *testing.T, got, want *SiteIndex, snap *pipeline.Snapshot) {
	t.Helper()
	gotPaths, wantPaths := flat(got.byPath), flat(want.byPath)
	paths := slices.Sorted(maps.Keys(wantPaths))
	if g := slices.Sorted(maps.Keys(gotPaths)); !slices.Equal(g, paths) {
		t.Fatalf("page paths %q, want %q", g, paths)
	}
	for _, p := range paths {
		g, gok := got.PagePath(p)
		w, wok := want.PagePath(p)
		if gok != wok || !g.equal(w) {
			t.Errorf("PagePath(%q) = %+v %v, want %+v %v", p, g, gok, w, wok)
		}
	}
	names := slices.Sorted(maps.Keys(flat(want.names)))
	if g := slices.Sorted(maps.Keys(flat(got.names))); !slices.Equal(g, names) {
		t.Fatalf("page names %q, want %q", g, names)
	}
	for _, n := range names {
		g, gf, ga := got.PageName(n)
		w, wf, wa := want.PageName(n)
		if gf != wf || ga != wa || !g.equal(w) {
			t.Errorf("PageName(%q) = %+v %v %v, want %+v %v %v", n, g, gf, ga, w, wf, wa)
		}
	}
	for _, p := range snap.AllPosts() {
		if g, w := got.URL(p), want.URL(p); g != w {
			t.Errorf("URL(%s) = %q, want %q", p.File, g, w)
		}
		gp, gv := got.File(p.File)
		wp, wv := want.File(p.File)
		if gp != wp || gv != wv {
			t.Errorf("File(%s) = %p %v, want %p %v", p.File, gp, gv, wp, wv)
		}
		gp, gv = got.Slug(p.Slug)
		wp, wv = want.Slug(p.Slug)
		if gp != wp || gv != wv {
			t.Errorf("Slug(%s) = %p %v, want %p %v", p.Slug, gp, gv, wp, wv)
		}
	}
	if got.urls.Len() != want.urls.Len() || got.byFile.Len() != want.byFile.Len() || got.bySlug.Len() != want.bySlug.Len() {
		t.Errorf("sizes: urls %d/%d, files %d/%d, slugs %d/%d", got.urls.Len(), want.urls.Len(), got.byFile.Len(), want.byFile.Len(), got.bySlug.Len(), want.bySlug.Len())
	}
	if !maps.Equal(got.listPages, want.listPages) || !maps.Equal(got.listURLs, want.listURLs) {
		t.Errorf("list pages %v %v, want %v %v", got.listPages, got.listURLs, want.listPages, want.listURLs)
	}
}

// flat is a layered map's keys and values.
func flat[K comparable, V any](m layered.Map[K, V]) map[K]V {
	out := map[K]V{}
	for k, v := range m.All {
		out[k] = v
	}
	return out
}

// TestSiteIndexNextLanguages: a multilingual site's index, patched, is
// the index made afresh, each language's pages at its own keys.
func TestSiteIndexNextLanguages(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	post := func(title string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("---\ntitle: " + title + "\ndate: 2020-01-02\n---\nBody.\n")}
	}
	site := func() fstest.MapFS {
		return fstest.MapFS{
			"hugo.toml":                  {Data: []byte("baseURL = 'https://example.org/'\ntitle = 'Site'\ndefaultContentLanguage = 'en'\n[languages.en]\nweight = 1\n[languages.fr]\nweight = 2\n")},
			"content/blog/one.md":        post("One"),
			"content/blog/one.fr.md":     post("Un"),
			"content/blog/solo.fr.md":    post("Seul"),
			"content/blog/two.md":        post("Two"),
			"content/blog/trip/index.md": post("Trip"),
		}
	}
	for _, tc := range []struct {
		name    string
		change  func(fstest.MapFS) []string
		patched bool
	}{
		{"a French page edited", func(f fstest.MapFS) []string {
			f["content/blog/solo.fr.md"] = post("Seul encore")
			return []string{"content/blog/solo.fr.md"}
		}, true},
		{"a French page added", func(f fstest.MapFS) []string {
			f["content/blog/two.fr.md"] = post("Deux")
			return []string{"content/blog/two.fr.md"}
		}, false}, // it shares its slug with its English translation
		{"a French page removed", func(f fstest.MapFS) []string {
			delete(f, "content/blog/solo.fr.md")
			return []string{"content/blog/solo.fr.md"}
		}, true},
		{"a translation edited", func(f fstest.MapFS) []string {
			f["content/blog/one.fr.md"] = post("Un encore")
			return []string{"content/blog/one.fr.md"}
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := site()
			cfg, err := pipeline.LoadSite(pipeline.SiteOptions{FS: fsys, Environment: "production"})
			if err != nil {
				t.Fatal(err)
			}
			s0, err := pipeline.Build(fsys, cfg, pipeline.Options{}, now)
			if err != nil {
				t.Fatal(err)
			}
			six := NewSiteIndex(s0)
			if p, ok := six.PagePath("fr" + langSep + "/blog/one"); !ok || p.Title != "Un" {
				t.Fatalf("the French /blog/one is %+v %v", p, ok)
			}
			if p, ok := six.PagePath("/blog/one"); !ok || p.Title != "One" {
				t.Fatalf("the English /blog/one is %+v %v", p, ok)
			}
			s1, err := s0.Update(tc.change(fsys), now)
			if err != nil {
				t.Fatal(err)
			}
			if got := six.patch(s1) != nil; got != tc.patched {
				t.Errorf("patched = %v, want %v", got, tc.patched)
			}
			sameIndex(t, six.Next(s1), NewSiteIndex(s1), s1)
			sameIndex(t, six, NewSiteIndex(s0), s0)
		})
	}
}
