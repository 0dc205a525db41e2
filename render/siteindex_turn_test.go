package render

import (
	"testing"
	"testing/fstest"
	"time"

	"folio/pipeline"
)

// TestSiteIndexNextInTurn: saves one after another, each index patched
// from the last (folio dev's path), answer every lookup as an index made
// afresh does, whether each save could be patched or indexed again, and
// their list pages (a term's title, a section's feed) are the new
// snapshot's.
func TestSiteIndexNextInTurn(t *testing.T) {
	post := func(title, extra string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("---\ntitle: " + title + "\ndate: 2024-01-02\n" + extra + "---\nBody.\n")}
	}
	fsys := fstest.MapFS{
		"hugo.toml":                {Data: []byte("baseURL = 'https://example.org/'\n[permalinks]\nposts = '/:year/:slug/'\n")},
		"content/_index.md":        {Data: []byte("---\ntitle: Home\n---\n")},
		"content/about.md":         post("About", ""),
		"content/posts/a.md":       post("A", "tags: [go, web]\n"),
		"content/posts/b.md":       post("B", "tags: [go]\n"),
		"content/posts/c/index.md": post("C", "categories: [notes]\n"),
		"content/posts/draft.md":   post("Draft", "draft: true\n"),
		"content/notes/n.md":       post("N", ""),
	}
	cfg, err := pipeline.LoadSite(pipeline.SiteOptions{Source: ".", Environment: "production", FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	snap, err := pipeline.Build(fsys, cfg, pipeline.Options{}, now)
	if err != nil {
		t.Fatal(err)
	}
	six := NewSiteIndex(snap)
	edits := []struct {
		name    string
		files   map[string]*fstest.MapFile // nil: removed
		follows bool                       // Next patches the index
	}{
		{"title", map[string]*fstest.MapFile{"content/posts/a.md": post("A2", "tags: [go, web]\n")}, true},
		{"slug", map[string]*fstest.MapFile{"content/posts/b.md": post("B", "slug: bee\ntags: [go]\n")}, true},
		{"new post, a term it shares", map[string]*fstest.MapFile{"content/posts/d.md": post("D", "tags: [web]\n")}, true},
		{"published", map[string]*fstest.MapFile{"content/posts/draft.md": post("Draft", "")}, true},
		{"removed", map[string]*fstest.MapFile{"content/posts/d.md": nil}, true},
		{"a new term", map[string]*fstest.MapFile{"content/posts/a.md": post("A3", "tags: [go, web, new]\n")}, false},
		{"a section's index", map[string]*fstest.MapFile{"content/notes/_index.md": post("Notes", "")}, false},
		{"a slug another has", map[string]*fstest.MapFile{"content/posts/about.md": post("About too", "")}, false},
		{"an edit after it", map[string]*fstest.MapFile{"content/posts/b.md": post("B2", "slug: bee\ntags: [go]\n")}, true},
	}
	for _, e := range edits {
		var changed []string
		for name, f := range e.files {
			if f == nil {
				delete(fsys, name)
			} else {
				fsys[name] = f
			}
			changed = append(changed, name)
		}
		next, err := snap.Update(changed, now)
		if err != nil {
			t.Fatal(err)
		}

		if patched := six.patch(next) != nil; patched != e.follows {
			t.Errorf("%s: patched %v, want %v", e.name, patched, e.follows)
		}
		from := six.Next(next)
		sameIndex(t, from, NewSiteIndex(next), next)
		snap, six = next, from
	}
}
