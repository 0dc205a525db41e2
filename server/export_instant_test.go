package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"folio/export"
	"folio/pipeline"
)

// TestExportIsOneInstant: a static export is the site at its snapshot's
// instant, however long the writing takes (issue 15, finding 7). Here the
// clock has passed a post's publish date and another's expiry since the
// snapshot was taken, as it does in a long build; before, the first
// request moved the server on, so the lists named a post the export had
// no page for and the expiring page failed the build with 404. Now only
// the host moves a snapshot on, and the export runs none.
func TestExportIsOneInstant(t *testing.T) {
	at := fixtureNow
	due, gone := at.Add(time.Hour), at.Add(2*time.Hour)
	if !time.Now().After(gone) {
		t.Fatalf("the fixture instant %s must be in the past", at)
	}
	fsys := sampleSite()
	fsys["blog/due-soon.md"] = &fstest.MapFile{Data: []byte("---\ntitle: Due soon\ndate: " + due.Format(time.RFC3339) + "\n---\nDue.\n")}
	fsys["blog/going.md"] = &fstest.MapFile{Data: []byte("---\ntitle: Going\ndate: 2026-01-05T00:00:00Z\nexpiryDate: " + gone.Format(time.RFC3339) + "\n---\nGoing.\n")}
	snap, err := pipeline.Build(fsys, fixtureConfig(t), pipeline.Options{}, at)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(snap, Options{Site: testSite(), Started: at})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	site, err := export.Write(out, s, s.ExportPaths(), export.Options{NotFound: NotFoundPath, Redirects: s.ExportRedirects()})
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	files := map[string]bool{}
	for _, f := range site.Files {
		files[f.Path] = true
		body, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(f.Name)))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(body), "due-soon") {
			t.Errorf("%s names the post due after the snapshot's instant", f.Path)
		}
	}
	if !files["/blog/going/"] || !files["/blog/going.md"] {
		t.Error("the post expiring after the snapshot's instant has no page")
	}
	var list struct{ Items []struct{ URL string } }
	body, _ := os.ReadFile(filepath.Join(out, "api", "posts.json"))
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatal(err)
	}
	for _, it := range list.Items {
		if p := strings.TrimPrefix(it.URL, "https://example.org"); !files[p] {
			t.Errorf("posts.json lists %s, which the export has no page for", p)
		}
	}
	if len(list.Items) != len(snap.Posts()) {
		t.Errorf("posts.json lists %d posts, the snapshot %d", len(list.Items), len(snap.Posts()))
	}
	t.Logf("%d routes exported at the snapshot's instant, %d posts", len(site.Files), len(list.Items))
}
