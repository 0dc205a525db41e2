package pipeline

import (
	"strings"
	"testing"
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
	}
	for _, tt := range tests {
		f, err := newMountFilter([]any{tt.glob})
		if err != nil {
			t.Fatalf("%q: %v", tt.glob, err)
		}
		if got := f.excludes(tt.rel); got != tt.want {
			t.Errorf("glob %q on %q = %v, want %v", tt.glob, tt.rel, got, tt.want)
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
		{"excludeFiles brace", "[[module.mounts]]\nsource = 'content'\ntarget = 'content'\nexcludeFiles = '{a,b'\n", []string{"hugo.toml:", "excludeFiles", "{a,b"}},
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
