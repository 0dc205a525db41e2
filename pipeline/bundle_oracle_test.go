package pipeline

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"folio/internal/hugotest"
)

// TestBundleFilesAsHugo: the files a page bundle publishes are exactly
// those Hugo 0.165 publishes (issue 15, finding 6). Hugo makes a bundle's
// content files (Markdown, a nested index.md, Org, AsciiDoc…, in any
// case) page resources, which it never publishes: served as they were,
// their front matter showed, draft: true included. A nested index.md
// makes no bundle inside a bundle, so its folder's other files are the
// outer bundle's and published with it, a draft's too; a draft bundle
// publishes nothing.
func TestBundleFilesAsHugo(t *testing.T) {
	hugotest.Binary(t)
	site := hugotest.CopySite(t, filepath.Join("testdata", "bundles"))
	out := filepath.Join(t.TempDir(), "public")
	hugotest.Build(t, site, "--destination", out)
	var hugo []string
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != "index.html" {
			rel, _ := filepath.Rel(out, p)
			hugo = append(hugo, filepath.ToSlash(rel))
		}
		return err
	})

	cfg := DefaultConfig()
	cfg.BaseURL = "https://example.org/"
	snap, err := Build(os.DirFS(filepath.Join(site, "content")), cfg, Options{}, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	var folio []string
	for _, p := range snap.Posts() {
		for _, r := range p.Resources {
			folio = append(folio, path.Join(strings.TrimSuffix(p.Path(cfg.Section), "/"), r))
		}
	}
	slices.Sort(hugo)
	slices.Sort(folio)
	if !slices.Equal(folio, hugo) {
		t.Errorf("bundle files published:\nfolio %q\nHugo  %q", folio, hugo)
	}
	if len(hugo) < 7 {
		t.Errorf("Hugo published %d bundle files; the fixture expects 7", len(hugo))
	}
	trip := snap.Post("trip")
	if trip == nil {
		t.Fatal("no trip")
	}
	want := []string{"UPPER.MD", "child/index.md", "child2/index.md", "child3/_index.md", "draft-notes.md", "long.markdown",
		"notes.adoc", "notes.md", "notes.org", "notes.pandoc", "notes.rst", "short.mdown", "sub/deep.md"}
	if !slices.Equal(trip.ContentFiles, want) {
		t.Errorf("trip's content files %q, want %q", trip.ContentFiles, want)
	}
}
