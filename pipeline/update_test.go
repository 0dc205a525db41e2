package pipeline

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func update1(t *testing.T, s *Snapshot, changed ...string) *Snapshot {
	t.Helper()
	n, err := s.Update(changed, testNow)
	if err != nil {
		t.Fatalf("Update(%q): %v", changed, err)
	}
	if n.id <= s.id {
		t.Errorf("Update gave ID %d after %d", n.id, s.id)
	}
	return n
}

func set(fsys fstest.MapFS, name, data string) {
	fsys[name] = &fstest.MapFile{Data: []byte(data), Mode: 0o644}
}

func removeAll(fsys fstest.MapFS, prefix string) {
	for k := range fsys {
		if k == prefix || strings.HasPrefix(k, prefix+"/") {
			delete(fsys, k)
		}
	}
}

func sortedSlugs(s *Snapshot) string {
	got := slugs(s.posts)
	slices.Sort(got)
	return strings.Join(got, " ")
}

func threePosts() fstest.MapFS {
	return mapFS(map[string]string{
		"blog/a.md":          post("title: A"),
		"blog/b.md":          post("title: B"),
		"blog/trip/index.md": post("title: Trip"),
		"blog/trip/map.png":  "png",
	})
}

func TestUpdateChangedFile(t *testing.T) {
	fsys := threePosts()
	s := build(t, fsys, Options{}, testNow)
	oldA, oldB, oldTrip := s.Post("a"), s.Post("b"), s.Post("trip")

	set(fsys, "blog/a.md", "---\ntitle: A2\ndate: 2026-01-01T00:00:00Z\n---\n")
	n := update1(t, s, "blog/a.md")
	if got := n.Post("a").Title; got != "A2" {
		t.Errorf("title after edit = %q, want A2", got)
	}
	if n.Post("b") != oldB || n.Post("trip") != oldTrip {
		t.Error("unchanged posts were parsed again instead of shared")
	}
	// The old snapshot is a value: the edit did not reach it.
	if s.Post("a") != oldA || oldA.Title != "A" {
		t.Errorf("old snapshot changed: %q", s.Post("a").Title)
	}
	// Naming a file that did not change (an editor touching it) shares it.
	if m := update1(t, n, "blog/b.md", "blog/a.md"); m.Post("b") != oldB || m.Post("a") != n.Post("a") {
		t.Error("an unchanged file was parsed again")
	}
	// Paths outside the section are ignored; leading slashes are allowed.
	if m := update1(t, n, "other/x.md", "/blog/b.md", "config.toml"); m.Post("b") != oldB || len(m.posts) != 3 {
		t.Error("unrelated paths changed the snapshot")
	}
}

func TestUpdateAddRemoveFiles(t *testing.T) {
	fsys := threePosts()
	s := build(t, fsys, Options{}, testNow)

	set(fsys, "blog/c.md", post())
	s = update1(t, s, "blog/c.md")
	if got := sortedSlugs(s); got != "a b c trip" {
		t.Errorf("after add: %s", got)
	}
	delete(fsys, "blog/a.md")
	s = update1(t, s, "blog/a.md")
	if got := sortedSlugs(s); got != "b c trip" {
		t.Errorf("after remove: %s", got)
	}
	// An editor's temp file and a hidden file are not posts.
	set(fsys, "blog/.c.md.swp", post())
	set(fsys, "blog/c.md~", post())
	s = update1(t, s, "blog/.c.md.swp", "blog/c.md~")
	if got := sortedSlugs(s); got != "b c trip" {
		t.Errorf("after temp files: %s", got)
	}
	// A post can turn into a draft and back.
	set(fsys, "blog/c.md", post("draft: true"))
	s = update1(t, s, "blog/c.md")
	if got := sortedSlugs(s); got != "b trip" {
		t.Errorf("after draft: %s", got)
	}
}

func TestUpdateFolders(t *testing.T) {
	fsys := threePosts()
	s := build(t, fsys, Options{}, testNow)

	// A folder of posts appears at once (a git checkout, a copy).
	set(fsys, "blog/2024/x.md", post())
	set(fsys, "blog/2024/y.md", post())
	set(fsys, "blog/2024/deep/z.md", post())
	s = update1(t, s, "blog/2024")
	if got := sortedSlugs(s); got != "a b trip x y z" {
		t.Errorf("after folder add: %s", got)
	}
	// And goes away; only the folder is named.
	removeAll(fsys, "blog/2024")
	s = update1(t, s, "blog/2024")
	if got := sortedSlugs(s); got != "a b trip" {
		t.Errorf("after folder remove: %s", got)
	}
	// The whole section folder named at once is read again.
	set(fsys, "blog/d.md", post())
	delete(fsys, "blog/b.md")
	s = update1(t, s, "blog")
	if got := sortedSlugs(s); got != "a d trip" {
		t.Errorf("after section rescan: %s", got)
	}
}

func TestUpdateBundles(t *testing.T) {
	fsys := threePosts()
	s := build(t, fsys, Options{}, testNow)
	trip := s.Post("trip")

	// A resource added to a bundle: same post text, new resource list.
	set(fsys, "blog/trip/photos/1.jpg", "jpg")
	s = update1(t, s, "blog/trip/photos/1.jpg")
	if got := s.Post("trip").Resources; !slices.Equal(got, []string{"map.png", "photos/1.jpg"}) {
		t.Errorf("resources = %q", got)
	}
	// A resource's bytes changed: the post is shared, nothing to parse.
	prev := s.Post("trip")
	set(fsys, "blog/trip/map.png", "png, edited")
	s = update1(t, s, "blog/trip/map.png")
	if s.Post("trip") != prev {
		t.Error("a resource edit re-parsed the post")
	}
	// An .md inside the bundle is a page resource, not a post, and is
	// not published.
	set(fsys, "blog/trip/notes.md", post())
	s = update1(t, s, "blog/trip/notes.md")
	if got := sortedSlugs(s); got != "a b trip" {
		t.Errorf("after notes.md: %s", got)
	}
	if p := s.Post("trip"); !slices.Equal(p.ContentFiles, []string{"notes.md"}) || slices.Contains(p.Resources, "notes.md") {
		t.Errorf("notes.md: content files %q, resources %q", p.ContentFiles, p.Resources)
	}
	// index.md edited.
	set(fsys, "blog/trip/index.md", post("title: Trip 2"))
	s = update1(t, s, "blog/trip/index.md")
	if s.Post("trip").Title != "Trip 2" || s.Post("trip") == trip {
		t.Errorf("bundle edit: %+v", s.Post("trip"))
	}
	// A bundle created by adding index.md to a folder of files.
	set(fsys, "blog/album/a.jpg", "jpg")
	s = update1(t, s, "blog/album/a.jpg")
	if s.Post("album") != nil {
		t.Error("a folder without index.md became a post")
	}
	set(fsys, "blog/album/index.md", post())
	s = update1(t, s, "blog/album/index.md")
	if p := s.Post("album"); p == nil || !slices.Equal(p.Resources, []string{"a.jpg"}) {
		t.Errorf("new bundle = %+v", p)
	}
	// A bundle created in one go, named by its folder.
	set(fsys, "blog/new/index.md", post())
	set(fsys, "blog/new/fig.svg", "<svg/>")
	s = update1(t, s, "blog/new")
	if p := s.Post("new"); p == nil || !slices.Equal(p.Resources, []string{"fig.svg"}) {
		t.Errorf("bundle named by folder = %+v", p)
	}
	// index.md removed: the folder stays, the post goes.
	delete(fsys, "blog/album/index.md")
	s = update1(t, s, "blog/album/index.md")
	if s.Post("album") != nil {
		t.Error("bundle without index.md still a post")
	}
	// The whole bundle folder removed.
	removeAll(fsys, "blog/trip")
	s = update1(t, s, "blog/trip")
	if got := sortedSlugs(s); got != "a b new" {
		t.Errorf("after bundle removal: %s", got)
	}
}

func TestUpdateBundleToFileAndBack(t *testing.T) {
	fsys := threePosts()
	s := build(t, fsys, Options{}, testNow)
	// trip/index.md becomes trip.md (a rename in two events).
	removeAll(fsys, "blog/trip")
	set(fsys, "blog/trip.md", post("title: Trip file"))
	s = update1(t, s, "blog/trip", "blog/trip.md")
	if p := s.Post("trip"); p == nil || p.Bundle != "" || p.Title != "Trip file" || len(s.problems) > 0 {
		t.Errorf("after bundle to file: %+v %v", p, s.problems)
	}
}

func TestUpdateBrokenEditKeepsLastGoodVersion(t *testing.T) {
	fsys := threePosts()
	s := build(t, fsys, Options{Root: "content"}, testNow)
	good := s.Post("a")

	set(fsys, "blog/a.md", "---\ntitle: A\ndate: 2026-01-01T00:00:00Z\ntags: [unclosed\n---\n")
	s = update1(t, s, "blog/a.md")
	if s.Post("a") != good {
		t.Error("the last good version is gone")
	}
	if len(s.problems) != 1 || s.problems[0].Path != "content/blog/a.md" || s.problems[0].Line != 4 {
		t.Fatalf("problems = %v, want one at content/blog/a.md:4", s.problems)
	}
	// Another bad save: still the last good version, the new problem.
	set(fsys, "blog/a.md", "---\ndate: someday\ntitle: A\n---\n")
	s = update1(t, s, "blog/a.md")
	if s.Post("a") != good || len(s.problems) != 1 || s.problems[0].Line != 2 {
		t.Errorf("second bad save: post %p problems %v", s.Post("a"), s.problems)
	}
	// Unrelated edits keep the problem listed.
	set(fsys, "blog/b.md", post("title: B2"))
	s = update1(t, s, "blog/b.md")
	if len(s.problems) != 1 {
		t.Errorf("problem lost after an unrelated edit: %v", s.problems)
	}
	// Fixing it clears the problem and shows the new version.
	set(fsys, "blog/a.md", post("title: A fixed"))
	s = update1(t, s, "blog/a.md")
	if len(s.problems) != 0 || s.Post("a").Title != "A fixed" {
		t.Errorf("after fix: %v %q", s.problems, s.Post("a").Title)
	}
	// Deleting a broken file clears its problem.
	set(fsys, "blog/a.md", "---\nunclosed")
	s = update1(t, s, "blog/a.md")
	delete(fsys, "blog/a.md")
	s = update1(t, s, "blog/a.md")
	if len(s.problems) != 0 || s.Post("a") != nil {
		t.Errorf("after deleting a broken file: %v %v", s.problems, s.Post("a"))
	}
}

func TestUpdateNewBrokenFileHasNoPost(t *testing.T) {
	fsys := threePosts()
	s := build(t, fsys, Options{}, testNow)
	set(fsys, "blog/new.md", "---\ntitle: New\ndate: 2024-01-01\ntags: [unclosed\n---\n")
	s = update1(t, s, "blog/new.md")
	if s.Post("new") != nil || len(s.problems) != 1 || s.problems[0].Message != "front matter: tags: unclosed [ (] missing)" {
		t.Errorf("post %v, problems %v", s.Post("new"), s.problems)
	}
}

func TestUpdateDuplicateAppearsAndClears(t *testing.T) {
	fsys := threePosts()
	s := build(t, fsys, Options{}, testNow)
	set(fsys, "blog/z.md", post("slug: a"))
	s = update1(t, s, "blog/z.md")
	if len(s.problems) != 1 || s.problems[0].Path != "blog/z.md" || s.Post("a").File != "blog/a.md" {
		t.Errorf("problems %v", s.problems)
	}
	delete(fsys, "blog/a.md")
	s = update1(t, s, "blog/a.md")
	if len(s.problems) != 0 || s.Post("a").File != "blog/z.md" {
		t.Errorf("after removing the first: %v, %s", s.problems, s.Post("a").File)
	}
}

// TestUpdateFolderBecomesBundle: index.md appearing in a folder of posts
// turns them into resources; removing it turns them back into posts.
func TestUpdateFolderBecomesBundle(t *testing.T) {
	fsys := threePosts()
	set(fsys, "blog/series/part-1.md", post())
	set(fsys, "blog/series/part-2.md", post())
	s := build(t, fsys, Options{}, testNow)
	if got := sortedSlugs(s); got != "a b part-1 part-2 trip" {
		t.Fatalf("before: %s", got)
	}
	set(fsys, "blog/series/index.md", post())
	s = update1(t, s, "blog/series/index.md")
	if got := sortedSlugs(s); got != "a b series trip" {
		t.Errorf("with index.md: %s", got)
	}
	if got := s.Post("series").ContentFiles; !slices.Equal(got, []string{"part-1.md", "part-2.md"}) {
		t.Errorf("content files = %q", got)
	}
	delete(fsys, "blog/series/index.md")
	s = update1(t, s, "blog/series/index.md")
	if got := sortedSlugs(s); got != "a b part-1 part-2 trip" {
		t.Errorf("after removing index.md: %s", got)
	}
}

// TestUpdateStaticFiles: a static file added or removed while serving is
// served or gone at once, in a new folder or an old one.
func TestUpdateStaticFiles(t *testing.T) {
	files := map[string]string{
		"hugo.toml":          "title = 'S'",
		"content/posts/a.md": post("title: A"),
		"static/old.txt":     "old",
	}
	fsys, _, s := buildSiteFiles(t, files)
	set(fsys, "static/new.txt", "new")
	set(fsys, "static/x/deep.txt", "deep")
	s = update1(t, s, "static/new.txt", "static/x")
	for _, p := range []string{"/old.txt", "/new.txt", "/x/deep.txt"} {
		if r, ok := s.Route(p); !ok || r.Kind != RouteFile {
			t.Errorf("after adding: %s: %+v %v", p, r, ok)
		}
	}
	delete(fsys, "static/old.txt")
	s = update1(t, s, "static/old.txt")
	if _, ok := s.Route("/old.txt"); ok {
		t.Error("/old.txt still served after its removal")
	}
}

// TestUpdateStaticFilter (review 31, item 12): a file a static mount's
// excludeFiles or includeFiles leaves out stays out when it comes while
// serving, as in a cold start (TestSiteOracle/excluded, Hugo-checked).
func TestUpdateStaticFilter(t *testing.T) {
	files := map[string]string{
		"hugo.toml": `title = 'S'
[[module.mounts]]
source = "static"
target = "static"
excludeFiles = ["**.psd", "/drafts/**"]
[[module.mounts]]
source = "fonts"
target = "static/fonts"
includeFiles = ["mono/*-400.woff2"]
`,
		"content/posts/a.md": post("title: A"),
		"static/a.png":       "png",
	}
	fsys, _, s := buildSiteFiles(t, files)
	for _, f := range []string{"static/b.psd", "static/drafts/c.txt", "static/img/d.png", "fonts/mono/m-400.woff2", "fonts/mono/m-700.woff2", "fonts/README.md"} {
		set(fsys, f, "x")
	}
	s = update1(t, s, "static/b.psd", "static/drafts", "static/img", "fonts/mono", "fonts/README.md")
	for p, want := range map[string]bool{"/a.png": true, "/img/d.png": true, "/fonts/mono/m-400.woff2": true,
		"/b.psd": false, "/drafts/c.txt": false, "/fonts/mono/m-700.woff2": false, "/fonts/README.md": false} {
		if _, ok := s.Route(p); ok != want {
			t.Errorf("%s served: %v, want %v", p, ok, want)
		}
	}
}

// TestUpdateDottedFolderIncluded (review 31, item 1): under includeFiles,
// a bundle whose folder's name has a dot ("v1.2") is a folder on the way
// to an inclusion, in a cold start (TestSiteOracle/excluded, Hugo-checked)
// and when it comes while serving.
func TestUpdateDottedFolderIncluded(t *testing.T) {
	files := map[string]string{
		"hugo.toml": `title = 'S'
[[module.mounts]]
source = "content"
target = "content"
includeFiles = ["**/*.md"]
`,
		"content/posts/a.md":          post("title: A"),
		"content/posts/v1.2/index.md": post("title: V12"),
	}
	fsys, _, s := buildSiteFiles(t, files)
	if _, ok := s.Route("/posts/v1.2/"); !ok {
		t.Error("cold: /posts/v1.2/ not served")
	}
	set(fsys, "content/posts/v2.0/index.md", post("title: V20"))
	s = update1(t, s, "content/posts/v2.0")
	if _, ok := s.Route("/posts/v2.0/"); !ok {
		t.Error("added: /posts/v2.0/ not served")
	}
}

// TestUpdateAliasOverStaticIndex (review 31, item 3): an alias an edit
// adds at a static folder's URL ("/legacy/", with static/legacy/index.html)
// is hidden by the file, with the warning, as in a cold start; before,
// dev patched the alias in over the file, silently.
func TestUpdateAliasOverStaticIndex(t *testing.T) {
	files := map[string]string{
		"hugo.toml":                "title = 'S'",
		"content/posts/a.md":       post("title: A"),
		"static/legacy/index.html": "<p>legacy</p>",
	}
	fsys, cfg, s := buildSiteFiles(t, files)
	set(fsys, "content/posts/a.md", post("title: A", "aliases: [/legacy/]"))
	s = update1(t, s, "content/posts/a.md")
	cold := buildFS(t, fsys, cfg)
	gotR, gotOK := s.Route("/legacy/")
	wantR, wantOK := cold.Route("/legacy/")
	if gotOK != wantOK || gotR.Kind != wantR.Kind || gotR.Target != wantR.Target {
		t.Errorf("/legacy/ after the edit: %+v %v; cold: %+v %v", gotR, gotOK, wantR, wantOK)
	}
	if got, want := fmt.Sprint(s.Problems()), fmt.Sprint(cold.Problems()); got != want || !strings.Contains(want, "legacy") {
		t.Errorf("problems after the edit:\n%s\ncold:\n%s", got, want)
	}
}

// TestUpdatePageOverStaticIndex (review 32, item 4): a page an edit
// moves to a static folder's URL (url: /legacy/, with
// static/legacy/index.html) hides the file at both its URLs, and moving
// away gives the file back, as in a cold start; before, dev kept
// answering /legacy/index.html with the file, then lost it.
func TestUpdatePageOverStaticIndex(t *testing.T) {
	files := map[string]string{
		"hugo.toml":                "title = 'S'",
		"content/posts/a.md":       post("title: A"),
		"static/legacy/index.html": "<p>legacy</p>",
	}
	fsys, cfg, s := buildSiteFiles(t, files)
	for _, edit := range []string{post("title: A", "url: /legacy/"), post("title: A")} {
		set(fsys, "content/posts/a.md", edit)
		s = update1(t, s, "content/posts/a.md")
		cold := buildFS(t, fsys, cfg)
		for _, p := range []string{"/legacy/", "/legacy/index.html", "/posts/a/"} {
			gotR, gotOK := s.Route(p)
			wantR, wantOK := cold.Route(p)
			if gotOK != wantOK || gotR.Kind != wantR.Kind || gotR.File != wantR.File || (gotR.Page == nil) != (wantR.Page == nil) {
				t.Errorf("%q: %s after the edit: %+v %v; cold: %+v %v", edit, p, gotR, gotOK, wantR, wantOK)
			}
		}
	}
}

// TestUpdateNewPageAtStaticTwin (session 31's aliasfix leftover): a
// post an edit creates (or moves by its slug) at a static file's Markdown
// twin path (content/posts/b.md beside static/posts/b.md) gets the
// warning at once, and the file is its Markdown, as in a cold start;
// before, dev patched the page in silently until the next full reload.
func TestUpdateNewPageAtStaticTwin(t *testing.T) {
	for _, c := range []struct{ name, file, data string }{
		{"new post", "content/posts/b.md", post("title: B")},
		{"slug moved", "content/posts/a.md", post("title: A", "slug: b")},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{
				"hugo.toml":          "title = 'S'",
				"content/posts/a.md": post("title: A"),
				"static/posts/b.md":  "# mine\n",
			}
			fsys, cfg, s := buildSiteFiles(t, files)
			set(fsys, c.file, c.data)
			s = update1(t, s, c.file)
			cold := buildFS(t, fsys, cfg)
			if got, want := fmt.Sprint(s.Problems()), fmt.Sprint(cold.Problems()); got != want || !strings.Contains(want, "static/posts/b.md") {
				t.Errorf("problems after the edit:\n%s\ncold:\n%s", got, want)
			}
		})
	}
}

// TestUpdateExtensionlessFileExcluded (review 32, item 3): under
// includeFiles, a bundle's file whose name has no dot (LICENSE) is a
// file the globs leave out, not a folder on the way to an inclusion, in
// a cold start (TestSiteOracle/excluded, Hugo-checked) and when it comes
// while serving.
func TestUpdateExtensionlessFileExcluded(t *testing.T) {
	files := map[string]string{
		"hugo.toml": `title = 'S'
[[module.mounts]]
source = "content"
target = "content"
includeFiles = ["**/*.md", "**/*.png"]
`,
		"content/posts/b/index.md": post("title: B"),
		"content/posts/b/pic.png":  "png",
		"content/posts/b/CHANGES":  "changes",
	}
	fsys, _, s := buildSiteFiles(t, files)
	check := func(when string) {
		t.Helper()
		if _, ok := s.Route("/posts/b/pic.png"); !ok {
			t.Errorf("%s: /posts/b/pic.png not served", when)
		}
		for _, p := range []string{"/posts/b/CHANGES", "/posts/b/LICENSE"} {
			if _, ok := s.Route(p); ok {
				t.Errorf("%s: %s served, which includeFiles leaves out", when, p)
			}
		}
	}
	check("cold")
	set(fsys, "content/posts/b/LICENSE", "license")
	s = update1(t, s, "content/posts/b/LICENSE")
	check("added")
}

// TestUpdateFolderAfterFileEvents: a folder whose posts came one file
// event at a time (each update patched, the last one's units found by a
// lookup of their keys) goes away with only the folder named, and takes
// all of them with it, and none of a sibling whose name starts alike;
// a file edited in between changes no key.
func TestUpdateFolderAfterFileEvents(t *testing.T) {
	fsys := threePosts()
	set(fsys, "blog/2024x.md", post("title: Sibling"))
	s := build(t, fsys, Options{}, testNow)
	for _, name := range []string{"x", "y", "z"} {
		set(fsys, "blog/2024/"+name+".md", post())
		s = update1(t, s, "blog/2024/"+name+".md")
	}
	set(fsys, "blog/a.md", post("title: A2"))
	s = update1(t, s, "blog/a.md")
	if got := sortedSlugs(s); got != "2024x a b trip x y z" {
		t.Fatalf("after the files: %s", got)
	}
	removeAll(fsys, "blog/2024")
	s = update1(t, s, "blog/2024")
	if got := sortedSlugs(s); got != "2024x a b trip" {
		t.Errorf("after the folder went: %s", got)
	}
	set(fsys, "blog/2024/w.md", post())
	s = update1(t, s, "blog/2024/w.md")
	removeAll(fsys, "blog/2024")
	s = update1(t, s, "blog/2024")
	if got := sortedSlugs(s); got != "2024x a b trip" {
		t.Errorf("after the folder came and went again: %s", got)
	}
}

// TestUpdateMenuEntries: a post's front matter menu entries follow its
// edits, additions and removals, as a fresh build of the same files has
// them.
func TestUpdateMenuEntries(t *testing.T) {
	fsys := threePosts()
	set(fsys, "blog/m.md", post("title: M", "menu: main"))
	s := build(t, fsys, Options{}, testNow)
	names := func(s *Snapshot) string {
		var out []string
		for _, e := range s.Menu(s.config.DefaultLanguage, "main") {
			out = append(out, e.Name)
		}
		return strings.Join(out, " ")
	}
	steps := []struct {
		name string
		edit func()
		path string
		want string
	}{
		{"an entry added to a post", func() { set(fsys, "blog/a.md", post("title: A", "menu: main")) }, "blog/a.md", "A M"},
		{"an entry renamed", func() {
			set(fsys, "blog/m.md", post("title: M", "menu:\n  main:\n    name: Renamed\n    weight: 1"))
		}, "blog/m.md", "Renamed A"},
		{"a post with an entry added", func() { set(fsys, "blog/n.md", post("title: N", "menu: main")) }, "blog/n.md", "Renamed A N"},
		{"a post with an entry removed", func() { delete(fsys, "blog/a.md") }, "blog/a.md", "Renamed N"},
		{"an entry dropped from a post", func() { set(fsys, "blog/m.md", post("title: M")) }, "blog/m.md", "N"},
		{"an edit of a post without one", func() { set(fsys, "blog/b.md", post("title: B2")) }, "blog/b.md", "N"},
	}
	for _, st := range steps {
		st.edit()
		s = update1(t, s, st.path)
		if got := names(s); got != st.want {
			t.Errorf("%s: menu %q, want %q", st.name, got, st.want)
		}
		if fresh := names(build(t, fsys, Options{}, testNow)); fresh != st.want {
			t.Errorf("%s: a fresh build's menu %q, want %q", st.name, fresh, st.want)
		}
	}
}

// buildSiteFiles builds a Hugo site of files (its config among them) as
// production does, and returns what an update of it needs.
func buildSiteFiles(t *testing.T, files map[string]string) (fstest.MapFS, *Config, *Snapshot) {
	t.Helper()
	cfg := loadSite(t, files, "production")
	fsys := mapFS(files)
	return fsys, cfg, buildFS(t, fsys, cfg)
}

// buildFS builds the site in fsys from scratch, as a cold start does.
func buildFS(t *testing.T, fsys fstest.MapFS, cfg *Config) *Snapshot {
	t.Helper()
	s, err := Build(fsys, cfg, Options{}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
