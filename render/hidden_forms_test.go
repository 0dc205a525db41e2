package render

import (
	"strings"
	"testing"
)

// TestHiddenLinkForms (issue 15, findings 4 and 5): every form of link
// to an unpublished post leaves neither the HTML nor the Markdown
// alternate holding its URL or slug: reference definitions (full,
// collapsed, shortcut, unused, an image into a draft bundle), autolinks
// and bare URLs, "//" and upper-case spellings the server answers, and
// raw HTML, which the HTML omits while raw HTML is off. Each link a
// reader would have seen is reported.
func TestHiddenLinkForms(t *testing.T) {
	for _, tc := range []struct {
		body, html, md string
		issues         int
	}{
		{"[t][r]\n\n[r]: ../draft/\n", "<p>t</p>\n", "t\n", 1},
		{"[r][]\n\n[r]: ../draft/\n", "<p>r</p>\n", "r\n", 1},
		{"[r]\n\n[r]: ../draft/\n", "<p>r</p>\n", "r\n", 1},
		{"Unused.\n\n[r]: ../draft/\n[s]: /blog/draft.md \"T\"\n", "<p>Unused.</p>\n", "Unused.\n", 0},
		{"![img][i]\n\n[i]: ../draft/pic.png\n", "<p>img</p>\n", "img\n", 1},
		{"[ok][o]\n\n[o]: ../other/\n[d]: ../draft/\n", `<p><a href="https://example.org/blog/other/">ok</a></p>` + "\n", "[ok][o]\n\n[o]: https://example.org/blog/other/\n", 0},
		{"<https://example.org/blog/draft/>\n", "<p></p>\n", "", 1},
		{"See https://example.org/blog/draft/ now.\n", "<p>See  now.</p>\n", "See  now.\n", 1},
		{"[t](//example.org/blog/draft/)\n", "<p>t</p>\n", "t\n", 1},
		{"[t](/blog//draft/)\n", "<p>t</p>\n", "t\n", 1},
		{"[t](/BLOG/draft/)\n", "<p>t</p>\n", "t\n", 1},
		{"[t](HTTPS://EXAMPLE.ORG/Blog/draft/)\n", "<p>t</p>\n", "t\n", 1},
		{"<a href=\"/blog/draft/\">t</a>\n", "<p><!-- raw HTML omitted -->t<!-- raw HTML omitted --></p>\n", "t\n", 0},
		{"<div><a href=\"../draft/\">t</a></div>\n\nAfter.\n", "<!-- raw HTML omitted -->\n<p>After.</p>\n", "After.\n", 0},
		{"See <https://example.org/blog/other/>.\n", `<p>See <a href="https://example.org/blog/other/">https://example.org/blog/other/</a>.</p>` + "\n", "See <https://example.org/blog/other/>.\n", 0},
	} {
		r := renderBody(t, tc.body)
		if string(r.HTML) != tc.html || r.Markdown != tc.md {
			t.Errorf("%q:\nHTML %q\nwant %q\nMarkdown %q\nwant     %q", tc.body, r.HTML, tc.html, r.Markdown, tc.md)
		}
		if len(r.Issues) != tc.issues {
			t.Errorf("%q: issues %v, want %d", tc.body, r.Issues, tc.issues)
		}
		for _, out := range []string{string(r.HTML), r.Markdown} {
			if strings.Contains(strings.ToLower(out), "draft") {
				t.Errorf("%q: %q names the draft", tc.body, out)
			}
		}
	}
}
