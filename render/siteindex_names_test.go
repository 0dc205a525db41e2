package render

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"folio/pipeline"
)

// sameNameSite is a site of n pages of one name (notes/i/note.md, not
// bundles), and one page of its own name.
func sameNameSite(t *testing.T, n int) *pipeline.Snapshot {
	t.Helper()
	fsys := fstest.MapFS{
		"hugo.toml":         {Data: []byte("baseURL = 'https://example.org/'\n")},
		"content/lone.md":   {Data: []byte("---\ntitle: Lone\ndate: 2024-01-02\n---\nBody.\n")},
		"content/_index.md": {Data: []byte("---\ntitle: Home\n---\n")},
	}
	for i := range n {
		fsys[fmt.Sprintf("content/notes/%04d/note.md", i)] = &fstest.MapFile{Data: []byte(fmt.Sprintf("---\ntitle: Note %d\ndate: 2024-01-02\n---\nBody.\n", i))}
	}
	cfg, err := pipeline.LoadSite(pipeline.SiteOptions{Source: ".", Environment: "production", FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := pipeline.Build(fsys, cfg, pipeline.Options{}, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// TestSiteIndexSharedNames: a name many pages have holds all their keys
// in order, and a ref by that name is ambiguous; indexing such a site
// allocates in proportion to its pages, not to their square (each key
// joined again to every key before it was 1 GB at 10,000 pages).
func TestSiteIndexSharedNames(t *testing.T) {
	snap := sameNameSite(t, 300)
	six := NewSiteIndex(snap)
	keys, _ := six.names.Get("note")
	got := strings.Split(keys, nameSep)
	if len(got) != 300 {
		t.Fatalf("%d keys for the name note, want 300", len(got))
	}
	for i, k := range got {
		if want := fmt.Sprintf("/notes/%04d/note", i); k != want {
			t.Fatalf("key %d of note is %q, want %q", i, k, want)
		}
	}
	if _, found, ambiguous := six.PageName("note"); !found || !ambiguous {
		t.Errorf("PageName(note): found %v, ambiguous %v; want both", found, ambiguous)
	}
	if p, found, ambiguous := six.PageName("lone"); !found || ambiguous || p.Title != "Lone" {
		t.Errorf("PageName(lone) = %+v, %v, %v", p, found, ambiguous)
	}

	allocated := func(n int) uint64 {
		snap := sameNameSite(t, n)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		NewSiteIndex(snap)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := allocated(1000), allocated(4000)
	// Four times the pages: four times the bytes, give or take the maps'
	// growth; sixteen times would be the square.
	if ratio := float64(large) / float64(small); ratio > 7 {
		t.Errorf("indexing 4,000 pages of one name allocated %.1fx what 1,000 did (%d and %d bytes), want about 4x", ratio, large, small)
	}
}
