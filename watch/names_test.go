package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// startRoots is start for roots of any kind.
func startRoots(t *testing.T, opts Options, roots ...Root) *Watcher {
	t.Helper()
	if opts.SyncDir == "" {
		opts.SyncDir, opts.Synced = t.TempDir(), make(chan bool)
	}
	w, err := NewRoots(roots, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

// TestNamesRoot watches a project folder by names only, beside its content
// folder: the named entries are seen created, edited, replaced and
// removed, hidden names too; nothing else in the folder or below it is.
func TestNamesRoot(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	tree(t, project, map[string]string{"content/blog/x.md": "x", "notes.txt": "n"})
	content := filepath.Join(project, "content")
	w := startRoots(t, Options{}, Root{Path: content}, Root{Path: project, Names: []string{"config.toml", ".folio.toml", "content"}})
	o := fsops{t, project}
	names := func(paths ...string) Batch { return Batch{Root: project, Index: 1, Paths: paths} }

	tree(t, project, map[string]string{"notes.txt": "changed", "main.go": "package main", ".git/HEAD": "ref", "other/config.toml": "no"})
	o.remove("notes.txt")
	none(t, w)

	o.create("config.toml", "a")
	wantBatches(t, only(t, w), names("config.toml"))
	o.create(".folio.toml", "hidden, but asked for")
	wantBatches(t, only(t, w), names(".folio.toml"))
	o.create("config.toml.new", "b")
	o.rename("config.toml.new", "config.toml")
	wantBatches(t, only(t, w), names("config.toml"))
	o.remove("config.toml")
	wantBatches(t, only(t, w), names("config.toml"))

	// Inside a named folder is the folder root's business alone.
	tree(t, project, map[string]string{"content/blog/x.md": "x2"})
	wantBatches(t, only(t, w), Batch{Root: content, Paths: []string{"blog/x.md"}})
}

// TestNamesRootSharesFolder: a folder root and a names-only root on the
// same folder report the same change each, told apart by Index.
func TestNamesRootSharesFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tree(t, dir, map[string]string{"blog/x.md": "x", "config.toml": "a"})
	w := startRoots(t, Options{}, Root{Path: dir}, Root{Path: dir, Names: []string{"config.toml"}})
	o := fsops{t, dir}

	o.truncWrite("config.toml", "b")
	wantBatches(t, only(t, w),
		Batch{Root: dir, Paths: []string{"config.toml"}},
		Batch{Root: dir, Index: 1, Paths: []string{"config.toml"}})
	o.truncWrite("blog/x.md", "x2")
	wantBatches(t, only(t, w), Batch{Root: dir, Paths: []string{"blog/x.md"}})
}

// TestOneBurstAcrossRoots: a config file written and then many posts (a
// git checkout of config.toml and the content) are one burst and one
// delivery, with one Batch for each root, whatever the kinds of the roots
// it touches.
func TestOneBurstAcrossRoots(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	tree(t, project, map[string]string{"content/blog/x.md": "x"})
	content := filepath.Join(project, "content")
	w := startRoots(t, Options{}, Root{Path: content}, Root{Path: project, Names: []string{"config.toml", "content"}})

	tree(t, project, map[string]string{"config.toml": "new"})
	var posts []string
	for i := range 200 {
		name := fmt.Sprintf("blog/p%03d.md", i)
		tree(t, content, map[string]string{name: "p"})
		posts = append(posts, name)
	}
	slices.Sort(posts)
	wantBatches(t, only(t, w),
		Batch{Root: content, Paths: posts},
		Batch{Root: project, Index: 1, Paths: []string{"config.toml"}})
}

// TestNamesRootRemoved: a names-only root's folder removed is a rescan of
// it; made again, it is watched again.
func TestNamesRootRemoved(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "project")
	tree(t, dir, map[string]string{"config.toml": "a"})
	w := startRoots(t, Options{}, Root{Path: dir, Names: []string{"config.toml"}})

	must(t, os.RemoveAll(dir))
	rescanned(t, w, dir)
	tree(t, dir, map[string]string{"notes.txt": "n"})
	rescanned(t, w, dir)
	tree(t, dir, map[string]string{"config.toml": "b"})
	wantBatches(t, next(t, w), Batch{Root: dir, Paths: []string{"config.toml"}})
}

// TestNewRootsInvalid: names-only roots take plain names in a folder.
func TestNewRootsInvalid(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "config.toml")
	tree(t, dir, map[string]string{"config.toml": "a"})
	tests := []struct {
		name string
		root Root
	}{
		{"names in a file", Root{Path: file, Names: []string{"x"}}},
		{"a path, not a name", Root{Path: dir, Names: []string{"sub/config.toml"}}},
		{"parent", Root{Path: dir, Names: []string{".."}}},
		{"empty name", Root{Path: dir, Names: []string{""}}},
		{"missing folder", Root{Path: filepath.Join(dir, "none"), Names: []string{"x"}}},
	}
	for _, tt := range tests {
		if w, err := NewRoots([]Root{tt.root}, Options{}); err == nil {
			w.Close()
			t.Errorf("%s: no error", tt.name)
		}
	}
	if _, err := NewRoots(nil, Options{}); err == nil {
		t.Error("no roots: no error")
	}
}
