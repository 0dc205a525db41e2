package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// When the section folder can no longer be read (here it is replaced by
// a file, which denies reads even to root), every post keeps its last
// good version, page bundles included, each with a problem that says
// why; when the folder is back, so is the site, without problems.
func TestUpdateSectionUnreadable(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"blog/x.md": post(), "blog/trip/index.md": post(), "blog/trip/map.svg": "<svg/>"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	snap, err := Build(root.FS(), testConfig(t), Options{Root: "content"}, testNow)
	if err != nil || len(snap.posts) != 2 {
		t.Fatalf("build: %v, %d posts", err, len(snap.posts))
	}
	blog := filepath.Join(dir, "blog")
	if err := os.Rename(blog, blog+".away"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(blog, []byte("a file now"), 0o644); err != nil {
		t.Fatal(err)
	}
	next, err := snap.Update([]string{"blog"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	if got := slugs(next.posts); len(got) != 2 {
		t.Errorf("posts with the section unreadable: %v, want both kept", got)
	}
	for _, file := range []string{"content/blog/x.md", "content/blog/trip/index.md"} {
		found := false
		for _, p := range next.problems {
			found = found || (p.Path == file && strings.Contains(p.Message, "not a directory"))
		}
		if !found {
			t.Errorf("no problem says why %s is kept: %v", file, next.problems)
		}
	}
	os.Remove(blog)
	if err := os.Rename(blog+".away", blog); err != nil {
		t.Fatal(err)
	}
	back, err := next.Update([]string{"blog"}, testNow)
	if err != nil || len(back.posts) != 2 || len(back.problems) != 0 {
		t.Errorf("section back: %v, %d posts, problems %v", err, len(back.posts), back.problems)
	}
}
