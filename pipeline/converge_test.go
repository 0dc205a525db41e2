package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"folio/internal/filehist"
)

// TestUpdateConverges: whatever files change and however the changes are
// grouped into updates, the snapshot Update arrives at equals a fresh
// Build of the same folder. This is the watcher's contract (host's
// TestDevConverges checks it through a real watcher); here the updates
// are called directly, so hundreds of random histories run in a second
// and a failing seed replays exactly (FOLIO_SEED=n runs that one); 150
// histories, 400 with CI=true (under -race there).
// Broken files are fixed at the end: a broken post keeps its last good
// version under Update, which a fresh build cannot know.
func TestUpdateConverges(t *testing.T) {
	seeds := 150
	if os.Getenv("CI") == "true" {
		seeds = 400
	}
	first := uint64(1)
	if s := os.Getenv("FOLIO_SEED"); s != "" {
		fmt.Sscan(s, &first)
		seeds = 1
	}
	published := 0 // histories that end with posts: the test is not vacuous
	for seed := first; seed < first+uint64(seeds); seed++ {
		updateConverges(t, seed, &published)
		if t.Failed() {
			return
		}
	}
	if published < seeds/2 {
		t.Errorf("only %d of %d histories end with a post to compare", published, seeds)
	}
}

func updateConverges(t *testing.T, seed uint64, published *int) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "hugo.toml"), "title = \"Converge\"\n")
	cfg, err := LoadSite(SiteOptions{Source: dir})
	if err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	// A second section, notes, can take the main section from blog.
	g := filehist.New(t, seed, filepath.Join(dir, "content"), "content", "blog", "notes")
	os.MkdirAll(filepath.Join(dir, "content", "blog"), 0o755)
	s, err := Build(root.FS(), cfg, Options{}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	var changed []string
	flush := func() {
		if len(changed) == 0 {
			return
		}
		n, err := s.Update(changed, testNow)
		if err != nil {
			t.Fatalf("seed %d: Update(%q): %v", seed, changed, err)
		}
		g.Log = append(g.Log, fmt.Sprintf("  update %q", changed))
		s, changed = n, nil
	}
	for range 10 + g.IntN(60) {
		changed = append(changed, g.Op()...)
		if g.IntN(3) == 0 {
			flush()
		}
	}
	flush()
	changed = g.FixBroken()
	flush()
	fresh, err := Build(root.FS(), cfg, Options{}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	if len(fresh.Posts()) > 0 {
		*published++
	}
	if got, want := historySummary(s), historySummary(fresh); got != want {
		t.Errorf("seed %d: updated snapshot differs from a fresh build\nhistory:\n%s\nupdated:\n%s\nfresh:\n%s",
			seed, strings.Join(g.Log, "\n"), got, want)
	}
}

// historySummary is what a snapshot publishes, for comparison: its
// posts, problems, routes and lists.
func historySummary(s *Snapshot) string {
	var b strings.Builder
	for _, p := range s.Posts() {
		fmt.Fprintf(&b, "%s %q %s file=%s bundle=%s res=%v tags=%v hash=%x\n", p.Slug, p.Title,
			p.Date.Format(time.RFC3339), p.File, p.Bundle, p.Resources, p.Tags, p.Hash)
	}
	for _, p := range s.Problems() {
		fmt.Fprintf(&b, "problem %s\n", p)
	}
	for _, line := range siteDigest(s) {
		fmt.Fprintln(&b, line)
	}
	return b.String()
}
