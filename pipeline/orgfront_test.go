package pipeline

import (
	"slices"
	"testing"
	"time"
)

// TestOrgFrontMatter: Org keywords at the top of a file are its front
// matter, as Hugo's lexer and decoder read them: keys in any case, Org
// timestamps cut to their date, KEY[] a list, the body after them; YAML
// front matter in an Org file is read as in any other.
func TestOrgFrontMatter(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		name, src     string
		title, slug   string
		date, lastmod time.Time
		tags          []string
		draft         bool
		bodyLine      int
		text          string
	}{
		{name: "keywords", src: "#+TITLE: Org post\n#+date: <2026-01-02 Fri>\n#+LASTMOD: [2026-01-03 Sat 10:00]\n#+TAGS[]: go org\n#+SLUG: custom\n\n* Heading\nText.\n",
			title: "Org post", slug: "custom", date: day(2), lastmod: day(3), tags: []string{"go", "org"}, bodyLine: 6, text: "\n* Heading\nText.\n"},
		{name: "draft", src: "#+title: D\n#+date: 2026-01-04\n#+draft: true\nBody.\n",
			title: "D", slug: "a", date: day(4), draft: true, bodyLine: 4, text: "Body.\n"},
		{name: "yaml", src: "---\ntitle: Y\ndate: 2026-01-05\ntags: [x]\n---\n* H\n",
			title: "Y", slug: "a", date: day(5), tags: []string{"x"}, bodyLine: 6, text: "* H\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := parsePost("posts/a.org", []byte(tt.src), "a", time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			if p.Title != tt.title || p.Slug != tt.slug || !p.Date.Equal(tt.date) || !p.Lastmod.Equal(tt.lastmod) || p.Draft != tt.draft || !slices.Equal(p.Tags, tt.tags) {
				t.Errorf("got title %q slug %q date %v lastmod %v draft %v tags %q", p.Title, p.Slug, p.Date, p.Lastmod, p.Draft, p.Tags)
			}
			if p.BodyLine != tt.bodyLine || len(p.Body) != 1 || p.Body[0].Text != tt.text {
				t.Errorf("body from line %d: %+v", p.BodyLine, p.Body)
			}
		})
	}
	p, err := parsePost("posts/a.org", []byte("#+TITLE: x\n#+DATE: 2026-01-02\n#+SLUG: a/b\n"), "a", time.UTC)
	if err == nil {
		t.Fatalf("a slug with a slash: no error (%+v)", p)
	}
	if ce, ok := err.(*contentError); !ok || ce.line != 3 {
		t.Errorf("a slug with a slash: %v, want it at line 3", err)
	}
}
