package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"folio/host"
	"folio/internal/hugotest"
)

// TestHugoSiteWithoutContentYet: a Hugo site with no content/ folder yet
// (`hugo new site` makes an empty one, which git does not keep) is built
// by Hugo 0.165, its home page, feeds and taxonomies, and so by folio:
// check, build, serve and dev take it (they refused it: "content folder
// content: no such file or directory"). --content naming a missing folder
// is still refused.
func TestHugoSiteWithoutContentYet(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "hugo.toml", "baseURL = 'https://example.org/'\ntitle = 'Empty'\n")

	if code, stdout, stderr := runCLI(t, "check", "--source", dir); code != 0 || !strings.Contains(stdout, "0 posts, 0 problems") {
		t.Errorf("check: exit %d, said\n%s%s", code, stdout, stderr)
	}
	out := filepath.Join(t.TempDir(), "public")
	if code, _, stderr := runCLI(t, "build", "--source", dir, "--out", out); code != 0 {
		t.Fatalf("build: exit %d, said\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err != nil {
		t.Errorf("the export has no home page: %v", err)
	}
	for _, dev := range []bool{false, true} {
		h, err := host.Load(host.Spec{Source: dir, Dev: dev})
		if err != nil {
			t.Fatalf("dev=%v: %v", dev, err)
		}
		h.Close()
	}
	if code, _, stderr := runCLI(t, "check", "--source", dir, "--content", filepath.Join(dir, "nothing")); code != 2 || !strings.Contains(stderr, "no such file or directory") {
		t.Errorf("check --content of a missing folder: exit %d, said\n%s", code, stderr)
	}

	bin := hugotest.Binary(t)
	cmd := exec.Command(bin, "--quiet", "--source", dir, "--destination", t.TempDir(), "--cacheDir", t.TempDir())
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("hugo refuses the site: %v\n%s", err, msg)
	}
}
