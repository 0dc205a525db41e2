package render

import (
	"strings"
	"testing"
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
