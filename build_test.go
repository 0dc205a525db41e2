package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"folio/host"
)

func TestCheckNginxPath(t *testing.T) {
	for _, tc := range []struct {
		out, conf string
		ok        bool
	}{
		{"public", "", true},
		{"public", "nginx.conf", true},
		{"public", "public-nginx.conf", true},
		{"public", "/etc/nginx/conf.d/blog.conf", true},
		{"public", "public/nginx.conf", false},
		{"public", "./public/sub/nginx.conf", false},
		{"public", "public", false},
		{"/srv/site", "/srv/site/../site/x.conf", false},
		{"public", "conf/", false},
	} {
		err := checkNginxPath(tc.out, tc.conf)
		if (err == nil) != tc.ok {
			t.Errorf("checkNginxPath(%q, %q) = %v, want ok=%v", tc.out, tc.conf, err, tc.ok)
		}
	}
}

func TestBuildBase(t *testing.T) {
	for addr, want := range map[string]string{
		"":                  "http://localhost:8080/",
		":9000":             "http://localhost:9000/",
		"0.0.0.0:80":        "http://localhost:80/",
		"127.0.0.1:1313":    "http://127.0.0.1:1313/",
		"blog.example:8080": "http://blog.example:8080/",
	} {
		a, err := buildAddr(addr)
		if err != nil || host.BaseOf(a) != want {
			t.Errorf("buildAddr(%q) = %v, %v; want the base %q", addr, a, err, want)
		}
	}
	if _, err := buildAddr("no port"); err == nil {
		t.Error("buildAddr accepted an address without a port")
	}
}

// TestBuildWithProblems: a post that does not parse stops the export
// before anything is written; the previous output stays.
func TestBuildWithProblems(t *testing.T) {
	dir := t.TempDir()
	content := filepath.Join(dir, "content", "blog")
	os.MkdirAll(content, 0o755)
	os.WriteFile(filepath.Join(content, "ok.md"), []byte("---\ntitle: OK\ndate: 2026-01-02\n---\nfine\n"), 0o644)
	os.WriteFile(filepath.Join(content, "bad.md"), []byte("---\ntitle: [unclosed\n---\n"), 0o644)
	out := filepath.Join(dir, "public")
	previousExport(t, out)

	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"build", "--content", filepath.Join(dir, "content"), "--out", out, "--nginx", filepath.Join(dir, "nginx.conf")}, &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(stderr.String(), filepath.Join("content", "blog", "bad.md")+":") {
		t.Errorf("stderr does not name the broken file:\n%s", stderr.String())
	}
	if want := "folio: 1 problem; " + out + " left as it was\n"; !strings.HasSuffix(stderr.String(), want) {
		t.Errorf("stderr does not end with %q:\n%s", want, stderr.String())
	}
	wantPrevious(t, out)
	if _, err := os.Stat(filepath.Join(dir, "nginx.conf")); err == nil {
		t.Error("an nginx config was written for a failed build")
	}
}

// TestBuildEmptySection: posts that all sit outside the section stop the
// export, as a problem would, instead of replacing the live site with an
// empty one.
func TestBuildEmptySection(t *testing.T) {
	dir := t.TempDir()
	posts := filepath.Join(dir, "content", "posts")
	os.MkdirAll(posts, 0o755)
	os.WriteFile(filepath.Join(posts, "a.md"), []byte("---\ntitle: A\ndate: 2026-01-02\n---\nfine\n"), 0o644)
	out := filepath.Join(dir, "public")
	previousExport(t, out)

	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"build", "--content", filepath.Join(dir, "content"), "--out", out, "--base-url", "https://blog.example/"}, &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if want := filepath.Join(dir, "content", "blog") + ": no posts in "; !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("stderr does not start with %q:\n%s", want, stderr.String())
	}
	if !strings.Contains(stderr.String(), `(set section = "posts" in config.toml)`) || !strings.HasSuffix(stderr.String(), "folio: 1 problem; "+out+" left as it was\n") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	wantPrevious(t, out)
}

// TestBuildRenderProblems: a link to a post that is not published is a
// problem rendering finds, as check reports it: the build exits 1, names
// the file and line, and leaves the previous export as it was.
func TestBuildRenderProblems(t *testing.T) {
	dir := t.TempDir()
	blog := filepath.Join(dir, "content", "blog")
	os.MkdirAll(blog, 0o755)
	os.WriteFile(filepath.Join(blog, "ok.md"), []byte("---\ntitle: OK\ndate: 2026-01-02\n---\nfine\n\nSee [the draft](draft.md).\n"), 0o644)
	os.WriteFile(filepath.Join(blog, "draft.md"), []byte("---\ntitle: D\ndate: 2026-01-02\ndraft: true\n---\nsoon\n"), 0o644)
	out := filepath.Join(dir, "public")
	previousExport(t, out)

	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"build", "--content", filepath.Join(dir, "content"), "--out", out, "--base-url", "https://blog.example/"}, &stdout, &stderr)
	want := filepath.Join(blog, "ok.md") + ":7: link to \"draft.md\": the post is not published\nfolio: 1 problem; " + out + " left as it was\n"
	if code != 1 || stderr.String() != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1, stderr:\n%s", code, stderr.String(), want)
	}
	wantPrevious(t, out)
	if m, _ := filepath.Glob(filepath.Join(dir, ".public.tmp-*")); len(m) > 0 {
		t.Errorf("left behind: %v", m)
	}
}

// TestBuildNginxAllOrNothing: when the nginx config cannot be written,
// or cannot be put in place, the export is not either: the folder and the
// config change together or not at all (issue 15, finding 8). Before,
// public/ was replaced and the build exited 1 with the old config.
func TestBuildNginxAllOrNothing(t *testing.T) {
	for _, tc := range []struct{ name, conf string }{
		{"config folder is a file", "file/nginx.conf"},
		{"config name is a folder", "folder.conf"},
	} {
		dir := t.TempDir()
		writeTree(t, dir, map[string]string{
			"content/blog/a.md": "---\ntitle: A\ndate: 2024-01-02\n---\nA.\n",
			"file":              "a file",
			"folder.js":         "previous script",
			"folder.conf/keep":  "a folder",
		})
		out := filepath.Join(dir, "public")
		previousExport(t, out)
		code, _, stderr := runCLI(t, "build", "--content", filepath.Join(dir, "content"), "--out", out, "--nginx", filepath.Join(dir, tc.conf))
		if code != 1 || !strings.Contains(stderr, out+" left as it was") {
			t.Errorf("%s: exit %d, stderr %q; want 1, saying %s is left as it was", tc.name, code, stderr, out)
		}
		wantPrevious(t, out)
		if b, _ := os.ReadFile(filepath.Join(dir, "folder.js")); string(b) != "previous script" {
			t.Errorf("%s: the njs script changed: %q", tc.name, b)
		}
		if m, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*")); len(m) > 0 {
			t.Errorf("%s: left behind: %v", tc.name, m)
		}
	}
}

func TestBuildRefusesNginxInsideOutput(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"build", "--out", "public", "--nginx", "public/nginx.conf"}, &stdout, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "inside the output folder") {
		t.Errorf("exit %d, stderr %q; want 2 and the reason", code, stderr.String())
	}
}

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 problems", 1: "1 problem", 2: "2 problems"} {
		if got := count(n, "problem", "problems"); got != want {
			t.Errorf("count(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestBuildRefusesForeignOutput: --out naming a folder of other files is a
// usage mistake (exit 2), found before anything is rendered, and the
// folder is left alone.
func TestBuildRefusesForeignOutput(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"content/blog/a.md": "---\ntitle: A\ndate: 2024-01-02\n---\n",
		"notes/thesis.tex":  "years of work",
	})
	out := filepath.Join(dir, "notes")
	code, stdout, stderr := runCLI(t, "build", "--content", filepath.Join(dir, "content"), "--out", out)
	want := "folio: export: " + out + " is not empty and does not look like an earlier export (no 404.html); remove it or choose another --out\n"
	if code != 2 || stdout != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2, %q", code, stdout, stderr, want)
	}
	if b, err := os.ReadFile(filepath.Join(out, "thesis.tex")); err != nil || string(b) != "years of work" {
		t.Errorf("the folder's file changed: %q, %v", b, err)
	}
}

// previousFiles stand in for an earlier export in the tests of failed
// builds, which must leave it as it was.
var previousFiles = []string{"index.html", "404.html", "api/posts.json"}

// previousExport writes previousFiles into out.
func previousExport(t *testing.T, out string) {
	t.Helper()
	for _, f := range previousFiles {
		p := filepath.Join(out, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("previous"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// wantPrevious fails the test unless out still holds previousExport's
// files as they were.
func wantPrevious(t *testing.T, out string) {
	t.Helper()
	for _, f := range previousFiles {
		if b, err := os.ReadFile(filepath.Join(out, f)); err != nil || string(b) != "previous" {
			t.Errorf("previous output %s changed: %q, %v", f, b, err)
		}
	}
}

// TestBuildOddSlugs (issue 15, finding 12): slugs "." and ".." name
// another page's URL (Hugo writes the page over the section's or the home
// page) and are errors in check and build alike; a slug with a tab takes
// Hugo's form (/blog/a-b/) and builds with --nginx. An alias or a bundle
// file with a tab, which Hugo publishes as written, is a warning in
// check, and build --nginx refuses it without changing anything. Before,
// all of these passed check; "." then failed build with "does not name a
// file", the tab slug failed the nginx step.
func TestBuildOddSlugs(t *testing.T) {
	dir := t.TempDir()
	post := func(fm string) string { return "---\ntitle: T\ndate: 2024-01-02\n" + fm + "---\nBody.\n" }
	writeTree(t, dir, map[string]string{
		"content/blog/dot.md":        post("slug: \".\"\n"),
		"content/blog/dotdot.md":     post("slug: \"..\"\n"),
		"content/blog/tab.md":        post("slug: \"a\\tb\"\n"),
		"content/blog/alias.md":      post("aliases: [\"/old\\tpath/\"]\n"),
		"content/blog/pack/index.md": post(""),
		"content/blog/pack/x\ty.png": "png",
	})
	content := filepath.Join(dir, "content")
	code, stdout, _ := runCLI(t, "check", "--content", content)
	for _, want := range []string{
		filepath.Join(content, "blog", "dot.md") + `:4: front matter: slug "." is a step in a path, not a name`,
		filepath.Join(content, "blog", "dotdot.md") + `:4: front matter: slug ".." is a step in a path, not a name`,
		filepath.Join(content, "blog", "alias.md") + `:1: warning: alias "/old\tpath/" holds a control character (U+0009): build --nginx refuses it`,
		filepath.Join(content, "blog", "pack", "x\ty.png") + `:1: warning: bundle file "x\ty.png" holds a control character (U+0009)`,
		"3 posts, 2 problems, 2 warnings\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("check (exit %d) does not say %q:\n%s", code, want, stdout)
		}
	}
	out, conf := filepath.Join(dir, "public"), filepath.Join(dir, "nginx.conf")
	previousExport(t, out)
	if code, _, stderr := runCLI(t, "build", "--content", content, "--out", out, "--nginx", conf); code != 1 || !strings.Contains(stderr, "2 problems; "+out+" left as it was") {
		t.Errorf("build with slugs . and ..: exit %d\n%s", code, stderr)
	}
	wantPrevious(t, out)
	os.Remove(filepath.Join(content, "blog", "dot.md"))
	os.Remove(filepath.Join(content, "blog", "dotdot.md"))
	if code, _, stderr := runCLI(t, "build", "--content", content, "--out", out, "--nginx", conf); code != 1 || !strings.Contains(stderr, "control characters nginx cannot match") {
		t.Errorf("build --nginx with a tab in an alias and a file name: exit %d\n%s", code, stderr)
	}
	wantPrevious(t, out)
	os.Remove(filepath.Join(content, "blog", "alias.md"))
	os.Remove(filepath.Join(content, "blog", "pack", "x\ty.png"))
	if code, _, stderr := runCLI(t, "build", "--content", content, "--out", out, "--nginx", conf); code != 0 {
		t.Fatalf("build --nginx with a tab slug: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "blog", "a-b", "index.html")); err != nil {
		t.Errorf("the tab slug's page is not at Hugo's /blog/a-b/: %v", err)
	}
}
