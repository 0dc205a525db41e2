package host

import (
	"os"
	"path/filepath"
	"testing"

	"folio/pipeline"
	"folio/watch"
)

// A deploy often replaces the content folder whole (mv content.new
// content). The snapshot reads through a handle on the folder it was
// built from, so folio serve must read the new folder afresh, on SIGHUP
// and on a --watch rescan, instead of updating from the old one.
func TestServeReadsReplacedContentFolder(t *testing.T) {
	for _, how := range []string{"sighup", "watch rescan"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			content := filepath.Join(dir, "content")
			writeFile(t, filepath.Join(content, "blog", "old.md"), post("Old", "2026-01-01T00:00:00Z"))
			h := loadUnrun(t, Spec{Content: content}.ForServe(how == "watch rescan"))
			writeFile(t, filepath.Join(dir, "staged", "blog", "new.md"), post("New", "2026-01-01T00:00:00Z"))
			must(t, os.Rename(content, filepath.Join(dir, "content.old")))
			must(t, os.Rename(filepath.Join(dir, "staged"), content))
			if how == "sighup" {
				h.apply(reloadAll)
			} else {
				h.apply(h.w.change([]watch.Batch{{Root: content, Rescan: true}}))
			}
			s := h.Snapshot()
			if s.Post("new") == nil || s.Post("old") != nil {
				t.Errorf("after the folder was replaced: %s", describe([]*pipeline.Snapshot{s}))
			}
		})
	}
}
