package pipeline

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestOtherFormatContent: a content file Hugo reads as a page in another
// format than Markdown and Org (HTML, AsciiDoc…) is neither a page nor a
// file of folio's, and a warning says so, when the site is built and when
// one comes while serving; a bundle's such file stays a page resource
// (never published) with no warning, and a section's other files are
// still published. An Org file is a page, with no warning.
func TestOtherFormatContent(t *testing.T) {
	files := map[string]string{
		"hugo.toml":                   "title = 'S'",
		"content/posts/a.md":          post("title: A"),
		"content/posts/b.org":         "#+TITLE: B\n#+DATE: 2026-01-02\n\nOrg.\n",
		"content/page.html":           "---\ntitle: H\n---\n<p>HTML</p>\n",
		"content/posts/notes.txt":     "a section's file",
		"content/posts/trip/index.md": post("title: Trip"),
		"content/posts/trip/more.org": "#+TITLE: More\n",
	}
	cfg := loadSite(t, files, "production")
	fsys := mapFS(files)
	s, err := Build(fsys, cfg, Options{}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string, warned ...string) {
		t.Helper()
		var got []string
		for _, p := range s.Problems() {
			if strings.Contains(p.Message, "folio renders Markdown and Org only") && p.Severity == Warning {
				got = append(got, p.Path)
			}
		}
		if !slices.Equal(got, warned) {
			t.Errorf("%s: warnings on %q, want %q", when, got, warned)
		}
		for _, r := range s.Routes() {
			if strings.HasSuffix(r.Path, ".org") || strings.HasSuffix(r.Path, ".adoc") || strings.HasSuffix(r.Path, ".html") && r.Kind == RouteFile {
				t.Errorf("%s: %s published (%v)", when, r.Path, r.Kind)
			}
		}
		if r, ok := s.Route("/posts/notes.txt"); !ok || r.Kind != RouteFile {
			t.Errorf("%s: /posts/notes.txt: %+v %v", when, r, ok)
		}
		if r, ok := s.Route("/posts/b/"); !ok || r.Kind != RoutePage {
			t.Errorf("%s: /posts/b/ (b.org): %+v %v", when, r, ok)
		} else if p := r.Page.Post; p.Title != "B" || !p.Date.Equal(time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("%s: b.org's front matter: title %q, date %v", when, p.Title, p.Date)
		}
	}
	check("built", "content/page.html")
	set(fsys, "content/posts/c.adoc", "= C\n")
	s = update1(t, s, "content/posts/c.adoc")
	check("after adding c.adoc", "content/page.html", "content/posts/c.adoc")
	set(fsys, "content/posts/a.md", post("title: A2"))
	s = update1(t, s, "content/posts/a.md")
	check("after editing a post", "content/page.html", "content/posts/c.adoc")
}
