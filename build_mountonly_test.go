package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"folio/internal/hugotest"
)

// TestMountOnlySite: a Hugo site whose content comes from module.mounts
// alone has no content/ folder (a content mount replaces Hugo's default
// one, and git keeps no empty folder). Hugo 0.165 builds it; check,
// build, serve and dev take it, and build publishes the pages Hugo
// publishes, each mount's filters applied. (Every command refused it:
// "content folder content: no such file or directory".)
func TestMountOnlySite(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "hugo.toml", `baseURL = "https://example.org/"
title = "Mounts"
[[module.mounts]]
source = "c1"
target = "content"
includeFiles = ["{posts,notes}/**.md"]
[[module.mounts]]
source = "c2"
target = "content/x"
`)
	post := func(title string) string {
		return "---\ntitle: " + title + "\ndate: 2024-01-01T00:00:00Z\n---\nText.\n"
	}
	write(t, dir, "c1/posts/a.md", post("A"))
	write(t, dir, "c1/notes/n.md", post("N"))
	write(t, dir, "c1/other/o.md", post("O")) // not included
	write(t, dir, "c2/posts/b.md", post("B"))
	if _, err := os.Stat(filepath.Join(dir, "content")); !os.IsNotExist(err) {
		t.Fatalf("the site has a content folder: %v", err)
	}
	want := []string{"/notes/n/", "/posts/a/", "/x/posts/b/"}

	code, stdout, stderr := runCLI(t, "check", "--source", dir)
	if code != 0 || !strings.HasSuffix(stdout, "1 post, 0 problems\n") {
		t.Errorf("check: exit %d, stdout\n%s\nstderr\n%s\nwant exit 0, 1 post, 0 problems", code, stdout, stderr)
	}
	for _, command := range []string{"serve", "dev"} {
		if err := preflight(&options{command: command, source: dir}, io.Discard); err != nil {
			t.Errorf("%s refuses the site: %v", command, err)
		}
	}
	out := filepath.Join(t.TempDir(), "public")
	if code, _, stderr := runCLI(t, "build", "--source", dir, "--out", out); code != 0 {
		t.Fatalf("build: exit %d, said\n%s", code, stderr)
	}
	for _, p := range append(want, "/other/o/") {
		_, err := os.Stat(filepath.Join(out, filepath.FromSlash(p), "index.html"))
		if published := err == nil; published != (p != "/other/o/") {
			t.Errorf("build: %s published %v, want %v", p, published, !published)
		}
	}

	// Hugo builds it, with those pages.
	var hugo []string
	for _, o := range hugotest.BuildSite(t, dir) {
		if o.Class == "page" && o.Kind == "page" {
			hugo = append(hugo, o.Path)
		}
	}
	slices.Sort(hugo)
	if !slices.Equal(hugo, want) {
		t.Errorf("Hugo's pages %q, want %q", hugo, want)
	}
}
