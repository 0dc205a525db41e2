package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// brokenPosts holds one file per problem kind: its content, the line the
// problem must name and a part of the message.
var brokenPosts = []struct {
	name string
	src  string
	line int
	msg  string
}{
	{"unclosed-yaml", "---\ntitle: T\ndate: 2024-01-01\n\nBody.\n", 1, "unclosed block"},
	{"unclosed-toml", "+++\ntitle = 'T'\ndate = 2024-01-01\n\nBody.\n", 1, "unclosed block"},
	{"unclosed-after-blank-lines", "\n\n---\ntitle: T\n", 3, "unclosed block"},
	{"unclosed-json", "{\n\"title\": \"T\",\n\"date\": \"2024-01-01\"\nBody.\n", 4, "} missing: the front matter does not end before this line"},
	{"unclosed-json-at-eof", "\n{\n\"title\": \"T\",\n\"date\": \"2024-01-01\",\n", 2, "unclosed block (} missing)"},
	{"unterminated-json-string", "{\n\"title\": \"x,\n\"date\": \"2024-01-01\"\n}\nBody.\n", 2, `title: unclosed quote (")`},
	{"unterminated-json-string-after-blank-lines", "\n\n{\"date\": \"2024-01-01\",\n\"title\": \"x}\n", 4, `title: unclosed quote (")`},
	{"bad-yaml", "---\ntitle: T\n  nested: : bad\ndate: 2024-01-01\n---\n", 3, "nested: indented under title, which already has a value"},
	{"bad-yaml-bom", "\ufeff---\ntitle: T\n  nested: : bad\n---\n", 3, "nested: indented under title"},
	{"bad-yaml-crlf", "---\r\ntitle: T\r\ndate: 2024-01-01\r\n  nested: : bad\r\n---\r\n", 4, "nested: indented under date"},
	{"bad-toml", "+++\ntitle = 'T'\ndate = 2024-01-01\ntags = [\n+++\n", 4, "tags: unclosed [ (] missing)"},
	{"bad-toml-value", "+++\ntitle = 'T'\ndate =\n+++\n", 3, "date: a value is missing after ="},
	{"bad-json", "{\n  \"title\": \"T\",\n  \"date\": 2024-01-01\n}\n", 3, "date: not a JSON value"},
	{"bad-json-comma", "{\n  \"title\": \"T\",\n  \"date\": \"2024-01-01\",\n}\n", 3, "date: a comma after the last member"},
	{"bad-date", "---\ntitle: T\ndate: next tuesday\n---\n", 3, `date: cannot parse "next tuesday"`},
	{"bad-date-type", "---\ntitle: T\ndate: true\n---\n", 3, "date: want a date"},
	{"bad-publishdate", "---\ntitle: T\ndate: 2024-01-01\npublishDate: 2024-13-45\n---\n", 4, "publishdate: cannot parse"},
	{"bad-expiry", "+++\ntitle = 'T'\ndate = 2024-01-01\nexpiryDate = 'soon'\n+++\n", 4, "expirydate: cannot parse"},
	{"bad-tags", "---\ntitle: T\ndate: 2024-01-01\ntags: {a: 1}\n---\n", 4, "tags: want a list of strings"},
	{"slug-with-slash", "---\ntitle: T\ndate: 2024-01-01\nslug: a/b\n---\n", 4, "must not contain a slash"},
	// Issue 15, finding 12: "." and ".." are path steps, whose URL is the
	// section's page or the one above (Hugo writes the page over it).
	{"slug-dot", "---\ntitle: T\ndate: 2024-01-01\nslug: \".\"\n---\n", 4, `slug "." is a step in a path, not a name`},
	{"slug-dot-dot", "+++\ntitle = 'T'\nslug = '..'\ndate = 2024-01-01\n+++\n", 3, `slug ".." is a step in a path`},
	{"slug-dot-dot-tab", "---\ntitle: T\ndate: 2024-01-01\nslug: \"..\\t\"\n---\n", 4, `slug ".." is a step in a path`},
	{"slug-controls-only", "---\ntitle: T\ndate: 2024-01-01\nslug: \"\\t\\u0001\"\n---\n", 4, "empty slug"},
	{"invalid-utf8-body", "---\ntitle: T\ndate: 2024-01-01\n---\nfine\nbad \xff byte\n", 6, "invalid UTF-8"},
	{"invalid-utf8-front-matter", "---\ntitle: caf\xe9\ndate: 2024-01-01\n---\n", 2, "invalid UTF-8"},
	{"unclosed-shortcode", "---\ntitle: T\ndate: 2024-01-01\n---\n\n{{< figure src=\"a.png\"\n", 6, "shortcode"},
	{"stray-closing-shortcode", "---\ntitle: T\ndate: 2024-01-01\n---\nText.\n\n{{< /figure >}}\n", 7, "shortcode"},
	{"mismatched-closing-shortcode", "---\ntitle: T\ndate: 2024-01-01\n---\n{{< note >}}\nx\n{{< /other >}}\n", 7, "shortcode"},
	{"closed-figure", "---\ntitle: T\ndate: 2024-01-01\n---\n{{< figure src=a >}}\ncaption?\n{{< /figure >}}\n", 7, "unexpected closing tag {{< /figure >}}"},
}

// notOneTitle holds titles that are not one string, which Hugo 0.165
// reads as none: a warning at the key's line, in every format.
var notOneTitle = []struct {
	name string
	src  string
	line int
	msg  string
}{
	{"title-map", "---\ndate: 2024-01-01\ntitle: {a: 1}\n---\n", 3, "title: a "},
	{"title-list", "---\ndate: 2024-01-01\ntitle: [a, b]\n---\n", 3, "title: a list"},
	{"title-toml-list", "+++\ndate = 2024-01-01\nTitle = [true]\n+++\n", 3, "title: a "},
	{"title-json-object", "{\n\"date\": \"2024-01-01\",\n\"title\": {}\n}\n", 3, "title: a "},
	{"title-after-nested-title", "---\ndate: 2024-01-01\nparams:\n  title: fine\ntitle: [5]\n---\n", 5, "title: a "},
	{"json-nested-title", "{\n  \"date\": \"2024-01-01\",\n  \"title\": [1]\n}\n", 3, "title: a "},
}

func TestTitleNotOneStringWarnsAtItsLine(t *testing.T) {
	for _, tt := range notOneTitle {
		t.Run(tt.name, func(t *testing.T) {
			p, err := parsePost("blog/"+tt.name+".md", []byte(tt.src), tt.name, paris(t))
			if err != nil {
				t.Fatal(err)
			}
			if len(p.keyWarnings) != 1 || p.Title != tt.name {
				t.Fatalf("title %q, warnings %v: want the slug and one warning", p.Title, p.keyWarnings)
			}
			if w := p.keyWarnings[0]; w.Line != tt.line || w.Severity != Warning || !strings.Contains(w.Message, tt.msg) {
				t.Errorf("got %+v, want line %d and a message containing %q", w, tt.line, tt.msg)
			}
		})
	}
}

func TestParseProblems(t *testing.T) {
	for _, tt := range brokenPosts {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parsePost("blog/"+tt.name+".md", []byte(tt.src), tt.name, paris(t))
			var ce *contentError
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v, want a *contentError", err)
			}
			if ce.line != tt.line || !strings.Contains(ce.msg, tt.msg) {
				t.Errorf("got line %d %q, want line %d and a message containing %q", ce.line, ce.msg, tt.line, tt.msg)
			}
		})
	}
}

// TestBuildLeavesBrokenFilesOut puts every broken file beside two good
// posts: each is reported with its path and line, and only the good posts
// are in the snapshot.
func TestBuildLeavesBrokenFilesOut(t *testing.T) {
	fsys := mapFS(map[string]string{
		"blog/good-one.md": post(),
		"blog/good-two.md": post("slug: second"),
	})
	for _, tt := range brokenPosts {
		fsys["blog/"+tt.name+".md"] = mapFS(map[string]string{"": tt.src})[""]
	}
	s := build(t, fsys, Options{Root: "content"}, testNow)
	if got := strings.Join(slugs(s.posts), " "); got != "good-one second" {
		t.Errorf("posts = %s, want good-one second", got)
	}
	byPath := map[string]Problem{}
	for _, p := range s.problems {
		byPath[p.Path] = p
	}
	if len(s.problems) != len(brokenPosts) {
		t.Errorf("%d problems, want %d: %v", len(s.problems), len(brokenPosts), s.problems)
	}
	for _, tt := range brokenPosts {
		path := filepath.Join("content", "blog", tt.name+".md")
		p, ok := byPath[path]
		if !ok {
			t.Errorf("no problem for %s", path)
			continue
		}
		if p.Line != tt.line || !strings.Contains(p.Message, tt.msg) {
			t.Errorf("%s: got line %d %q, want line %d and %q", path, p.Line, p.Message, tt.line, tt.msg)
		}
	}
}

func TestDuplicateURLNamesBothFiles(t *testing.T) {
	fsys := mapFS(map[string]string{
		"blog/a.md":       post("slug: same"),
		"blog/b.md":       post("slug: same"),
		"blog/c.md":       "+++\ntitle = 'C'\ndate = 2026-01-01\nslug = 'c'\n\nurl = '/blog/same/'\n+++\n",
		"blog/same.md":    post(),
		"blog/other.md":   post(),
		"blog/draft.md":   post("slug: other", "draft: true"), // not published: no clash
		"blog/same/x.txt": "a folder without index.md is not a bundle",
	})
	s := build(t, fsys, Options{Root: "content"}, testNow)
	// The first file by path keeps the URL; each other one is reported,
	// naming the file that kept it, whatever the map order was, at the
	// line that sets its URL (url, else slug; line 1 when its name does).
	want := []Problem{
		{Path: filepath.FromSlash("content/blog/b.md"), Line: 2, Message: "duplicate URL /blog/same/: also claimed by " + filepath.FromSlash("content/blog/a.md")},
		{Path: filepath.FromSlash("content/blog/c.md"), Line: 6, Message: "duplicate URL /blog/same/: also claimed by " + filepath.FromSlash("content/blog/a.md")},
		{Path: filepath.FromSlash("content/blog/same.md"), Line: 1, Message: "duplicate URL /blog/same/: also claimed by " + filepath.FromSlash("content/blog/a.md")},
	}
	if !equalProblems(s.problems, want) {
		t.Errorf("problems:\n%v\nwant:\n%v", s.problems, want)
	}
	if p := s.Post("same"); p == nil || p.File != "blog/a.md" {
		t.Errorf("Post(same) = %+v, want blog/a.md", p)
	}
	if got := strings.Join(slugs(s.posts), " "); got != "other same" {
		t.Errorf("posts = %s", got)
	}
}

// TestDuplicateURLIsTheURL: what clashes is the URL Hugo makes, not the
// slug: slugs differing in case are one lower-cased URL, and one slug in
// two nested sections is two URLs.
func TestDuplicateURLIsTheURL(t *testing.T) {
	fsys := mapFS(map[string]string{
		"blog/a.md":        post("slug: Case"),
		"blog/b.md":        post("slug: case"),
		"blog/x/_index.md": "---\ntitle: X\n---\n",
		"blog/x/c.md":      post("slug: same"),
		"blog/y/_index.md": "---\ntitle: Y\n---\n",
		"blog/y/d.md":      post("slug: same"),
	})
	s := build(t, fsys, Options{Root: "content"}, testNow)
	want := []Problem{
		{Path: filepath.FromSlash("content/blog/b.md"), Line: 2, Message: "duplicate URL /blog/case/: also claimed by " + filepath.FromSlash("content/blog/a.md")},
	}
	if !equalProblems(s.problems, want) {
		t.Errorf("problems:\n%v\nwant:\n%v", s.problems, want)
	}
	var urls []string
	for _, p := range s.posts {
		urls = append(urls, s.URLOf(p))
	}
	slices.Sort(urls)
	if got := strings.Join(urls, " "); got != "blog/case/ blog/x/same/ blog/y/same/" {
		t.Errorf("post URLs = %s", got)
	}
}

// TestAliasNeverHidesAPage: an alias at another page's URL never takes
// it, whichever file comes first (Hugo writes both there, and keeps one
// or the other from build to build), and the alias's file gets a warning
// at its aliases line.
func TestAliasNeverHidesAPage(t *testing.T) {
	for _, name := range []string{"a.md", "z.md"} { // before the page's file, and after
		t.Run(name, func(t *testing.T) {
			fsys := mapFS(map[string]string{
				"blog/" + name: post("aliases: [/blog/b/, /old/]"),
				"blog/b.md":    post("title: B"),
			})
			s := build(t, fsys, Options{Root: "content"}, testNow)
			if r, ok := s.Route("/blog/b/"); !ok || r.Kind != RoutePage || r.Page.Post.File != "blog/b.md" {
				t.Errorf("/blog/b/ = %+v, want b.md's page", r)
			}
			if r, ok := s.Route("/old/"); !ok || r.Kind != RouteAlias {
				t.Errorf("/old/ = %+v, want the other alias", r)
			}
			want := []Problem{{Path: filepath.FromSlash("content/blog/" + name), Line: 2, Severity: Warning,
				Message: "alias /blog/b/ is also the URL of " + filepath.FromSlash("content/blog/b.md") + ", which is served there, not the redirect (Hugo writes both, and which one it keeps varies from build to build)"}}
			if !equalProblems(s.problems, want) {
				t.Errorf("problems:\n%v\nwant:\n%v", s.problems, want)
			}
		})
	}
}

func equalProblems(a, b []Problem) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestProblemsGolden builds testdata/broken (a small site with one broken
// file of each kind, on disk) and compares what folio check prints with
// testdata/broken.golden. Run with -update after an intended change.
func TestProblemsGolden(t *testing.T) {
	s, err := Build(os.DirFS("testdata/broken"), testConfig(t), Options{Root: "content"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, p := range s.problems {
		b.WriteString(filepath.ToSlash(p.String()) + "\n")
	}
	b.WriteString("posts: " + strings.Join(slugs(s.posts), " ") + "\n")
	golden(t, "testdata/broken.golden", b.String())
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run with -update if intended):\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// TestNoDateIsAWarning: a post without a date is published, as Hugo
// publishes it (listed last), with a warning at its front matter's line.
func TestNoDateIsAWarning(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line      int
	}{
		{"no-date", "---\ntitle: T\n---\nBody.\n", 1},
		{"no-date-json", "\n{\"title\": \"T\"}\n", 2},
		{"no-front-matter", "Just text.\n", 1},
		{"empty-file", "", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := mapFS(map[string]string{"blog/dated.md": post(), "blog/" + tc.name + ".md": tc.src})
			s := build(t, fsys, Options{Root: "content"}, testNow)
			if got := strings.Join(slugs(s.posts), " "); got != "dated "+tc.name {
				t.Errorf("posts = %s, want the dated one, then %s", got, tc.name)
			}
			want := filepath.Join("content", "blog", tc.name+".md") + ":" + strconv.Itoa(tc.line) + ": warning: front matter: no date"
			if len(s.problems) != 1 || !strings.HasPrefix(s.problems[0].String(), want) {
				t.Errorf("problems %v, want one starting %q", s.problems, want)
			}
		})
	}
}

// TestAliasNeverHidesAStaticIndex: an alias at the URL of a static
// folder whose index.html a static host serves there gives way to the
// file, with a warning at the alias's line, and still after an update.
func TestAliasNeverHidesAStaticIndex(t *testing.T) {
	files := map[string]string{
		"hugo.toml":                "title = 'S'",
		"content/posts/a.md":       post("aliases: [/legacy/, /old/]"),
		"static/legacy/index.html": "<p>the old site</p>",
		"static/legacy/page.html":  "<p>a page of it</p>",
		"static/other/index.html":  "<p>other</p>",
		"content/posts/other/b.md": post("title: B"),
	}
	cfg := loadSite(t, files, "production")
	fsys := mapFS(files)
	s, err := Build(fsys, cfg, Options{}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		if r, ok := s.Route("/legacy/"); ok && r.Kind == RouteAlias {
			t.Errorf("%s: /legacy/ is the alias, want the static folder's index.html", when)
		}
		if r, ok := s.Route("/legacy/index.html"); !ok || r.Kind != RouteFile {
			t.Errorf("%s: /legacy/index.html = %+v, %v; want the file", when, r, ok)
		}
		if r, ok := s.Route("/old/"); !ok || r.Kind != RouteAlias {
			t.Errorf("%s: /old/ = %+v, want the other alias", when, r)
		}
		want := "alias /legacy/ is also the URL of " + filepath.FromSlash("static/legacy/index.html") + ", which is served there, not the redirect"
		found := false
		for _, p := range s.problems {
			found = found || p.Severity == Warning && p.Line == 2 && strings.HasPrefix(p.Message, want)
		}
		if !found {
			t.Errorf("%s: no warning %q at the aliases line in %v", when, want, s.problems)
		}
	}
	check("built")
	set(fsys, "content/posts/a.md", post("aliases: [/legacy/, /old/]")+"Edited.\n")
	s = update1(t, s, "content/posts/a.md")
	check("after an edit of the post")
}

// TestAliasNeverHidesThe404Page: an alias at /404.html gives way to the
// site's 404 page (serve answered it with the 301, and build refused the
// site without saying where), with a warning at the aliases line, also
// when an edit adds it.
func TestAliasNeverHidesThe404Page(t *testing.T) {
	want := []Problem{{Path: filepath.FromSlash("content/blog/a.md"), Line: 2, Severity: Warning,
		Message: "alias /404.html is also the URL of the site's 404 page, which is served there, not the redirect (Hugo writes both, and which one it keeps varies from build to build)"}}
	fsys := mapFS(map[string]string{"blog/a.md": post("aliases: [/404.html, /old/]"), "blog/b.md": post("title: B")})
	s := build(t, fsys, Options{Root: "content"}, testNow)
	if r, ok := s.Route("/404.html"); ok {
		t.Errorf("/404.html = %+v, want no route (the 404 page)", r)
	}
	if r, ok := s.Route("/old/"); !ok || r.Kind != RouteAlias {
		t.Errorf("/old/ = %+v, want the other alias", r)
	}
	if !equalProblems(s.problems, want) {
		t.Errorf("problems:\n%v\nwant:\n%v", s.problems, want)
	}
	fsys = mapFS(map[string]string{"blog/a.md": post("title: A"), "blog/b.md": post("title: B")})
	s = build(t, fsys, Options{Root: "content"}, testNow)
	set(fsys, "blog/a.md", post("aliases: [/404.html, /old/]"))
	s = update1(t, s, "blog/a.md")
	if r, ok := s.Route("/404.html"); ok {
		t.Errorf("after an edit: /404.html = %+v, want no route", r)
	}
	if !equalProblems(s.problems, want) {
		t.Errorf("after an edit: problems:\n%v\nwant:\n%v", s.problems, want)
	}
}
