package pipeline

import (
	"fmt"
	"strings"
	"testing"
)

// twinSite is a blog of 25 posts (three pages of ten in its list), one
// with a slug longer than TwinOf's buffer, in the URL style ugly asks for.
func twinSite(t *testing.T, ugly bool) *Snapshot {
	t.Helper()
	files := map[string]string{}
	for i := range 24 {
		files[fmt.Sprintf("blog/p%02d.md", i)] = post()
	}
	files["blog/long.md"] = post("slug: " + strings.Repeat("x", 200))
	cfg := DefaultConfig()
	cfg.UglyURLs.All = ugly
	s, err := Build(mapFS(files), cfg, Options{}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestTwinOf: every page's and pager's Markdown twin finds it, and
// nothing else is a twin.
func TestTwinOf(t *testing.T) {
	for _, ugly := range []bool{false, true} {
		s := twinSite(t, ugly)
		twins := 0
		for _, r := range s.Routes() {
			if r.Kind != RoutePage && r.Kind != RoutePager {
				continue
			}
			twins++
			got, ok := s.TwinOf(TwinPath(r.Path))
			if !ok || got.Path != r.Path || got.Kind != r.Kind || got.Page != r.Page || got.Pager != r.Pager {
				t.Errorf("ugly=%v: TwinOf(%q) = %+v, %v; want the route of %q", ugly, TwinPath(r.Path), got, ok, r.Path)
			}
		}
		if twins < 28 { // home, section, 25 posts, and pagers
			t.Errorf("ugly=%v: only %d page routes", ugly, twins)
		}
		for _, p := range []string{"/blog/p01", "blog/p01.md", "/blog/p01/.md", "/blog/p01.html.md", "/nope.md", "/.md", "/blog/page/1.md", "/blog/page/9.md", "/blog/page/02.md", ".md", ""} {
			if r, ok := s.TwinOf(p); ok {
				t.Errorf("ugly=%v: TwinOf(%q) = %+v, want none", ugly, p, r)
			}
		}
	}
	s := twinSite(t, false)
	for _, tc := range []struct{ twin, page string }{
		{"/index.md", "/"},
		{"/blog.md", "/blog/"},
		{"/blog/p01.md", "/blog/p01/"},
		{"/blog/page/2.md", "/blog/page/2/"},
		{"/blog/" + strings.Repeat("x", 200) + ".md", "/blog/" + strings.Repeat("x", 200) + "/"},
	} {
		if r, ok := s.TwinOf(tc.twin); !ok || r.Path != tc.page {
			t.Errorf("TwinOf(%q) = %q, %v; want %q", tc.twin, r.Path, ok, tc.page)
		}
	}
}

// TestTwinOfAllocatesNothing: finding a post's twin, asked for on every
// request for its Markdown, makes no string.
func TestTwinOfAllocatesNothing(t *testing.T) {
	s := twinSite(t, false)
	if n := testing.AllocsPerRun(100, func() {
		if _, ok := s.TwinOf("/blog/p01.md"); !ok {
			t.Fatal("no twin")
		}
	}); n != 0 {
		t.Errorf("TwinOf allocates %v times, want 0", n)
	}
}
