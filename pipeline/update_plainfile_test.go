package pipeline

import (
	"os"
	"path/filepath"
	"testing"
)

// A file without .md is no post, yet a watcher may report it: GNU sed -i
// writes "sedXXXXXX" beside the post and renames it over, and a busy
// machine can deliver the burst before the rename. Read through a real
// folder, opening "blog/sedAb12Cd/index.md" fails with ENOTDIR, not
// ErrNotExist; that must not become a problem.
func TestUpdatePlainFileIsNoBundle(t *testing.T) {
	dir := t.TempDir()
	blog := filepath.Join(dir, "blog")
	if err := os.MkdirAll(blog, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(blog, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("x.md", post())
	snap, err := Build(os.DirFS(dir), testConfig(t), Options{Root: "content"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	write("sedAb12Cd", post())
	next, err := snap.Update([]string{"blog/sedAb12Cd"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	if len(next.problems) != 0 || len(next.posts) != 1 {
		t.Errorf("after a plain file appeared: %d posts, problems %v", len(next.posts), next.problems)
	}
}
