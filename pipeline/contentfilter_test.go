package pipeline

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"folio/internal/hugotest"
)

// TestMountFilterMatchesAsHugo: excludeFiles globs match a path below the
// mount's source as Hugo 0.165 matched them building a site with each
// (content/posts/{a,b,d}.md and content/posts/sub/).
func TestMountFilterMatchesAsHugo(t *testing.T) {
	tests := []struct {
		glob string
		rel  string
		want bool
	}{
		{"posts/a.md", "posts/a.md", true},
		{"/posts/a.md", "posts/a.md", true},
		{"POSTS/A.md", "posts/a.md", true},
		{"posts/a.md", "Posts/A.MD", true},
		{"a.md", "posts/a.md", false},
		{"*.md", "posts/a.md", false},
		{"posts/*", "posts/sub", true},
		{"posts/*", "posts", false},
		{"**a.md", "posts/a.md", true},
		{"**/a.md", "posts/a.md", true},
		{"posts/?.md", "posts/b.md", true},
		{"posts/?.md", "posts/sub", false},
		{"posts/[ab].md", "posts/b.md", true},
		{"posts/[!ab].md", "posts/b.md", false},
		{"posts/[!ab].md", "posts/d.md", true},
		{"posts/{d,x}.md", "posts/d.md", true},
		{"posts/{d,x}.md", "posts/a.md", false},
		{"posts/su*", "posts/sub", true},
		{"posts/sub/**", "posts/sub/c.md", true},
		{"private/**", "private", false},
		{"a+b.md", "a+b.md", true},
		{"a+b.md", "aab.md", false},
		{"**/r.md", "r.md", true},
		{"posts/**/a.md", "posts/a.md", true},
		{"**/skip-*", "skip-me.md", false},
		{"**/skip-*", "sub/skip-me.md", true},
		{"posts/{a.md,x", "posts/a.md", true}, // unclosed: the alternatives
		{"x}y.md", "x}y.md", true},            // a lone } is a literal
		{"{a", "a.md", false},
	}
	for _, tt := range tests {
		f, err := newMountFilter(nil, nil, []any{tt.glob})
		if err != nil {
			t.Fatalf("%q: %v", tt.glob, err)
		}
		if got := f.excludes(tt.rel); got != tt.want {
			t.Errorf("glob %q on %q = %v, want %v", tt.glob, tt.rel, got, tt.want)
		}
	}
}

// TestMountFilesAsHugo: files, includeFiles and excludeFiles together
// keep what Hugo 0.165 kept building a site with content/r.md,
// content/posts/{a,b,d}.md and content/posts/sub/ under each: the first
// glob that matches decides (includeFiles before excludeFiles), a path
// no inclusion matches is left out, and so is a folder not on the way to
// one (a folder kept with no file kept in it publishes nothing).
func TestMountFilesAsHugo(t *testing.T) {
	all := []string{"r.md", "posts", "posts/a.md", "posts/b.md", "posts/d.md", "posts/sub", "posts/sub/index.md"}
	tests := []struct {
		files, include, exclude any
		kept                    string
	}{
		{nil, nil, []any{"**/r.md"}, "posts posts/a.md posts/b.md posts/d.md posts/sub posts/sub/index.md"},
		{[]any{"**/r.md"}, nil, nil, "r.md posts posts/sub"}, // walked, nothing kept in them
		{[]any{"posts/**", "! posts/b.md"}, nil, nil, "posts posts/a.md posts/b.md posts/d.md posts/sub posts/sub/index.md"},
		{[]any{"! posts/b.md", "posts/**"}, nil, nil, "posts posts/a.md posts/d.md posts/sub posts/sub/index.md"},
		{[]any{"! posts/a.md"}, nil, nil, "r.md posts posts/b.md posts/d.md posts/sub posts/sub/index.md"},
		{nil, []any{"posts/a.md"}, nil, "posts posts/a.md"},
		{nil, []any{"**/a.md"}, nil, "posts posts/a.md posts/sub"},
		{nil, []any{"posts/sub/**"}, nil, "posts posts/sub posts/sub/index.md"},
		{nil, []any{"**.md"}, []any{"**/b.md"}, "r.md"},
	}
	for _, tt := range tests {
		f, err := newMountFilter(tt.files, tt.include, tt.exclude)
		if err != nil {
			t.Fatal(err)
		}
		var kept []string
		for _, rel := range all {
			keep := true
			for r := rel; r != "."; r = path.Dir(r) {
				keep = keep && f.keeps(r, r != rel || !strings.HasSuffix(r, ".md"))
			}
			if keep {
				kept = append(kept, rel)
			}
		}
		if got := strings.Join(kept, " "); got != tt.kept {
			t.Errorf("files %v includeFiles %v excludeFiles %v keep %q, want %q", tt.files, tt.include, tt.exclude, got, tt.kept)
		}
	}
}

// TestContentFilterErrors: a regular expression or glob Hugo cannot
// compile is a config error naming the file, line and key, as Hugo
// refuses to build.
func TestContentFilterErrors(t *testing.T) {
	tests := []struct {
		name, config string
		want         []string
	}{
		{"ignoreFiles", "title = 'S'\nignoreFiles = ['ok$', '(']\n", []string{"hugo.toml:2:", "ignoreFiles", `"("`}},
		{"ignoreFiles not strings", "title = 'S'\nignoreFiles = [1]\n", []string{"hugo.toml:2:", "ignoreFiles"}},
		{"excludeFiles", "title = 'S'\n[[module.mounts]]\nsource = 'content'\ntarget = 'content'\nexcludeFiles = ['posts/[']\n", []string{"hugo.toml:", "excludeFiles", "posts/["}},
		{"excludeFiles range", "[[module.mounts]]\nsource = 'content'\ntarget = 'content'\nexcludeFiles = 'posts/[z-a]'\n", []string{"hugo.toml:", "excludeFiles", "[z-a]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadSite(SiteOptions{Source: "site", Environment: "production", FS: mapFS(map[string]string{"hugo.toml": tt.config})})
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// TestUpdateRespectsContentFilters: what ignoreFiles and excludeFiles
// leave out stays out when it appears while serving (a new file, a new
// folder, a bundle's new resource), and what they let through comes in.
func TestUpdateRespectsContentFilters(t *testing.T) {
	files := map[string]string{
		"hugo.toml": `title = 'S'
ignoreFiles = ['/content/posts/notes-[^/]*\.md$', '/scratch$']
[[module.mounts]]
source = 'content'
target = 'content'
excludeFiles = ['private/**', '**/*.wip.md', 'posts/trip/secret.txt']
`,
		"content/posts/a.md":          post("title: A"),
		"content/posts/trip/index.md": post("title: Trip"),
	}
	cfg := loadSite(t, files, "production")
	fsys := mapFS(files)
	s, err := Build(fsys, cfg, Options{}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	set(fsys, "content/posts/b.md", post("title: B"))
	set(fsys, "content/posts/c.wip.md", post("title: C"))
	set(fsys, "content/posts/notes-x.md", post("title: Notes"))
	set(fsys, "content/posts/scratch/idea.md", post("title: Idea"))
	set(fsys, "content/private/p.md", post("title: P"))
	set(fsys, "content/posts/trip/secret.txt", "secret")
	set(fsys, "content/posts/trip/photo.txt", "photo")
	s = update1(t, s, "content/posts/b.md", "content/posts/c.wip.md", "content/posts/notes-x.md",
		"content/posts/scratch", "content/private", "content/posts/trip/secret.txt", "content/posts/trip/photo.txt")
	for p, want := range map[string]bool{
		"/posts/a/": true, "/posts/b/": true, "/posts/trip/": true, "/posts/trip/photo.txt": true,
		"/posts/c.wip/": false, "/posts/notes-x/": false, "/posts/scratch/idea/": false,
		"/private/p/": false, "/private/": false, "/posts/trip/secret.txt": false,
	} {
		if _, ok := s.Route(p); ok != want {
			t.Errorf("%s served = %v, want %v", p, ok, want)
		}
	}
	for _, p := range s.Pages() {
		if strings.Contains(p.File, "private") || strings.Contains(p.File, "wip") {
			t.Errorf("page of a left-out file: %s", p.File)
		}
	}
}

// TestUpdateLeavesOutDisabledLanguages: a file named for a disabled
// language that appears while serving stays out, as Hugo leaves it out
// of a build, and is no default-language page either.
func TestUpdateLeavesOutDisabledLanguages(t *testing.T) {
	files := map[string]string{
		"hugo.toml":              "title = 'S'\ndisableLanguages = ['de']\n[languages.en]\nweight = 1\n[languages.de]\nweight = 2\n",
		"content/posts/hello.md": post("title: Hello"),
	}
	cfg := loadSite(t, files, "production")
	fsys := mapFS(files)
	s, err := Build(fsys, cfg, Options{}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	set(fsys, "content/posts/other.de.md", post("title: Anderes"))
	s = update1(t, s, "content/posts/other.de.md")
	for p, want := range map[string]bool{"/posts/hello/": true, "/posts/other/": false, "/posts/other.de/": false, "/de/posts/other/": false} {
		if _, ok := s.Route(p); ok != want {
			t.Errorf("%s served = %v, want %v", p, ok, want)
		}
	}
}

// TestContentFiltersReadAlike: the same filters loaded twice read the
// content alike, so that a reload that changes nothing reads nothing
// again; other filters do not.
func TestContentFiltersReadAlike(t *testing.T) {
	conf := func(glob string) *Config {
		return loadSite(t, map[string]string{"hugo.toml": "ignoreFiles = ['x$']\n[[module.mounts]]\nsource = 'content'\ntarget = 'content'\nexcludeFiles = ['" + glob + "', 'a/**']\n"}, "production")
	}
	if !conf("**/r.md").ReadsLike(conf("**/r.md")) {
		t.Error("the same filters do not read alike")
	}
	if conf("**/r.md").ReadsLike(conf("**/s.md")) {
		t.Error("other filters read alike")
	}
}

// TestMountsOutsideTheSite: a content, static or assets folder outside
// the site's folder (Hugo builds from contentDir = "../content") is an
// error at the key that names it, saying why, since folio reads a site
// through its folder alone; an absolute path inside the folder is read
// as the relative one.
func TestMountsOutsideTheSite(t *testing.T) {
	site := filepath.Join(t.TempDir(), "site")
	if err := os.MkdirAll(filepath.Join(site, "content"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, config string
		want         []string // the error says these; none: it loads
	}{
		{"relative", "title = 'S'\ncontentDir = '../content'\n", []string{"hugo.toml:2:", `contentDir "../content" is outside the site's folder`, "--content " + filepath.Join(filepath.Dir(site), "content")}},
		{"absolute", "title = 'S'\ncontentDir = '/srv/content'\n", []string{"hugo.toml:2:", `contentDir "/srv/content" is outside`, "--content /srv/content"}},
		{"language", "[languages.en]\n[languages.de]\ncontentDir = '../de'\n", []string{"hugo.toml:", "languages.de.contentDir", `"../de"`}},
		{"mount", "[[module.mounts]]\nsource = '../x'\ntarget = 'static'\n", []string{"hugo.toml:1:", `module.mounts source "../x"`}},
		{"staticDir", "staticDir = '../public'\n", []string{"hugo.toml:1:", `staticDir "../public"`}},
		{"absolute inside", "contentDir = '" + filepath.Join(site, "content") + "'\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(site, "hugo.toml"), []byte(tt.config), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, err := LoadSite(SiteOptions{Source: site, Environment: "production"})
			if tt.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				if i := slices.IndexFunc(cfg.Mounts, func(m Mount) bool { return m.Target == "content" }); i < 0 || cfg.Mounts[i].Source != "content" {
					t.Errorf("mounts %+v, want content at content", cfg.Mounts)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// TestIgnoreFilesWithContentOutside: with the content folder given apart
// from the site's (folio's --content, Hugo's --contentDir) and outside
// it, ignoreFiles are matched against each content file's absolute path,
// as Hugo 0.165 matches them (review 31 item 13: folio matched them
// below the site's folder, so an anchored pattern missed).
func TestIgnoreFilesWithContentOutside(t *testing.T) {
	hugotest.Binary(t)
	tmp := t.TempDir()
	site, content := filepath.Join(tmp, "site"), filepath.Join(tmp, "content")
	files := map[string]string{
		"site/hugo.toml":                    "baseURL = 'https://example.org/'\ntitle = 'S'\nignoreFiles = ['^" + regexp.QuoteMeta(filepath.ToSlash(content)) + "/posts/b\\.md$']\n",
		"site/layouts/_default/single.html": "{{ .Title }}",
		"site/layouts/_default/list.html":   "{{ .Title }}",
		"content/posts/a.md":                "---\ntitle: A\ndate: 2024-01-02\n---\nA.\n",
		"content/posts/b.md":                "---\ntitle: B\ndate: 2024-01-02\n---\nB.\n",
	}
	for name, data := range files {
		if err := os.MkdirAll(filepath.Join(tmp, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(tmp, "public")
	hugotest.Build(t, site, "--contentDir", content, "--destination", out)
	var hugo []string
	for _, slug := range []string{"a", "b"} {
		if _, err := os.Stat(filepath.Join(out, "posts", slug, "index.html")); err == nil {
			hugo = append(hugo, slug)
		}
	}
	cfg, err := LoadSite(SiteOptions{Source: site, Environment: "production"})
	if err != nil {
		t.Fatal(err)
	}
	cfg.SetContent(content)
	snap, err := Build(os.DirFS(content), cfg, Options{Root: content}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var folio []string
	for _, p := range snap.Posts() {
		folio = append(folio, p.Slug)
	}
	slices.Sort(folio)
	if !slices.Equal(folio, hugo) || len(hugo) != 1 {
		t.Errorf("folio publishes %q, Hugo %q (want only a)", folio, hugo)
	}
}
