package pipeline

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestPublishedRule(t *testing.T) {
	now := testNow // 2026-06-01T12:00:00Z
	tests := []struct {
		name  string
		front string
		want  bool
	}{
		{"publish date == now", "date: 2026-06-01T12:00:00Z", true},
		{"publish date == now, written in Paris", "date: 2026-06-01T14:00:00", true},
		{"publish date a second later", "date: 2026-06-01T12:00:01Z", false},
		{"publishDate in the future wins over a past date", "date: 2020-01-01\npublishDate: 2027-01-01", false},
		{"expiry == now", "date: 2026-01-01\nexpiryDate: 2026-06-01T12:00:00Z", true},
		{"expiry a second ago", "date: 2026-01-01\nexpiryDate: 2026-06-01T11:59:59Z", false},
		{"expiry later", "date: 2026-01-01\nunpublishdate: 2026-06-02", true},
		{"draft", "date: 2026-01-01\ndraft: true", false},
		{"draft false", "date: 2026-01-01\ndraft: false", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := mapFS(map[string]string{"blog/x.md": "---\ntitle: X\n" + tt.front + "\n---\n"})
			s := build(t, fsys, Options{}, now)
			if len(s.problems) > 0 {
				t.Fatal(s.problems)
			}
			if got := len(s.posts) == 1; got != tt.want {
				t.Errorf("published = %v, want %v", got, tt.want)
			}
			if got := s.Post("x") != nil; got != tt.want {
				t.Errorf("Post(x) found = %v, want %v", got, tt.want)
			}
			// folio dev --drafts shows every post.
			if d := build(t, fsys, Options{Drafts: true}, now); len(d.posts) != 1 {
				t.Errorf("with Drafts: %d posts, want 1", len(d.posts))
			}
		})
	}
}

func TestOrder(t *testing.T) {
	fsys := mapFS(map[string]string{
		"blog/b.md":       yamlPost("date: 2024-01-01T10:00:00Z"),
		"blog/a.md":       yamlPost("date: 2024-01-01T10:00:00Z"),
		"blog/c.md":       yamlPost("date: 2024-01-01T11:00:00+01:00"), // same instant
		"blog/Bee.md":     yamlPost("date: 2024-01-01T10:00:00Z"),      // upper case sorts first
		"blog/newer.md":   yamlPost("date: 2024-01-01T10:00:01Z"),
		"blog/older.md":   yamlPost("date: 2023-12-31T23:59:59Z"),
		"blog/pub.md":     yamlPost("date: 2020-01-01", "publishDate: 2024-01-01T10:00:00Z"),
		"blog/é-first.md": yamlPost("date: 2024-01-01T10:00:00Z"),
	})
	s := build(t, fsys, Options{}, testNow)
	want := "newer Bee a b c pub é-first older"
	if got := strings.Join(slugs(s.posts), " "); got != want {
		t.Errorf("order = %s\nwant    %s", got, want)
	}
	for i := 1; i < len(s.posts); i++ {
		if Compare(s.posts[i-1], s.posts[i]) >= 0 {
			t.Errorf("Compare(%s, %s) >= 0", s.posts[i-1].Slug, s.posts[i].Slug)
		}
	}
}

func TestSlugs(t *testing.T) {
	fsys := mapFS(map[string]string{
		"blog/from-file.md":                   post(),
		"blog/front.md":                       post("slug: from-front-matter"),
		"blog/from-folder/index.md":           post(),
		"blog/folder2/index.md":               post("slug: bundle-front-matter"),
		"blog/2024/nested-file.md":            post(), // folders may group posts
		"blog/2024/05/nested-bundle/index.md": post(),
		"blog/café crème.md":                  post(),
		"blog/日本語.md":                         post(),
		"blog/index.md":                       post(), // a post named index, not a bundle of the whole section
		"blog/_index.md":                      "---\ntitle: The blog\n---\nSection page, not a post.\n",
		"blog/.hidden.md":                     post(),
		"blog/draft.md~":                      post(),
		"blog/#autosave.md#":                  post(),
		"blog/notes.txt":                      "not Markdown",
		"other/elsewhere.md":                  post(), // outside the section
		"index.md":                            post(),
	})
	s := build(t, fsys, Options{}, testNow)
	if len(s.problems) > 0 {
		t.Fatal(s.problems)
	}
	got := slugs(s.posts)
	slices.Sort(got)
	want := []string{"bundle-front-matter", "café crème", "from-file", "from-folder", "from-front-matter", "index", "nested-bundle", "nested-file", "日本語"}
	if !slices.Equal(got, want) {
		t.Errorf("slugs = %q\nwant    %q", got, want)
	}
	if p := s.Post("café crème"); p == nil || p.Path("blog") != "blog/caf%C3%A9%20cr%C3%A8me/" || p.MarkdownPath("blog") != "blog/caf%C3%A9%20cr%C3%A8me.md" {
		t.Errorf("Post(café crème) = %+v", p)
	}
	if p := s.Post("nested-bundle"); p == nil || p.Bundle != "blog/2024/05/nested-bundle" || p.File != "blog/2024/05/nested-bundle/index.md" {
		t.Errorf("nested bundle = %+v", p)
	}
}

// TestSectionIndexIsABundle: in a Hugo site, a section folder's index.md
// makes the folder one page, as Hugo does, and says so. (folio's own
// config keeps its earlier rule: TestSlugs.)
func TestSectionIndexIsABundle(t *testing.T) {
	cfg, err := LoadSite(SiteOptions{FS: mapFS(map[string]string{"hugo.toml": "[folio]\nsection = 'blog'\n"})})
	if err != nil {
		t.Fatal(err)
	}
	fsys := mapFS(map[string]string{"content/blog/index.md": post(), "content/blog/a.md": post(), "content/blog/b.md": post()})
	s, err := Build(fsys, cfg, Options{}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	if got := slugs(s.posts); len(got) != 0 {
		t.Errorf("posts = %v, want none: blog is one page", got)
	}
	if len(s.problems) != 1 || s.problems[0].Severity != Warning ||
		!strings.Contains(s.problems[0].Message, "index.md makes content/blog one page, as in Hugo: its 2 other Markdown files are not published") {
		t.Errorf("problems = %v", s.problems)
	}
}

func TestBundleResources(t *testing.T) {
	fsys := mapFS(map[string]string{
		"blog/trip/index.md":         post(),
		"blog/trip/photo.png":        "png",
		"blog/trip/data/route.gpx":   "gpx",
		"blog/trip/data/deep/x.json": "{}",
		"blog/trip/notes.md":         "an .md in a bundle is a resource, not a post",
		"blog/trip/sub/index.md":     "not a nested bundle either",
		"blog/trip/.DS_Store":        "hidden",
		"blog/trip/.git/config":      "hidden folder",
		"blog/trip/photo.png~":       "backup",
		"blog/trip/.photo.png.swp":   "vim swap",
		"blog/trip/#photo.png#":      "Emacs autosave",
		// Hugo 0.165 publishes these when they are there, and so does folio.
		"blog/trip/photo.swp":     "swap without a dot",
		"blog/trip/4913":          "vim's write test",
		"blog/trip/draft.tmp":     "temp",
		"blog/trip/x___jb_tmp___": "JetBrains temp",
		"blog/single.md":          post(),
	})
	s := build(t, fsys, Options{}, testNow)
	if len(s.problems) > 0 {
		t.Fatal(s.problems)
	}
	if got := strings.Join(slugs(s.posts), " "); got != "single trip" {
		t.Fatalf("posts = %s, want single trip", got)
	}
	trip := s.Post("trip")
	want := []string{"4913", "data/deep/x.json", "data/route.gpx", "draft.tmp", "photo.png", "photo.swp", "x___jb_tmp___"}
	if !slices.Equal(trip.Resources, want) {
		t.Errorf("Resources = %q\nwant        %q", trip.Resources, want)
	}
	// Content files are Hugo's page resources: never published.
	if want := []string{"notes.md", "sub/index.md"}; !slices.Equal(trip.ContentFiles, want) {
		t.Errorf("ContentFiles = %q, want %q", trip.ContentFiles, want)
	}
	f, err := s.Resource(trip, "data/route.gpx")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(f)
	f.Close()
	if string(b) != "gpx" {
		t.Errorf("resource body = %q", b)
	}
	for _, name := range []string{".DS_Store", "index.md", "../single.md", "photo.png~", "data", "missing.png"} {
		if _, err := s.Resource(trip, name); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Resource(%q) err = %v, want ErrNotExist", name, err)
		}
	}
	if _, err := s.Resource(s.Post("single"), "photo.png"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a single-file post has no resources, got %v", err)
	}
	if single := s.Post("single"); single.Bundle != "" || len(single.Resources) != 0 {
		t.Errorf("single = %+v", single)
	}
}

func TestEmptyAndMissingSection(t *testing.T) {
	for name, fsys := range map[string]fstest.MapFS{
		"no content at all": {},
		"no section folder": mapFS(map[string]string{"other/x.md": post()}),
		"empty section":     {"blog": &fstest.MapFile{Mode: fs.ModeDir | 0o755}},
	} {
		s, err := Build(fsys, testConfig(t), Options{}, testNow)
		if err != nil || len(s.posts) != 0 || len(s.problems) != 0 {
			t.Errorf("%s: %d posts, %v, err %v", name, len(s.posts), s.problems, err)
		}
	}
}

func TestAliasesAndLookups(t *testing.T) {
	fsys := mapFS(map[string]string{
		"blog/new.md": post("aliases: [/old/path/, old-name, /2019/01/x, ../above, /, \"\"]"),
	})
	s := build(t, fsys, Options{}, testNow)
	// An alias with a slash first is from the site root; any other,
	// from the page's section, as Hugo writes them; one at or above the
	// root is none.
	var got []string
	for _, r := range s.Routes() {
		if r.Kind == RouteAlias && r.Target == "/blog/new/" {
			got = append(got, r.Path)
		}
	}
	want := []string{"/2019/01/x/", "/above/", "/blog/old-name/", "/old/path/"}
	if !slices.Equal(got, want) {
		t.Errorf("aliases %q, want %q", got, want)
	}
	if s.Post("nope") != nil {
		t.Error("unknown lookups should be nil")
	}
	if s.FS() == nil || s.Options().Drafts || s.config == nil || s.id == 0 || !s.now.Equal(testNow) {
		t.Errorf("snapshot accessors: %+v", s)
	}
}

// TestEachRoute: EachRoute yields Routes, in their order (sorted by
// path), and a caller's copy of Routes changed leaves them as they were.
func TestEachRoute(t *testing.T) {
	fsys := mapFS(map[string]string{
		"blog/new.md": post("aliases: [/old/path/, old-name]"),
		"blog/b.md":   post("tags: [x, y]"),
	})
	s := build(t, fsys, Options{}, testNow)
	routes := s.Routes()
	if len(routes) < 5 || !slices.IsSortedFunc(routes, func(a, b Route) int { return strings.Compare(a.Path, b.Path) }) {
		t.Fatalf("routes %v: want some, sorted by path", routes)
	}
	want := slices.Clone(routes)
	routes[0].Path = "/changed/"
	if got := slices.Collect(s.EachRoute()); !slices.Equal(got, want) {
		t.Errorf("EachRoute %v, want %v", got, want)
	}
}

func TestSnapshotIDsIncrease(t *testing.T) {
	fsys := mapFS(map[string]string{"blog/x.md": post()})
	a := build(t, fsys, Options{}, testNow)
	b := build(t, fsys, Options{}, testNow)
	if b.id <= a.id {
		t.Errorf("IDs %d then %d", a.id, b.id)
	}
}

func TestAt(t *testing.T) {
	publish := testNow.Add(time.Hour)
	expire := testNow.Add(2 * time.Hour)
	fsys := mapFS(map[string]string{
		"blog/always.md":    post(),
		"blog/scheduled.md": yamlPost("date: " + publish.Format(time.RFC3339)),
		"blog/expiring.md":  yamlPost("date: 2026-01-01", "expiryDate: "+expire.Format(time.RFC3339)),
		"blog/draft.md":     yamlPost("date: 2026-01-01", "draft: true"),
	})
	s := build(t, fsys, Options{}, testNow)
	steps := []struct {
		at   time.Time
		want string
		next time.Time
	}{
		{testNow, "always expiring", publish},
		{publish.Add(-time.Nanosecond), "always expiring", publish},
		{publish, "scheduled always expiring", expire.Add(time.Nanosecond)},
		{expire, "scheduled always expiring", expire.Add(time.Nanosecond)},
		{expire.Add(time.Second), "scheduled always", time.Time{}},
	}
	for _, st := range steps {
		next := s.At(st.at)
		if got := strings.Join(slugs(next.posts), " "); got != st.want {
			t.Errorf("At(%v) = %s, want %s", st.at, got, st.want)
		}
		if !next.NextChange().Equal(st.next) {
			t.Errorf("At(%v).NextChange() = %v, want %v", st.at, next.NextChange(), st.next)
		}
		if next != s && next.id <= s.id {
			t.Errorf("a new snapshot needs a new ID")
		}
		s = next
	}
	// Nothing changes before the next instant: At returns the same value.
	if again := s.At(s.now.Add(24 * time.Hour)); again != s {
		t.Error("At without a scheduled change made a new snapshot")
	}
	// Under --drafts everything is visible already.
	d := build(t, fsys, Options{Drafts: true}, testNow)
	if len(d.posts) != 4 || d.At(expire.Add(time.Hour)) != d {
		t.Errorf("drafts snapshot: %d posts", len(d.posts))
	}
}

// TestBuildFlags: the config's buildDrafts, buildFuture and buildExpired
// publish what Hugo then publishes, each on its own, and the schedule
// waits only for the changes that still show or hide a post; a draft's
// problems count once the config publishes it.
func TestBuildFlags(t *testing.T) {
	publish := testNow.Add(time.Hour)
	expire := testNow.Add(2 * time.Hour)
	files := map[string]string{
		"content/blog/always.md":    post(),
		"content/blog/scheduled.md": yamlPost("date: " + publish.Format(time.RFC3339)),
		"content/blog/expiring.md":  yamlPost("date: 2026-01-01", "expiryDate: "+expire.Format(time.RFC3339)),
		"content/blog/expired.md":   yamlPost("date: 2020-01-01", "expiryDate: 2021-01-01"),
		"content/blog/draft.md":     yamlPost("date: 2026-01-01", "draft: true"),
		"content/blog/broken.md":    "---\ntitle: Broken\ndraft: true\ndate: not a date\n---\n",
	}
	tests := []struct {
		config   string
		want     string
		next     time.Time
		problems int
	}{
		{"", "always expiring", publish, 0},
		{"buildDrafts = true", "always draft expiring", publish, 1},
		{"buildFuture = true", "scheduled always expiring", expire.Add(time.Nanosecond), 0},
		{"buildExpired = true", "always expiring expired", publish, 0},
		{"buildDrafts = true\nbuildFuture = true\nbuildExpired = true", "scheduled always draft expiring expired", time.Time{}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.config, func(t *testing.T) {
			fsys := mapFS(files)
			fsys["hugo.toml"] = &fstest.MapFile{Data: []byte(tt.config + "\n[folio]\nsection = 'blog'\n")}
			cfg, err := LoadSite(SiteOptions{FS: fsys})
			if err != nil {
				t.Fatal(err)
			}
			s, err := Build(fsys, cfg, Options{}, testNow)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(slugs(s.posts), " "); got != tt.want {
				t.Errorf("posts %s, want %s", got, tt.want)
			}
			if !s.NextChange().Equal(tt.next) {
				t.Errorf("next change %v, want %v", s.NextChange(), tt.next)
			}
			if len(s.Problems()) != tt.problems {
				t.Errorf("problems %v, want %d", s.Problems(), tt.problems)
			}
		})
	}
}

// TestDescribe: a post without a description or summary in its front
// matter gets Options.Describe's; the others keep theirs.
func TestDescribe(t *testing.T) {
	fsys := mapFS(map[string]string{
		"blog/a.md": "---\ntitle: A\ndate: 2024-01-01\n---\nBody of A.\n",
		"blog/b.md": "---\ntitle: B\ndate: 2024-01-01\ndescription: Own.\n---\nBody of B.\n",
		"blog/c.md": "---\ntitle: C\ndate: 2024-01-01\nsummary: Summary.\n---\nBody of C.\n",
	})
	describe := func(p *Post) string { return "made from " + p.Slug }
	s := build(t, fsys, Options{Describe: describe}, testNow)
	for slug, want := range map[string]string{"a": "made from a", "b": "Own.", "c": "Summary."} {
		if got := s.Post(slug).Description; got != want {
			t.Errorf("%s: description %q, want %q", slug, got, want)
		}
	}
}

// TestEmptyTermEntry: an empty taxonomy entry is left out with a
// warning, and the post is published (Hugo accepts it).
func TestEmptyTermEntry(t *testing.T) {
	fsys := mapFS(map[string]string{"blog/a.md": "---\ntitle: A\ndate: 2024-01-01\ntags:\n  - go\n  -\n  - \"\"\ncategories: [notes, ~]\n---\nBody.\n"})
	s := build(t, fsys, Options{Root: "content"}, testNow)
	p := s.Post("a")
	if p == nil {
		t.Fatalf("the post is left out: %v", s.Problems())
	}
	if fmt.Sprint(p.Tags, p.Categories) != "[go] [notes]" {
		t.Errorf("tags %v, categories %v", p.Tags, p.Categories)
	}
	var got []string
	for _, pr := range s.Problems() {
		got = append(got, pr.String())
	}
	want := []string{
		"content/blog/a.md:1: warning: front matter: categories: an empty entry is left out, as Hugo leaves it out",
		"content/blog/a.md:1: warning: front matter: tags: an empty entry is left out, as Hugo leaves it out",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(Errors(s.Problems())) != 0 {
		t.Error("a warning counts as an error")
	}
}

// TestDraftProblems: a draft's problems count only when drafts are
// shown, as Hugo does not build drafts; a file whose front matter does
// not decode is a problem whatever it says.
func TestDraftProblems(t *testing.T) {
	files := map[string]string{
		"blog/ok.md":        "---\ntitle: OK\ndate: 2024-01-01\n---\n",
		"blog/draft.md":     "---\ntitle: [not, a, string]\ndate: 2024-01-01\ndraft: true\n---\n",
		"blog/draft-tag.md": "---\ntitle: T\ndate: 2024-01-01\ndraft: true\ntags: [~]\n---\n",
		"blog/broken.md":    "---\ntitle: [unclosed\ndraft: true\n---\n",
	}
	for _, drafts := range []bool{false, true} {
		s := build(t, mapFS(files), Options{Root: "content", Drafts: drafts}, testNow)
		var got []string
		for _, pr := range s.Problems() {
			got = append(got, pr.Path)
		}
		want := []string{"content/blog/broken.md"}
		if drafts {
			want = []string{"content/blog/broken.md", "content/blog/draft-tag.md", "content/blog/draft.md"}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("drafts %v: problems in %v, want %v", drafts, got, want)
		}
	}
}
