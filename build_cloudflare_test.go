package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"folio/export"
)

// cloudflareSite writes a small site and returns its content folder.
func cloudflareSite(t *testing.T) (dir, content string) {
	t.Helper()
	dir = t.TempDir()
	blog := filepath.Join(dir, "content", "blog")
	os.MkdirAll(blog, 0o755)
	os.WriteFile(filepath.Join(blog, "a.md"), []byte("---\ntitle: A\ndate: 2026-01-02\n---\nfine\n"), 0o644)
	return dir, filepath.Join(dir, "content")
}

func TestBuildCloudflareFlags(t *testing.T) {
	dir, content := cloudflareSite(t)
	os.MkdirAll(filepath.Join(dir, "toml"), 0o755)
	os.WriteFile(filepath.Join(dir, "toml", "wrangler.toml"), []byte("name = \"x\"\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--cloudflare", "cf", "--out", "public"}, "leave out --out"},
		{[]string{"--cloudflare", "cf", "--nginx", "x.conf"}, "build each on its own"},
		{[]string{"--cloudflare", "cf", "--cloudflare-plan", "pro"}, `--cloudflare-plan "pro": want free or paid`},
		{[]string{"--cloudflare-plan", "paid"}, "--cloudflare-plan without --cloudflare"},
		{[]string{"--cloudflare", filepath.Join(dir, "toml")}, "holds wrangler.toml"},
	} {
		code, _, stderr := runCLI(t, append([]string{"build", "--content", content}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

// TestBuildCloudflareKeepsTheAuthors: a build writes the project; the
// author adds keys and comments to wrangler.jsonc; a later build rewrites
// public/, the Worker and folio's keys, and keeps the author's. A build
// that fails (a problem; a wrangler.jsonc Wrangler could not read) leaves
// the whole project as it was.
func TestBuildCloudflareKeepsTheAuthors(t *testing.T) {
	dir, content := cloudflareSite(t)
	cf := filepath.Join(dir, "cf")
	build := func() (int, string) {
		code, _, stderr := runCLI(t, "build", "--content", content, "--cloudflare", cf)
		return code, stderr
	}
	if code, stderr := build(); code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	for _, f := range []string{"wrangler.jsonc", "worker/folio.js", "worker/site.json", "public/index.html", "public/404.html", "public/blog/a/index.html"} {
		if _, err := os.Stat(filepath.Join(cf, f)); err != nil {
			t.Errorf("the project lacks %s", f)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(cf, "public", "*.gz")); len(m) > 0 {
		t.Errorf(".gz twins in public/: %v", m)
	}
	config := filepath.Join(cf, "wrangler.jsonc")
	b, _ := os.ReadFile(config)
	edited := strings.Replace(string(b), "{\n", "{\n  // mine\n  \"account_id\": \"0123\",\n  \"routes\": [\"blog.example.org/*\"],\n", 1)
	edited = strings.Replace(edited, `"compatibility_date": "`, `"compatibility_date": "1999-`, 1)
	os.WriteFile(config, []byte(edited), 0o644)
	os.WriteFile(filepath.Join(content, "blog", "b.md"), []byte("---\ntitle: B\ndate: 2026-01-03\n---\nnew\n"), 0o644)
	if code, stderr := build(); code != 0 {
		t.Fatalf("second build: exit %d:\n%s", code, stderr)
	}
	b, _ = os.ReadFile(config)
	for _, want := range []string{"// mine\n  \"account_id\": \"0123\",\n  \"routes\": [\"blog.example.org/*\"],", `"compatibility_date": "2025-`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("wrangler.jsonc lacks %q:\n%s", want, b)
		}
	}
	if _, err := os.Stat(filepath.Join(cf, "public", "blog", "b", "index.html")); err != nil {
		t.Error("the new post is not in public/")
	}

	before := snapshotDir(t, cf)
	os.WriteFile(filepath.Join(content, "blog", "bad.md"), []byte("---\ntitle: [unclosed\n---\n"), 0o644)
	if code, stderr := build(); code != 1 || !strings.HasSuffix(stderr, "folio: 1 problem; "+cf+" left as it was\n") {
		t.Errorf("a problem: exit %d, stderr:\n%s", code, stderr)
	}
	os.Remove(filepath.Join(content, "blog", "bad.md"))
	os.WriteFile(config, append([]byte("{,"), b...), 0o644)
	before["wrangler.jsonc"] = "{," + before["wrangler.jsonc"]
	if code, stderr := build(); code != 1 || !strings.Contains(stderr, config+": line 1: ") {
		t.Errorf("a broken wrangler.jsonc: exit %d, stderr:\n%s", code, stderr)
	}
	after := snapshotDir(t, cf)
	for name, was := range before {
		if after[name] != was {
			t.Errorf("%s changed in a failed build", name)
		}
	}
	if len(after) != len(before) {
		t.Errorf("a failed build left %d files, want %d", len(after), len(before))
	}
}

// snapshotDir reads every file under dir, by slash-separated name.
func snapshotDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			out[filepath.ToSlash(rel)] = string(b)
		}
		return err
	})
	return out
}

// TestBuildTunesForItsOutput: the collector is tuned for the folder a
// build writes, --cloudflare's public/ included: cold the first time,
// over its record the second (the record was looked for in --out's
// default before --cloudflare set it).
func TestBuildTunesForItsOutput(t *testing.T) {
	dir, content := cloudflareSite(t)
	cf := filepath.Join(dir, "cf")
	var got []string
	defer func(f func(string) func()) { tuneBuild = f }(tuneBuild)
	tuneBuild = func(out string) func() {
		got = append(got, fmt.Sprintf("%s recorded=%v", out, export.Recorded(out)))
		return func() {}
	}
	for range 2 {
		if code, _, stderr := runCLI(t, "build", "--content", content, "--cloudflare", cf); code != 0 {
			t.Fatalf("exit %d:\n%s", code, stderr)
		}
	}
	public := export.CloudflarePublic(cf)
	want := []string{public + " recorded=false", public + " recorded=true"}
	if !slices.Equal(got, want) {
		t.Errorf("tuned for %q, want %q", got, want)
	}
}
