package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree writes files (slash paths → contents) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCheck(t *testing.T) {
	good := "---\ntitle: Good\ndate: 2024-01-02\n---\nBody.\n"
	tests := []struct {
		name     string
		files    map[string]string
		wantOut  []string // exact stdout lines, with DIR for the content folder
		wantCode int
	}{
		{
			name:     "clean",
			files:    map[string]string{"blog/a.md": good, "blog/b.md": good},
			wantOut:  []string{"2 posts, 0 problems"},
			wantCode: 0,
		},
		{
			name: "broken post, link and ref to a draft",
			files: map[string]string{
				"blog/a.md":      good,
				"blog/broken.md": "---\ntitle: Broken\ndate: 2024-01-02\ntags: [a\n---\n",
				"blog/draft.md":  "---\ntitle: Secret\ndate: 2024-01-02\ndraft: true\n---\n",
				"blog/links.md":  "---\ntitle: Links\ndate: 2024-01-03\n---\nSee [it](../draft/).\n\n{{< ref \"draft.md\" >}}\n",
			},
			wantOut: []string{
				"DIR/blog/broken.md:4: front matter: tags: unclosed [ (] missing)",
				`DIR/blog/links.md:5: link to "../draft/": the post is not published`,
				`DIR/blog/links.md:7: ref "draft.md": the post is not published`,
				"2 posts, 3 problems",
			},
			wantCode: 1,
		},
		{
			// What Hugo accepts is a warning: listed, never failing.
			name: "warnings only",
			files: map[string]string{
				"blog/a.md": "---\ntitle: A\ndate: 2024-01-02\ntags: [go, ~]\n---\n{{< missing-theme-shortcode >}}kept{{< /missing-theme-shortcode >}}\n\n{{< gist user 123 >}}\n",
				// A draft's problem counts only under --drafts.
				"blog/draft.md": "---\ntitle: [a, list]\ndate: 2024-01-02\ndraft: true\n---\n",
			},
			wantOut: []string{
				"DIR/blog/a.md:1: warning: front matter: tags: an empty entry is left out, as Hugo leaves it out",
				`DIR/blog/a.md:6: warning: shortcode "missing-theme-shortcode": no template for it in the site or its theme (layouts/_shortcodes/missing-theme-shortcode.html); its inner text is kept`,
				"DIR/blog/a.md:8: warning: gist: removed in Hugo 0.156 (Hugo 0.165 stops here); folio links to the gist",
				"1 post, 0 problems, 3 warnings",
			},
			wantCode: 0,
		},
		{
			// One cause said at many places (a theme not checked out) is
			// printed once, at its first place, with how many more; errors
			// are each printed.
			name: "a warning at several places",
			files: map[string]string{
				"blog/a.md":     "---\ntitle: A\ndate: 2024-01-02\n---\n{{< alert >}}x{{< /alert >}}\n\n{{< alert >}}y{{< /alert >}}\n\n{{< badge >}}\n",
				"blog/b.md":     "---\ntitle: B\ndate: 2024-01-03\n---\n{{< alert >}}z{{< /alert >}}\n\n{{< ref \"draft.md\" >}}\n",
				"blog/c.md":     "---\ntitle: C\ndate: 2024-01-04\n---\n{{< alert >}}w{{< /alert >}}\n\n{{< ref \"draft.md\" >}}\n",
				"blog/draft.md": "---\ntitle: Secret\ndate: 2024-01-02\ndraft: true\n---\n",
			},
			wantOut: []string{
				`DIR/blog/a.md:5: warning: shortcode "alert": no template for it in the site or its theme (layouts/_shortcodes/alert.html); its inner text is kept (and 3 more in 3 files: folio check -v lists each)`,
				`DIR/blog/a.md:9: warning: shortcode "badge": no template for it in the site or its theme (layouts/_shortcodes/badge.html); its inner text is kept`,
				`DIR/blog/b.md:7: ref "draft.md": the post is not published`,
				`DIR/blog/c.md:7: ref "draft.md": the post is not published`,
				"3 posts, 2 problems, 5 warnings",
			},
			wantCode: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, tc.files)
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"check", "--content", dir}, &stdout, &stderr)
			want := strings.ReplaceAll(strings.Join(tc.wantOut, "\n")+"\n", "DIR", dir)
			if got := stdout.String(); got != want || code != tc.wantCode {
				t.Errorf("exit %d, stdout:\n%s\nwant exit %d, stdout:\n%s\nstderr: %s", code, got, tc.wantCode, want, stderr.String())
			}
		})
	}
}

func TestCheckVerboseListsLoadedPosts(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"blog/a.md":       "---\ntitle: A\ndate: 2024-01-02\n---\n",
		"blog/bad.md":     "---\ndate: someday\ntitle: B\n---\n",
		"blog/draft.md":   "---\ntitle: D\ndate: 2024-01-02\ndraft: true\n---\n",
		"blog/later.md":   "---\ntitle: L\ndate: 2199-01-02T10:00:00Z\n---\n",
		"blog/expired.md": "---\ntitle: E\ndate: 2020-01-02\nexpiryDate: 2021-03-04T05:06:00Z\n---\n",
	})
	writeTree(t, dir, map[string]string{"site.toml": "timeZone = 'Asia/Tokyo'\n"})
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"check", "-v", "--config", filepath.Join(dir, "site.toml"), "--content", dir, "--base-url", "https://example.org/"}, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	// Times in the site's timeZone, as the author wrote them.
	wantErr := "ok " + filepath.Join(dir, "blog/a.md") + " -> https://example.org/blog/a/\n" +
		"skip " + filepath.Join(dir, "blog/draft.md") + ": draft\n" +
		"skip " + filepath.Join(dir, "blog/expired.md") + ": expired 2021-03-04 14:06 JST\n" +
		"skip " + filepath.Join(dir, "blog/later.md") + ": scheduled for 2199-01-02 19:00 JST\n"
	if stderr.String() != wantErr {
		t.Errorf("stderr = %q, want %q", stderr.String(), wantErr)
	}
	if !strings.HasPrefix(stdout.String(), filepath.Join(dir, "blog/bad.md")+":2: ") {
		t.Errorf("stdout = %q, want the broken post first", stdout.String())
	}
}

// TestCheckFrontMatterLines: a broken post of each front-matter format is
// reported at the line that is wrong, counted in the whole file.
func TestCheckFrontMatterLines(t *testing.T) {
	tests := []struct {
		name, src, want string // want: the problem line, with DIR
	}{
		{"yaml", "---\ntitle: T\ndate: 2024-01-02\ntags: [a\n---\n",
			"DIR/blog/yaml.md:4: front matter: tags: unclosed [ (] missing)"},
		{"yaml-after-blank-lines", "\n\n---\ntitle: T\n  nested: : bad\n---\n",
			"DIR/blog/yaml-after-blank-lines.md:5: front matter: nested: indented under title, which already has a value"},
		{"toml", "+++\ntitle = 'T'\ndate = 2024-01-02\ntags = [\n+++\n",
			"DIR/blog/toml.md:4: front matter: tags: unclosed [ (] missing)"},
		{"toml-bad-value", "+++\ntitle = 'T'\n\ndate = yesterday\n+++\n",
			`DIR/blog/toml-bad-value.md:4: front matter: date: text must be quoted ("…")`},
		{"json-unterminated-string", "{\n\"title\": \"keyset cursors,\n\"date\": \"2024-01-02\"\n}\nBody.\n",
			`DIR/blog/json-unterminated-string.md:2: front matter: title: unclosed quote (")`},
		{"json-missing-comma", "\n{\n  \"title\": \"T\"\n  \"date\": \"2024-01-02\"\n}\n",
			`DIR/blog/json-missing-comma.md:3: front matter: title: a comma is missing after the value`},
		{"json-unclosed", "{\n\"title\": \"T\",\n\"date\": \"2024-01-02\"\n",
			"DIR/blog/json-unclosed.md:1: front matter: unclosed block (} missing)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{"blog/" + tc.name + ".md": tc.src})
			code, stdout, _ := runCLI(t, "check", "--content", dir)
			want := strings.ReplaceAll(tc.want, "DIR", dir) + "\n0 posts, 1 problem\n"
			if code != 1 || stdout != want {
				t.Errorf("exit %d, stdout:\n%s\nwant exit 1, stdout:\n%s", code, stdout, want)
			}
		})
	}
}

// TestCheckEmptySectionHint: posts that all sit outside the configured
// section are a problem for check (a CI gate would otherwise pass an empty site), named
// by the section's folder, in check's path:line: message format.
func TestCheckEmptySectionHint(t *testing.T) {
	dir := t.TempDir()
	post := "---\ntitle: T\ndate: 2024-01-02\n---\n"
	writeTree(t, dir, map[string]string{"content/posts/a.md": post, "content/posts/b.md": post, "config.toml": "title = 'x'\nsection = 'blog'\n"})
	code, stdout, stderr := runCLI(t, "check", "--config", filepath.Join(dir, "config.toml"))
	content := filepath.Join(dir, "content")
	want := filepath.Join(content, "blog") + ": no posts in " + filepath.Join(content, "blog") + "/; " + filepath.Join(content, "posts") +
		"/ has 2 Markdown files (set section = \"posts\" in " + filepath.Join(dir, "config.toml") + ")\n0 posts, 1 problem\n"
	if code != 1 || stdout != want || stderr != "" {
		t.Errorf("exit %d, stdout:\n%s\nstderr %q\nwant exit 1, stdout:\n%s", code, stdout, stderr, want)
	}
}

// TestCheckEmptySite: a content folder with no Markdown at all is a new
// site, not a mistake.
func TestCheckEmptySite(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runCLI(t, "check", "--content", dir)
	if code != 0 || stdout != "0 posts, 0 problems\n" || stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 0, \"0 posts, 0 problems\\n\"", code, stdout, stderr)
	}
}

// TestWarningsDoNotFail: what Hugo accepts and publishes is a warning,
// which check and build list and never fail on (a link to a content file
// of the post's own bundle, which Hugo never publishes: issue 15,
// finding 6).
func TestWarningsDoNotFail(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"content/blog/pack/index.md": "---\ntitle: Pack\ndate: 2024-01-02\n---\nSee [the notes](notes.md).\n",
		"content/blog/pack/notes.md": "---\ntitle: Notes\ndraft: true\n---\nsecret\n",
	})
	content := filepath.Join(dir, "content")
	warning := filepath.Join(content, "blog", "pack", "index.md") + `:5: warning: link to "notes.md": a content file inside a page bundle is not published (Hugo makes it a page resource); the link is left out`
	code, stdout, _ := runCLI(t, "check", "--content", content)
	if want := warning + "\n1 post, 0 problems, 1 warning\n"; code != 0 || stdout != want {
		t.Errorf("check: exit %d, stdout:\n%s\nwant exit 0, stdout:\n%s", code, stdout, want)
	}
	out := filepath.Join(dir, "public")
	code, _, stderr := runCLI(t, "build", "--content", content, "--out", out, "--base-url", "https://blog.example/")
	if code != 0 || !strings.HasPrefix(stderr, warning+"\n") {
		t.Errorf("build: exit %d, stderr:\n%s\nwant exit 0, the warning first", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "blog", "pack", "notes.md")); !os.IsNotExist(err) {
		t.Errorf("the bundle's Markdown file was exported: %v", err)
	}
}

// TestBuildReportsWhatCheckReports: build lists every problem at once, in
// check's order (the snapshot's, the templates', what rendering finds,
// the gate's), warnings included; warnings alone do not stop it.
func TestBuildReportsWhatCheckReports(t *testing.T) {
	good := "---\ntitle: Good\ndate: 2024-01-02\n---\nBody.\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		lines int
		fails bool
	}{
		{"errors and warnings", map[string]string{
			"content/blog/a.md":      good,
			"content/blog/broken.md": "---\ntitle: B\ndate: 2024-01-02\ntags: [a\n---\n",
			"content/blog/links.md":  "---\ntitle: L\ndate: 2024-01-03\ntags: [x, ~]\n---\n[it]({{< ref \"gone.md\" >}})\n\n{{< tweet 1 >}}\n",
		}, 4, true},
		{"warnings only", map[string]string{
			"content/blog/a.md": "---\ntitle: A\ndate: 2024-01-02\n---\n{{< nosuch >}}kept{{< /nosuch >}}\n",
		}, 1, false},
		// Two routes whose files would be one (a's Markdown blog/a.md,
		// the folder of the page slugged a.md): the export refuses them.
		{"routes that share a file", map[string]string{
			"content/blog/a.md": good,
			"content/blog/b.md": "---\ntitle: B\ndate: 2024-01-03\nslug: a.md\naliases: [/old/b/]\n---\nBody.\n",
		}, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, tc.files)
			content, out := filepath.Join(dir, "content"), filepath.Join(dir, "public")
			_, cout, _ := runCLI(t, "check", "--content", content)
			lines := strings.Split(strings.TrimSuffix(cout, "\n"), "\n")
			listed := strings.Join(lines[:len(lines)-1], "\n") // all but the summary
			code, _, berr := runCLI(t, "build", "--content", content, "--out", out, "--base-url", "https://blog.example/")
			if tc.fails != (code == 1) {
				t.Fatalf("build: exit %d, stderr:\n%s", code, berr)
			}
			if len(lines)-1 != tc.lines || !strings.HasPrefix(berr, listed+"\n") {
				t.Errorf("build's stderr:\n%s\ndoes not start with check's %d lines:\n%s", berr, tc.lines, listed)
			}
		})
	}
}

// TestCheckRendersEveryPage: check renders every page build writes, not
// only the posts: a page outside the main section (an about page, a
// section of its own) whose link or shortcode fails is the same problem,
// at the same file and line, in check and in build, so that check exit 0
// means build writes the site. (jayqi/blog: check said 0 problems where
// build refused the about page's shortcode.)
func TestCheckRendersEveryPage(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"hugo.toml":                      "baseURL = 'https://blog.example/'\ntitle = 'T'\n",
		"content/posts/a.md":             "---\ntitle: A\ndate: 2024-01-02\n---\nBody.\n",
		"content/posts/b.md":             "---\ntitle: B\ndate: 2024-01-03\n---\nBody.\n",
		"content/posts/secret.md":        "---\ntitle: Secret\ndate: 2024-01-04\ndraft: true\n---\nBody.\n",
		"content/about.md":               "---\ntitle: About\n---\nHello.\n\nSee [the secret](/posts/secret/).\n",
		"content/projects/_index.md":     "---\ntitle: Projects\n---\n",
		"content/projects/tool.md":       "---\ntitle: Tool\n---\n{{< nosuch-arg >}}\n\n{{< broken >}}\n",
		"layouts/shortcodes/broken.html": "{{ .Get 1 2 3 }}",
	})
	content := filepath.Join(dir, "content")
	want := []string{
		filepath.Join(content, "about.md") + `:6: link to "/posts/secret/": the post is not published`,
		filepath.Join(content, "projects", "tool.md") + `:6: shortcode "broken": `,
	}
	code, stdout, _ := runCLI(t, "check", "--source", dir)
	for _, w := range want {
		if !strings.Contains(stdout, "\n"+w) && !strings.HasPrefix(stdout, w) {
			t.Errorf("check does not report %q:\n%s", w, stdout)
		}
	}
	if code != 1 || !strings.Contains(stdout, "2 posts, 2 problems") {
		t.Errorf("check: exit %d, stdout:\n%s\nwant exit 1 and 2 problems", code, stdout)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	listed := strings.Join(lines[:len(lines)-1], "\n")
	code, _, stderr := runCLI(t, "build", "--source", dir, "--out", filepath.Join(dir, "public"))
	if code != 1 || !strings.Contains(stderr, listed+"\n") {
		t.Errorf("build: exit %d, stderr:\n%s\nwant exit 1 and check's lines:\n%s", code, stderr, listed)
	}
}

// TestCheckVerbosePrintsEveryWarning: -v prints a repeated warning at
// each of its places, and build points to it.
func TestCheckVerbosePrintsEveryWarning(t *testing.T) {
	dir := t.TempDir()
	post := "---\ntitle: A\ndate: 2024-01-02\n---\n{{< alert >}}x{{< /alert >}}\n\n{{< alert >}}y{{< /alert >}}\n"
	writeTree(t, dir, map[string]string{"content/blog/a.md": post, "content/blog/b.md": post})
	content := filepath.Join(dir, "content")
	warning := `warning: shortcode "alert": no template for it in the site or its theme (layouts/_shortcodes/alert.html); its inner text is kept`
	code, stdout, _ := runCLI(t, "check", "-v", "--content", content)
	var want []string
	for _, at := range []string{"a.md:5", "a.md:7", "b.md:5", "b.md:7"} {
		want = append(want, filepath.Join(content, "blog", at)+": "+warning)
	}
	if want := strings.Join(want, "\n") + "\n2 posts, 0 problems, 4 warnings\n"; code != 0 || stdout != want {
		t.Errorf("check -v: exit %d, stdout:\n%s\nwant:\n%s", code, stdout, want)
	}
	code, _, stderr := runCLI(t, "build", "--content", content, "--out", filepath.Join(dir, "public"), "--base-url", "https://blog.example/")
	if first := want[0] + " (and 3 more in 2 files: folio check -v lists each)\n"; code != 0 || !strings.HasPrefix(stderr, first) {
		t.Errorf("build: exit %d, stderr:\n%s\nwant it to start with:\n%s", code, stderr, first)
	}
}

// TestCheckDraftSectionFiles: a link to a file of a section whose
// _index.md is a draft, or to that page, names the section, not a post
// (Hugo publishes the section's pages but not the section or its files).
func TestCheckDraftSectionFiles(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"hugo.toml":                   "baseURL = 'https://example.org/'\nuglyURLs = true\n",
		"content/posts/sub/_index.md": "---\ntitle: Sub\ndraft: true\n---\n",
		"content/posts/sub/page.md":   "---\ntitle: Page\ndate: 2024-01-02\n---\n![t](thumb.svg)\n",
		"content/posts/sub/thumb.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>\n",
		"content/posts/a.md":          "---\ntitle: A\ndate: 2024-01-02\n---\n[the section](sub/_index.md)\n\n[its URL](/posts/sub/)\n\n[ref]({{< ref \"sub/_index.md\" >}})\n",
	})
	code, stdout, _ := runCLI(t, "check", "--source", dir)
	want := filepath.Join(dir, "content/posts/a.md") + `:5: link to "sub/_index.md": the section page content/posts/sub/_index.md is not published` + "\n" +
		filepath.Join(dir, "content/posts/a.md") + `:7: link to "/posts/sub/": the section page content/posts/sub/_index.md is not published` + "\n" +
		filepath.Join(dir, "content/posts/a.md") + `:9: ref "sub/_index.md": the section page is not published` + "\n" +
		filepath.Join(dir, "content/posts/sub/page.md") + `:5: link to "thumb.svg": a file of the section content/posts/sub, whose page (_index.md) is not published, so neither is the file` + "\n" +
		"2 posts, 4 problems\n"
	if code != 1 || stdout != want {
		t.Errorf("check: exit %d, stdout:\n%s\nwant exit 1, stdout:\n%s", code, stdout, want)
	}
}

// TestCheckSaysAliasesLeftOut: check says, as build does, of an alias
// the export would write no redirect page for (its file differs only in
// case from a post's page) where it is declared and why, as a warning.
func TestCheckSaysAliasesLeftOut(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "hugo.toml", "baseURL = 'https://example.org/'\ntitle = 'Aliases'\n")
	write(t, dir, "content/posts/hello.md", "---\ntitle: Hello\ndate: 2024-01-01T00:00:00Z\naliases: [/old/hello/, /Posts/Hello/]\n---\nHi.\n")
	code, stdout, _ := runCLI(t, "check", "--source", dir)
	want := filepath.Join(dir, "content/posts/hello.md") + ":4: warning: alias /Posts/Hello/ gets no redirect page in the export (folio serve and the nginx and Cloudflare configs answer its 301; a bare static host answers 404): its file Posts/Hello/index.html and posts/hello/index.html of /posts/hello/ differ only in case\n1 post, 0 problems, 1 warning\n"
	if code != 0 || stdout != want {
		t.Errorf("check: exit %d, said\n%s\nwant exit 0 and\n%s", code, stdout, want)
	}
}

// TestCheckSaysRoutesThatShareAFile: routes whose files in the export
// would be one (a post's Markdown blog/a.md and the folder of the post
// slugged a.md) make folio build refuse the site; check says so too, at
// the file and line that set the second route's URL, and exits 1 (it
// said 0 problems, the error swallowed where the site had aliases).
func TestCheckSaysRoutesThatShareAFile(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "hugo.toml", "baseURL = 'https://example.org/'\ntitle = 'Clash'\n")
	write(t, dir, "content/posts/a.md", "---\ntitle: A\ndate: 2024-01-01T00:00:00Z\naliases: [/old/a/]\n---\nHi.\n")
	write(t, dir, "content/posts/b.md", "---\ntitle: B\ndate: 2024-01-02T00:00:00Z\nslug: a.md\n---\nHi.\n")
	code, stdout, _ := runCLI(t, "check", "--source", dir)
	want := filepath.Join(dir, "content/posts/b.md") + ":4: /posts/a.md and /posts/a.md/ cannot both be exported: posts/a.md would be a file of the first (or its .gz twin) and a folder of the second (rename a slug or the section)\n2 posts, 1 problem\n"
	if code != 1 || stdout != want {
		t.Errorf("check: exit %d, said\n%s\nwant exit 1 and\n%s", code, stdout, want)
	}
}

// TestCheckSaysWhatBuildSaysOfTheAliasTemplate: a site's alias template
// that fails is a warning at its line in folio build (which writes its
// own page at the aliases); check says the same warning, once.
func TestCheckSaysWhatBuildSaysOfTheAliasTemplate(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "hugo.toml", "baseURL = 'https://example.org/'\ntitle = 'Aliases'\n")
	write(t, dir, "content/posts/a.md", "---\ntitle: A\ndate: 2024-01-01T00:00:00Z\naliases: [/old/a/, /older/a/]\n---\nHi.\n")
	write(t, dir, "layouts/alias.html", `{{ .Title }}{{ errorf "boom" }}`)
	want := "layouts/alias.html:1: warning: boom (folio build writes its own page at this alias)"
	code, stdout, _ := runCLI(t, "check", "--source", dir)
	if code != 0 || strings.Count(stdout, "warning:") != 1 || !strings.Contains(stdout, want+"\n") || !strings.HasSuffix(stdout, "1 post, 0 problems, 1 warning\n") {
		t.Errorf("check: exit %d, said\n%s\nwant exit 0, one warning:\n%s", code, stdout, want)
	}
	code, _, stderr := runCLI(t, "build", "--source", dir, "--out", filepath.Join(t.TempDir(), "public"))
	if code != 0 || !strings.Contains(stderr, want+"\n") {
		t.Errorf("build: exit %d, said\n%s\nwant exit 0 and\n%s", code, stderr, want)
	}
}

// TestCheckSaysWhereListAndOrgAliasesAre: an alias the export leaves out
// is said at the line that declares it, for a section's _index.md too
// (it was said with no file) and for an Org post's #+ALIASES[]: line (it
// was said at line 1).
func TestCheckSaysWhereListAndOrgAliasesAre(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "hugo.toml", "baseURL = 'https://example.org/'\ntitle = 'Aliases'\n")
	write(t, dir, "content/posts/_index.md", "---\ntitle: Posts\naliases: [/Posts/, /old-posts/]\n---\n")
	write(t, dir, "content/posts/d.org", "#+TITLE: D\n#+DATE: 2024-01-01\n#+ALIASES[]: /Posts/D/\n\nText.\n")
	code, stdout, _ := runCLI(t, "check", "--source", dir)
	for _, want := range []string{
		filepath.Join(dir, "content/posts/_index.md") + ":3: warning: alias /Posts/ gets no redirect page",
		filepath.Join(dir, "content/posts/d.org") + ":3: warning: alias /Posts/D/ gets no redirect page",
	} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("check: exit %d, said\n%s\nwant exit 0 and\n%s", code, stdout, want)
		}
	}
}
