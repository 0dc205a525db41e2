package pipeline

import (
	"os"
	"slices"
	"testing"
	"time"
)

// TestSampleContent keeps the repository's sample blog (../content, read
// through ../config.toml as folio check does) clean and covering what it
// is there to show.
func TestSampleContent(t *testing.T) {
	cfg, err := LoadConfig("../config.toml")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s, err := Build(os.DirFS(cfg.ContentDir), cfg, Options{Root: cfg.ContentDir}, now)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range s.problems {
		t.Errorf("problem: %v", p)
	}
	if len(s.posts) < 12 {
		t.Errorf("%d published posts, want at least 12", len(s.posts))
	}
	all, err := Build(os.DirFS(cfg.ContentDir), cfg, Options{Drafts: true}, now)
	if err != nil {
		t.Fatal(err)
	}
	var drafts, future, expired, bundles, noCategory, nonASCII int
	for _, p := range all.posts {
		switch {
		case p.Draft:
			drafts++
		case p.Date.After(now):
			future++
		case !p.Expiry.IsZero() && p.Expiry.Before(now):
			expired++
		}
		if len(p.Resources) > 0 {
			bundles++
		}
		if p.Category == "" {
			noCategory++
		}
		if slices.Contains(p.Tags, "日本語") || slices.Contains(p.Tags, "écriture") {
			nonASCII++
		}
	}
	if drafts == 0 || future == 0 || expired == 0 || bundles == 0 || noCategory == 0 || nonASCII == 0 {
		t.Errorf("drafts %d, future %d, expired %d, bundles %d, without category %d, non-ASCII tags %d: want each > 0",
			drafts, future, expired, bundles, noCategory, nonASCII)
	}
	if got, want := len(all.posts)-len(s.posts), drafts+future+expired; got != want {
		t.Errorf("%d posts hidden, want %d", got, want)
	}
}
