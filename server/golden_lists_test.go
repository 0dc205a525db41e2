package server

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"folio/pipeline"
)

// TestGoldenLists compares the list pages of a Hugo site folder (a
// section with a subsection, default taxonomies, pagination) with the
// files in testdata/golden: a taxonomy listing its terms with counts, a
// term listing posts with their dates, categories, tags and statuses,
// its further pager, sections with and without subsections, as HTML.
func TestGoldenLists(t *testing.T) {
	ts := httptest.NewServer(newServer(t, listSite(t), false))
	t.Cleanup(ts.Close)
	for _, g := range []struct{ file, path string }{
		{"list-tags.html", "/tags/"},
		{"list-tag-go.html", "/tags/go/"},
		{"list-tag-go-page-3.html", "/tags/go/page/3/"},
		{"list-category-notes.html", "/categories/notes/"},
		{"list-docs.html", "/docs/"},
		{"list-posts-deep.html", "/posts/deep/"},
	} {
		t.Run(g.file, func(t *testing.T) {
			resp, body := get(t, ts, "GET", g.path)
			if resp.StatusCode != 200 {
				t.Fatalf("GET %s: %d %s", g.path, resp.StatusCode, body)
			}
			golden(t, g.file, body)
		})
	}
}

// listSite is a Hugo site folder of lists: a main section with a
// subsection, another section with one, eight posts sharing two tags and
// a category, pagers of three.
func listSite(t testing.TB) *pipeline.Snapshot {
	t.Helper()
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("hugo.toml", "baseURL = \"https://example.org/\"\ntitle = \"Lists & Co\"\n[pagination]\npagerSize = 3\n[menus]\n[[menus.main]]\nname = \"About\"\nurl = \"/about/\"\n")
	write("content/about.md", "---\ntitle: About\n---\nAbout.\n")
	write("content/posts/_index.md", "---\ntitle: \"Posts <all>\"\ndescription: \"Every post & more.\"\n---\n")
	for i := range 7 {
		fm := fmt.Sprintf("title: \"Post %d <&>\"\ndate: 2026-01-%02dT10:00:00Z\ntags: [go, \"naïve & co\"]\ncategories: [notes]\n", i, i+1)
		if i%2 == 0 {
			fm += fmt.Sprintf("description: \"The \\\"%d\\\" one.\"\nlastmod: 2026-02-01T00:00:00Z\n", i)
		}
		write(fmt.Sprintf("content/posts/p%d.md", i), "---\n"+fm+"---\nBody.\n")
	}
	write("content/posts/deep/_index.md", "---\ntitle: Deep\n---\n")
	write("content/posts/deep/d.md", "---\ntitle: D\ndate: 2025-12-01T00:00:00Z\ntags: [go]\n---\nD.\n")
	write("content/docs/_index.md", "---\ntitle: Docs\n---\n")
	write("content/docs/intro.md", "---\ntitle: Intro\ndescription: Start here.\n---\nIntro.\n")
	write("content/docs/guide/_index.md", "---\ntitle: Guide\n---\n")
	write("content/docs/guide/g.md", "---\ntitle: G\n---\nG.\n")

	cfg, err := pipeline.LoadSite(pipeline.SiteOptions{Source: dir, Environment: "production"})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := pipeline.Build(os.DirFS(dir), cfg, pipeline.Options{}, fixtureNow)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// TestCached: a theme's .Cached "name" v writes what {{template "name" v}}
// would, makes it once per state for each v, shared by every page that
// asks (the pagers of a term and of the section list the same posts),
// renders a value that cannot be a key every time, makes it once per key
// when given one, and fails the page naming a template that does not
// exist or given two keys.
func TestCached(t *testing.T) {
	list := `{{define "main"}}{{range .Items}}{{template "row" .}}⇔{{$.Cached "row" .}}§{{end}}|{{$.Cached "count" .Items}}|{{$.Cached "count" .Items}}{{end}}
{{define "row"}}<a href="{{.URL}}" title="{{.Title}}">{{.Title}}</a>{{end}}
{{define "count"}}{{len .}}{{end}}`
	theme := fstest.MapFS{
		"templates/base.html": {Data: []byte(`{{template "main" .}}`)},
		"templates/list.html": {Data: []byte(list)},
		"sdk/blog-client.js":  {Data: []byte("export {};\n")},
	}
	s, err := New(listSite(t), Options{Site: theme})
	if err != nil {
		t.Fatal(err)
	}
	st := s.load()
	snap := st.snap
	term := snap.TermPage(snap.Config().DefaultLanguage, "tags", "go")
	if term == nil {
		t.Fatal("no term page for go")
	}
	var bodies []string
	for n := 1; n <= term.Pagers; n++ {
		rp, err := s.listRep(st, term, n)
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, string(rp.body))
	}
	want := `<a href="https://example.org/posts/p6/" title="Post 6 &lt;&amp;&gt;">Post 6 &lt;&amp;&gt;</a>⇔<a href="https://example.org/posts/p6/" title="Post 6 &lt;&amp;&gt;">Post 6 &lt;&amp;&gt;</a>§`
	if !strings.HasPrefix(bodies[0], want) {
		t.Errorf("first pager = %q, want it to start with %q", bodies[0], want)
	}
	for _, b := range bodies {
		items, rest, _ := strings.Cut(b, "|")
		for item := range strings.SplitSeq(strings.TrimSuffix(items, "§"), "§") {
			if a, b, _ := strings.Cut(item, "⇔"); a != b {
				t.Errorf(".Cached wrote %q where {{template}} wrote %q", b, a)
			}
		}
		if rest != "3|3" && rest != "2|2" {
			t.Errorf("uncached fragments: %q", rest)
		}
	}
	made := 0
	st.fragments.Range(func(_, _ any) bool { made++; return true })
	if want := len(term.Pages); made != want {
		t.Errorf("%d fragments kept, want one per item of the term (%d)", made, want)
	}
	// The category's pagers list the same posts: no new fragment.
	cat := snap.TermPage(snap.Config().DefaultLanguage, "categories", "notes")
	for n := 1; n <= cat.Pagers; n++ {
		if _, err := s.listRep(st, cat, n); err != nil {
			t.Fatal(err)
		}
	}
	after := 0
	st.fragments.Range(func(_, _ any) bool { after++; return true })
	if after != made {
		t.Errorf("%d fragments after the category's pagers, want %d (its posts are the term's)", after, made)
	}

	// With a key, the fragment is made once per key: the first page's
	// run of it stands for every page (what it may use is what every
	// page shares, which this test breaks on purpose to see it).
	theme["templates/list.html"] = &fstest.MapFile{Data: []byte(`{{define "main"}}{{.Canonical}} {{$.Cached "first" $ $.Site}}{{end}}
{{define "first"}}<a href="{{.Canonical}}">first</a>{{end}}`)}
	s, err = New(listSite(t), Options{Site: theme})
	if err != nil {
		t.Fatal(err)
	}
	st = s.load()
	term = st.snap.TermPage(st.snap.Config().DefaultLanguage, "tags", "go")
	var first string
	for n := 1; n <= term.Pagers; n++ {
		rp, err := s.listRep(st, term, n)
		if err != nil {
			t.Fatal(err)
		}
		canonical, fragment, _ := strings.Cut(string(rp.body), " ")
		if n == 1 {
			first = canonical
		}
		if want := `<a href="` + first + `">first</a>`; fragment != want || (n > 1 && canonical == first) {
			t.Errorf("pager %d (%s) wrote %q, want the first pager's %q", n, canonical, fragment, want)
		}
	}

	for list, want := range map[string]string{
		`{{define "main"}}{{range .Items}}{{$.Cached "nowhere" .}}{{end}}{{end}}`: `"nowhere"`,
		`{{define "main"}}{{$.Cached "main" $ 1 2}}{{end}}`:                       "one key at most",
	} {
		theme["templates/list.html"] = &fstest.MapFile{Data: []byte(list)}
		s, err = New(listSite(t), Options{Site: theme})
		if err != nil {
			t.Fatal(err)
		}
		st := s.load()
		term := st.snap.TermPage(st.snap.Config().DefaultLanguage, "tags", "go")
		if _, err := s.listRep(st, term, 1); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want one saying %s", list, err, want)
		}
	}
}
