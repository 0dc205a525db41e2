package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"folio/internal/hugotest"
	"folio/pipeline"
)

// TestLinksToHiddenContent: whatever form a link to an unpublished post
// or a file of its bundle takes (relative, absolute on the site's host,
// http or https, an image), it is rendered as its text alone, in the HTML
// and in the Markdown alternate, and reported; links to published posts,
// their bundle files and other sites are kept.
func TestLinksToHiddenContent(t *testing.T) {
	extra := map[string]string{
		"blog/hidden/index.md":   "---\ntitle: Hidden\ndraft: true\ndate: 2024-01-01\n---\nx\n",
		"blog/hidden/secret.txt": "secret",
	}
	for _, tc := range []struct {
		name, body string
		dropped    bool
		text       string // what stays of a dropped link
	}{
		{"absolute https", "[the draft](https://example.org/blog/draft/)", true, "the draft"},
		{"absolute http", "[the draft](http://example.org/blog/future/)", true, "the draft"},
		{"absolute Markdown URL", "[md](https://EXAMPLE.org/blog/draft.md)", true, "md"},
		{"hidden bundle file", "[file](../hidden/secret.txt)", true, "file"},
		{"hidden bundle file, absolute", "[file](https://example.org/blog/hidden/secret.txt)", true, "file"},
		{"hidden bundle image", "![a secret](/blog/hidden/secret.txt)", true, "a secret"},
		{"hidden bundle file, deeper", "[file](../hidden/sub/dir/secret.txt)", true, "file"},
		{"missing post's file", "[gone](../no-such-post/file.txt)", true, "gone"},
		{"published bundle file", "[photo](../trip/photo.jpg)", false, ""},
		{"published bundle image", "![photo](../trip/photo.jpg)", false, ""},
		{"published post, absolute", "[other](https://example.org/blog/other/)", false, ""},
		{"other site", "[go](https://go.dev/blog/draft/)", false, ""},
		{"own file", "![mine](pic.png)", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, res := testSite(t, extra)
			all, _ := testSite(t, mergeMaps(extra, map[string]string{"blog/x.md": "---\ntitle: X\ndate: 2024-01-01\n---\n" + tc.body + "\n"}))
			r := New(Options{BaseURL: testBase, Section: "blog"}).Render(all["blog/x.md"], res)
			html, md := string(r.HTML), r.Markdown
			hasLink := strings.Contains(html, "href=") || strings.Contains(html, "src=") || strings.Contains(md, "](")
			if tc.dropped {
				if hasLink || strings.Contains(html, "hidden/") || strings.Contains(md, "hidden/") || strings.Contains(html, "blog/draft") {
					t.Errorf("link kept:\nHTML %s\nMarkdown %s", html, md)
				}
				if !strings.Contains(html, tc.text) || strings.TrimSpace(md) != tc.text {
					t.Errorf("text %q not kept alone:\nHTML %s\nMarkdown %q", tc.text, html, md)
				}
				if len(r.Issues) == 0 {
					t.Errorf("no issue reported")
				}
				return
			}
			if !hasLink || len(r.Issues) != 0 {
				t.Errorf("link lost or reported (issues %v):\nHTML %s\nMarkdown %s", r.Issues, html, md)
			}
		})
	}
}

func mergeMaps(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// TestNestedHiddenBundle: in a Hugo site whose bundles sit in folders
// below the posts section (the nested oracle suite), a link into a
// draft's bundle, relative or from the root, is dropped and reported as
// it is in a flat section; the draft's slug is nowhere in the page.
func TestNestedHiddenBundle(t *testing.T) {
	dir := hugotest.CopySite(t, filepath.Join(siteSuiteDir("nested"), "site"))
	for name, text := range map[string]string{
		"content/posts/2025/secret/index.md": "---\ntitle: Secret\ndate: 2025-03-03\ndraft: true\n---\nx\n",
		"content/posts/2025/secret/plan.txt": "plan",
		"content/posts/2025/links/index.md":  "---\ntitle: Links\ndate: 2025-03-04\n---\n[a](../secret/plan.txt) [b](/posts/2025/secret/plan.txt) ![c](../secret/img/x.png)\n",
	} {
		file := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	snap := loadSiteSuite(t, dir)
	r, res := ForSnapshot(snap)
	var links *pipeline.Post
	for _, p := range snap.Posts() {
		if p.Title == "Links" {
			links = p
		}
	}
	if links == nil {
		t.Fatal("the links post is not published")
	}
	got := r.Render(links, res)
	if html := string(got.HTML); strings.Contains(html, "secret") || strings.Contains(got.Markdown, "secret") {
		t.Errorf("a link into the draft's bundle kept:\nHTML %s\nMarkdown %s", html, got.Markdown)
	}
	if len(got.Issues) != 3 {
		t.Errorf("issues %v, want 3 (each link, not published)", got.Issues)
	}
	for _, is := range got.Issues {
		if !strings.Contains(is.Message, "the post is not published") || is.Severity == pipeline.Warning {
			t.Errorf("issue %+v, want an error: the post is not published", is)
		}
	}
}
