package render

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"folio/pipeline"
)

// TestEmbeddedLinksFollowUpdates: on a multilingual site a page's image
// of a bundle file is the file .Resources.Get finds (Hugo's embedded
// image hook; TestOracleSite/multilang holds it to Hugo), and folio dev's
// next snapshot, with a file of the page's language added or removed,
// renders it again to the file it finds then: the French page's pic.png
// is the English one until pic.fr.png exists.
func TestEmbeddedLinksFollowUpdates(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	page := func(title string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("---\ntitle: " + title + "\ndate: 2024-01-02\n---\n![p](pic.png) [d](./data.json#top)\n")}
	}
	fsys := fstest.MapFS{
		"hugo.toml": {Data: []byte("baseURL = 'https://example.org/'\ntitle = 'Site'\n" +
			"defaultContentLanguage = 'en'\n[languages.en]\nweight = 1\n[languages.fr]\nweight = 2\n")},
		"content/posts/x/index.md":    page("X"),
		"content/posts/x/index.fr.md": page("X fr"),
		"content/posts/x/pic.png":     {Data: []byte("png")},
	}
	cfg, err := pipeline.LoadSite(pipeline.SiteOptions{FS: fsys, Environment: "production"})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := pipeline.Build(fsys, cfg, pipeline.Options{}, now)
	if err != nil {
		t.Fatal(err)
	}
	r, res := ForSnapshot(snap)
	const fr = "content/posts/x/index.fr.md"
	render := func(want ...string) *Result {
		t.Helper()
		p, _ := res.File(fr)
		if p == nil {
			t.Fatalf("no %s", fr)
		}
		got := r.Render(p, res)
		for _, w := range want {
			if !strings.Contains(string(got.HTML), w) {
				t.Errorf("the French page has no %s:\n%s", w, got.HTML)
			}
		}
		return &got
	}
	update := func(file string, f *fstest.MapFile) {
		t.Helper()
		if f == nil {
			delete(fsys, file)
		} else {
			fsys[file] = f
		}
		next, err := snap.Update([]string{file}, now)
		if err != nil {
			t.Fatal(err)
		}
		snap = next
		r, res = ForSnapshotAfter(snap, res)
	}

	before := render(`src="https://example.org/posts/x/pic.png"`, `href="https://example.org/fr/posts/x/data.json#top"`)
	update("content/posts/x/pic.fr.png", &fstest.MapFile{Data: []byte("fr")})
	if before.Current(res) {
		t.Error("the result from before pic.fr.png is current after it")
	}
	render(`src="https://example.org/fr/posts/x/pic.fr.png"`)
	update("content/posts/x/data.json", &fstest.MapFile{Data: []byte("{}")})
	render(`href="https://example.org/posts/x/data.json#top"`)
	update("content/posts/x/pic.fr.png", nil)
	render(`src="https://example.org/posts/x/pic.png"`)
}
