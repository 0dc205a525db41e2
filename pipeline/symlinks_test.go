package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSymlinksOneRule (issue 15, finding 10): symbolic links inside the
// content are never followed, whether the site is read afresh (check,
// build, a start) or a watcher reports them (serve --watch, dev): a link
// to a post, to a folder of posts, to a bundle's file, and a bundle file
// replaced by a link, all inside the content folder. Hugo 0.165 publishes
// none of them either. Before, the update read each through the link.
func TestSymlinksOneRule(t *testing.T) {
	dir := t.TempDir()
	post := "---\ntitle: T\ndate: 2024-01-01\n---\nBody.\n"
	for name, data := range map[string]string{
		"blog/a.md":               post,
		"blog/bun/index.md":       post,
		"blog/bun/real.png":       "png",
		"blog/bun/kept.png":       "png",
		"archive/y2024/old.md":    post,
		"archive/pic.png":         "png",
		"archive/bundle/index.md": post,
	} {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), data)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	cfg := testConfig(t)
	before, err := Build(root.FS(), cfg, Options{}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"blog/link.md":      "a.md",
		"blog/y2024":        "../archive/y2024",
		"blog/linked":       "../archive/bundle",
		"blog/bun/pic.png":  "../../archive/pic.png",
		"blog/bun/real.png": "../../archive/pic.png",
		"blog/l.png":        "../archive/pic.png",
	}
	var changed []string
	for name, target := range links {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.Remove(p)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		changed = append(changed, name)
	}
	slices.Sort(changed)
	updated, err := before.Update(changed, testNow)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := Build(root.FS(), cfg, Options{}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := siteOf(updated), siteOf(fresh); got != want {
		t.Errorf("after the links, the update reads\n%s\na fresh build\n%s", got, want)
	}
	want := `archive/bundle/index.md []
archive/y2024/old.md []
blog/a.md []
blog/bun/index.md ["kept.png"]
files ["archive/pic.png"]
`
	if got := siteOf(fresh); got != want {
		t.Errorf("a fresh build reads\n%s\nwant (no link followed)\n%s", got, want)
	}
}

// siteOf is what a snapshot publishes from the content: each page's file
// and bundle files, and the other files.
func siteOf(s *Snapshot) string {
	var b strings.Builder
	for _, p := range s.AllPosts() {
		fmt.Fprintf(&b, "%s %q\n", p.File, p.Resources)
	}
	fmt.Fprintf(&b, "files %q\n", s.files)
	return b.String()
}

func writeFile(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
