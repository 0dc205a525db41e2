package pipeline

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// orderSite is a site whose pages tie often in Hugo's order (few weights,
// dates and titles), with terms in several spellings, pages not listed or
// not rendered, and sections with content files that have terms too.
func orderSite(n int) fstest.MapFS {
	rng := rand.New(rand.NewPCG(7, 11))
	files := map[string]string{
		"content/_index.md":            "---\ntitle: Home\ntags: [go]\n---\n",
		"content/blog/sub/_index.md":   "---\ntitle: Sub\ntags: [Go, rust]\nweight: 1\n---\n",
		"content/notes/_index.md":      "---\ntitle: Notes\ncategories: [misc]\n---\n",
		"content/notes/deep/_index.md": "---\ntitle: Deep\nbuild: {render: never}\ntags: [go]\n---\n",
	}
	dirs := []string{"blog", "blog/sub", "notes", "notes/deep"}
	for i := range n {
		var fm []string
		fm = append(fm, "title: "+[]string{"Alpha", "alpha", "Beta", "gamma"}[rng.IntN(4)])
		fm = append(fm, fmt.Sprintf("date: 2026-01-0%dT00:00:00Z", 1+rng.IntN(3)))
		if w := rng.IntN(5); w < 2 {
			fm = append(fm, fmt.Sprintf("weight: %d", w+1))
		}
		if rng.IntN(6) == 0 {
			fm = append(fm, "linkTitle: "+[]string{"aa", "ZZ"}[rng.IntN(2)])
		}
		switch rng.IntN(20) {
		case 0:
			fm = append(fm, "build: {list: never}")
		case 1:
			fm = append(fm, "build: {render: never}")
		}
		var tags []string
		for range rng.IntN(4) {
			tags = append(tags, []string{"go", "Go", "rust", "web dev", "Web Dev", "x"}[rng.IntN(6)])
		}
		fm = append(fm, "tags: ["+strings.Join(tags, ", ")+"]")
		if rng.IntN(2) == 0 {
			fm = append(fm, "categories: ["+[]string{"misc", "Misc", "code"}[rng.IntN(3)]+"]")
		}
		// Slugs repeat across folders: posts of one date and slug.
		name := fmt.Sprintf("content/%s/p%05d.md", dirs[rng.IntN(len(dirs))], i%(n/2))
		files[name] = "---\n" + strings.Join(fm, "\n") + "\n---\nBody.\n"
	}
	files["hugo.toml"] = "mainSections = ['blog', 'notes']\n"
	return mapFS(files)
}

// TestSiteModelOrder: every list of the site model is in Hugo's order
// (sortPages: a stable sort of its pages in file order), the posts in the
// contract's (a stable sort by Compare in file order), and Pages every
// page by path, whether the model is made on one core or on several.
func TestSiteModelOrder(t *testing.T) {
	fsys := orderSite(3000)
	cfg, err := LoadSite(SiteOptions{FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	cfg.SetContent("content")
	defer func(n int) { parallelMin = n }(parallelMin)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	for _, min := range []int{1 << 30, 64} {
		parallelMin = min
		s, err := Build(fsys, cfg, Options{}, testNow)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Problems()) > 0 {
			t.Fatal(s.Problems())
		}
		checkModelOrder(t, s)
	}
}

func checkModelOrder(t *testing.T, s *Snapshot) {
	t.Helper()
	// The pages lists take theirs from, in file order.
	var byFile []*Page
	for _, p := range s.AllPosts() {
		if pg := s.PageOf(p); pg != nil && s.Visible(p) {
			byFile = append(byFile, pg)
		}
	}
	if len(byFile) < 1000 {
		t.Fatalf("%d pages", len(byFile))
	}
	want := func(keep func(*Page) bool) []*Page {
		var out []*Page
		for _, pg := range byFile {
			if keep(pg) {
				out = append(out, pg)
			}
		}
		sortPages(out)
		return out
	}
	lists := 0
	for _, l := range s.ListPages() {
		var w []*Page
		switch l.Kind {
		case KindHome:
			w = want(func(pg *Page) bool {
				top, _, _ := strings.Cut(pg.Section, "/")
				return pg.Kind == KindPage && pg.Post.Build.Listed() && (top == "blog" || top == "notes")
			})
		case KindSection:
			w = want(func(pg *Page) bool { return pg.Kind == KindPage && pg.Post.Build.Listed() && pg.Section == l.Section })
		case KindTerm:
			w = want(func(pg *Page) bool {
				if pg.Post.Build.Render == "never" || !pg.Post.Build.Listed() {
					return false
				}
				return slices.ContainsFunc(pg.Post.Terms[l.Taxonomy], func(term string) bool { return normalizeName(term) == normalizeName(l.Term) })
			})
		default:
			continue
		}
		lists++
		if !slices.Equal(l.Pages, w) {
			t.Errorf("%s %q: %d pages not in Hugo's order (want %d)", l.Kind, l.Path, len(l.Pages), len(w))
		}
	}
	if lists < 8 {
		t.Errorf("%d lists checked", lists)
	}
	var posts []*Post
	for _, p := range s.AllPosts() {
		if s.Visible(p) && s.isPost(p) {
			posts = append(posts, p)
		}
	}
	slices.SortStableFunc(posts, Compare)
	if !slices.Equal(s.Posts(), posts) {
		t.Errorf("posts not in the contract's order")
	}
	// Pages, made with the model, are every page sorted by path.
	var all []*Page
	for _, l := range s.site.langs {
		all = append(all, l.allPages()...)
	}
	slices.SortFunc(all, comparePagePaths)
	if !slices.Equal(s.Pages(), all) {
		t.Errorf("Pages: %d, not every page (%d) by path", len(s.Pages()), len(all))
	}
}
