package watch

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// TestNewNestedFolders makes folders and files faster than watches can be
// added: the new top folder is reported (to be read again whole), and the
// deepest folder is watched afterwards.
func TestNewNestedFolders(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tree(t, dir, map[string]string{"blog/x.md": "x"})
	w, _ := start(t, Options{}, dir)
	tree(t, dir, map[string]string{
		"blog/a/b/c/deep.md": "deep",
		"blog/a/b/mid.md":    "mid",
		"blog/a/top.md":      "top",
	})
	wantPaths(t, only(t, w), dir, "blog/a")

	tree(t, dir, map[string]string{"blog/a/b/c/later.md": "later"})
	wantPaths(t, only(t, w), dir, "blog/a/b/c/later.md")
}

// TestRemovedFolder removes a folder, makes it again, and checks the new
// one is watched.
func TestRemovedFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tree(t, dir, map[string]string{"blog/old/index.md": "x", "blog/old/sub/img.png": "png"})
	h := newHooked(t)
	w, _ := startWith(t, Options{}, h, dir)
	must(t, os.RemoveAll(filepath.Join(dir, "blog/old")))
	wantPaths(t, only(t, w), dir, "blog/old")
	if got := h.watchedUnder(filepath.Join(dir, "blog/old")); len(got) > 0 {
		t.Fatalf("still watched after removal: %v", got)
	}

	tree(t, dir, map[string]string{"blog/old/sub/new.png": "png"})
	wantPaths(t, only(t, w), dir, "blog/old")
	tree(t, dir, map[string]string{"blog/old/sub/newer.png": "png"})
	wantPaths(t, only(t, w), dir, "blog/old/sub/newer.png")
}

// TestRenamedFolder renames a folder with a subfolder: both names are
// reported, and a change below the new name is reported under the new
// name (inotify would keep the old one for the subfolder's watch).
func TestRenamedFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tree(t, dir, map[string]string{"blog/a/index.md": "x", "blog/a/sub/img.png": "png"})
	h := newHooked(t)
	w, _ := startWith(t, Options{}, h, dir)
	must(t, os.Rename(filepath.Join(dir, "blog/a"), filepath.Join(dir, "blog/b")))
	wantPaths(t, only(t, w), dir, "blog/a", "blog/b")

	tree(t, dir, map[string]string{"blog/b/sub/img.png": "png 2"})
	wantPaths(t, only(t, w), dir, "blog/b/sub/img.png")
	if got := h.watchedUnder(filepath.Join(dir, "blog/a")); len(got) > 0 {
		t.Fatalf("old names still watched: %v", got)
	}
}

// TestFolderMovedInAndOut moves a folder in from outside the root and
// another out of it.
func TestFolderMovedInAndOut(t *testing.T) {
	t.Parallel()
	dir, outside := t.TempDir(), t.TempDir()
	tree(t, dir, map[string]string{"blog/gone/index.md": "x"})
	tree(t, outside, map[string]string{"came/index.md": "y", "came/deep/z.png": "z"})
	w, _ := start(t, Options{}, dir)
	must(t, os.Rename(filepath.Join(outside, "came"), filepath.Join(dir, "blog/came")))
	must(t, os.Rename(filepath.Join(dir, "blog/gone"), filepath.Join(outside, "gone")))
	wantPaths(t, only(t, w), dir, "blog/came", "blog/gone")

	tree(t, dir, map[string]string{"blog/came/deep/z.png": "z 2"})
	wantPaths(t, only(t, w), dir, "blog/came/deep/z.png")
	tree(t, outside, map[string]string{"gone/index.md": "changed outside"})
	none(t, w)
}

// TestFolderMovedIntoNewFolder moves a folder into a folder just made:
// the new folder's walk finds the moved one before its rename event is
// handled, and must not keep the watch that reports the old name.
func TestFolderMovedIntoNewFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tree(t, dir, map[string]string{"blog/a/index.md": "x", "blog/a/sub/img.png": "png"})
	w, _ := start(t, Options{}, dir)
	must(t, os.Mkdir(filepath.Join(dir, "blog/new"), 0o755))
	must(t, os.Rename(filepath.Join(dir, "blog/a"), filepath.Join(dir, "blog/new/a")))
	wantPaths(t, only(t, w), dir, "blog/a", "blog/new")
	tree(t, dir, map[string]string{"blog/new/a/sub/img.png": "png 2"})
	wantPaths(t, only(t, w), dir, "blog/new/a/sub/img.png")
	tree(t, dir, map[string]string{"blog/new/a/index.md": "x 2"})
	wantPaths(t, only(t, w), dir, "blog/new/a/index.md")
}

// TestFolderRenamedOverEmpty renames a folder over an empty one: the
// replaced folder sends no event of its own, and the new one must be
// watched all the same.
func TestFolderRenamedOverEmpty(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tree(t, dir, map[string]string{"blog/new/index.md": "x"})
	must(t, os.Mkdir(filepath.Join(dir, "blog/empty"), 0o755))
	w, _ := start(t, Options{}, dir)
	// os.Rename refuses to replace a folder; rename(2) does it.
	must(t, syscall.Rename(filepath.Join(dir, "blog/new"), filepath.Join(dir, "blog/empty")))
	wantPaths(t, only(t, w), dir, "blog/empty", "blog/new")
	tree(t, dir, map[string]string{"blog/empty/index.md": "changed"})
	wantPaths(t, only(t, w), dir, "blog/empty/index.md")
}

// TestBurst writes 1,000 posts as fast as it can: one delivery naming
// each.
func TestBurst(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tree(t, dir, map[string]string{"blog/x.md": "x"})
	w, _ := start(t, Options{}, dir)
	var want []string
	for i := range 1000 {
		name := fmt.Sprintf("blog/p%04d.md", i)
		tree(t, dir, map[string]string{name: "post"})
		want = append(want, name)
	}
	wantPaths(t, only(t, w), dir, want...)
}

// TestBurstNewFolder copies a folder of 1,000 files in (cp -r): one
// delivery naming the folder.
func TestBurstNewFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tree(t, dir, map[string]string{"blog/x.md": "x"})
	w, _ := start(t, Options{}, dir)
	files := map[string]string{}
	for i := range 1000 {
		files[fmt.Sprintf("blog/copy/p%04d.md", i)] = "post"
	}
	tree(t, dir, files)
	wantPaths(t, only(t, w), dir, "blog/copy")
}

// TestGitCheckout switches a real repository between two branches that
// differ in 1,000 posts and a removed folder: one delivery naming each
// post and the folder.
func TestGitCheckout(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	t.Parallel()
	repo := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(git, args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	files := map[string]string{"content/blog/bundle/index.md": "b", "content/blog/bundle/img.png": "png"}
	for i := range 1000 {
		files[fmt.Sprintf("content/blog/p%04d.md", i)] = "one"
	}
	tree(t, repo, files)
	run("init", "-q", "-b", "main")
	run("add", "-A")
	run("commit", "-qm", "one")
	run("checkout", "-qb", "two")
	must(t, os.RemoveAll(filepath.Join(repo, "content/blog/bundle")))
	var want []string
	for i := range 1000 {
		files[fmt.Sprintf("content/blog/p%04d.md", i)] = "two"
		want = append(want, fmt.Sprintf("blog/p%04d.md", i))
	}
	delete(files, "content/blog/bundle/index.md")
	delete(files, "content/blog/bundle/img.png")
	tree(t, repo, files)
	run("add", "-A")
	run("commit", "-qm", "two")
	run("checkout", "-q", "main")

	content := filepath.Join(repo, "content")
	w, _ := start(t, Options{}, content)
	run("checkout", "-q", "two")
	want = append(want, "blog/bundle")
	slices.Sort(want)
	wantPaths(t, only(t, w), content, want...)
}

// TestRoots watches a content folder, a site folder and a config file
// at once: a change to all three is one delivery, and other files beside
// the config file are not reported.
func TestRoots(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tree(t, dir, map[string]string{"config.toml": "a", "notes.txt": "n", "content/blog/x.md": "x", "site/templates/post.html": "p"})
	config, content, site := filepath.Join(dir, "config.toml"), filepath.Join(dir, "content"), filepath.Join(dir, "site")
	w, _ := start(t, Options{}, content, site, config)

	tree(t, dir, map[string]string{"notes.txt": "changed", "other/file.md": "f"})
	none(t, w)

	o := fsops{t, dir}
	tree(t, dir, map[string]string{"content/blog/x.md": "x2", "site/templates/post.html": "p2"})
	o.truncWrite("config.toml", "b")
	wantBatches(t, only(t, w),
		Batch{Root: content, Paths: []string{"blog/x.md"}},
		Batch{Root: site, Index: 1, Paths: []string{"templates/post.html"}},
		Batch{Root: config, Index: 2, Paths: []string{"."}})

	// An editor that saves by rename replaces the config file: still
	// seen, since its folder is watched.
	o.rename("config.toml", "config.toml~")
	o.create("config.toml", "c")
	o.remove("config.toml~")
	wantBatches(t, only(t, w), Batch{Root: config, Index: 2, Paths: []string{"."}})
}

// TestRootRemoved removes a watched root and makes it again: each is a
// rescan, and the new folder is watched.
func TestRootRemoved(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	dir := filepath.Join(parent, "content")
	tree(t, dir, map[string]string{"blog/x.md": "x"})
	w, logs := start(t, Options{}, dir)
	must(t, os.RemoveAll(dir))
	rescanned(t, w, dir)
	none(t, w)
	tree(t, dir, map[string]string{"blog/x.md": "back"})
	wantRescan(t, next(t, w), dir)
	none(t, w)
	tree(t, dir, map[string]string{"blog/x.md": "again"})
	wantPaths(t, only(t, w), dir, "blog/x.md")
	if !strings.Contains(logs.String(), "removed or renamed") {
		t.Errorf("no warning logged:\n%s", logs)
	}
}

func TestClose(t *testing.T) {
	dir := t.TempDir()
	w, err := New([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	must(t, w.Close())
	must(t, w.Close())
	if _, ok := <-w.Batches(); ok {
		t.Fatal("Batches still open after Close")
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := New(nil, Options{}); err == nil {
		t.Error("no roots: no error")
	}
	missing := filepath.Join(t.TempDir(), "missing")
	_, err := New([]string{missing}, Options{})
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing root: error %v does not name it", err)
	}
}
