package render

import (
	"strings"
	"testing"

	"folio/pipeline"
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

// TestHiddenRawHTML (issue 15, finding 5): with raw HTML on
// (markup.goldmark.renderer.unsafe), a URL attribute of a tag naming an
// unpublished post (href, src, srcset, in any quoting, with character
// references, across lines, in a block quote) is cut from the page and
// the Markdown alternate and reported, as a Markdown link is; other
// attributes, other URLs and the text of scripts are left as written. An
// image whose src is a hidden post's page is dropped too.
func TestHiddenRawHTML(t *testing.T) {
	unsafe := Options{BaseURL: testBase, Section: "blog", Unsafe: true}
	for _, tc := range []struct {
		body, html, md string
		issues         int
	}{
		{"<a href=\"/blog/draft/\">t</a>\n", "<p><a>t</a></p>\n", "<a>t</a>\n", 1},
		{"<a class=x href='../draft/' title=y>t</a>\n", "<p><a class=x title=y>t</a></p>\n", "<a class=x title=y>t</a>\n", 1},
		{"<a href=/blog/draft/>t</a>\n", "<p><a>t</a></p>\n", "<a>t</a>\n", 1},
		{"<a HREF=\"&#x2F;blog&#x2F;dr&#97;ft&#x2F;\">t</a>\n", "<p><a>t</a></p>\n", "<a>t</a>\n", 1},
		{"x <a\nhref=\"https://example.org/blog/draft/\">t</a>\n", "<p>x <a>t</a></p>\n", "x <a>t</a>\n", 1},
		{"<div><a href=\"../draft/\">t</a></div>\n\nAfter.\n", "<div><a>t</a></div>\n<p>After.</p>\n", "<div><a>t</a></div>\n\nAfter.\n", 1},
		{"> <div>\n> <img src=\"/blog/draft/\" alt=\"i\">\n> </div>\n", "<blockquote>\n<div>\n<img alt=\"i\">\n</div>\n</blockquote>\n", "> <div>\n> <img alt=\"i\">\n> </div>\n", 1},
		{"<img srcset=\"/x.png 1x, /blog/draft/ 2x\" src=\"/x.png\">\n", "<img src=\"/x.png\">\n", "<img src=\"/x.png\">\n", 1},
		{"<a href=\"../other/\" data-x=\"/blog/draft/\">ok</a>\n", "<p><a href=\"../other/\" data-x=\"/blog/draft/\">ok</a></p>\n", "<a href=\"../other/\" data-x=\"/blog/draft/\">ok</a>\n", 0},
		{"<!-- <a href=\"/blog/draft/\"> -->\n", "<!-- <a href=\"/blog/draft/\"> -->\n", "<!-- <a href=\"/blog/draft/\"> -->\n", 0},
		{"<script>var a = '<a href=\"/blog/draft/\">';</script>\n", "<script>var a = '<a href=\"/blog/draft/\">';</script>\n", "<script>var a = '<a href=\"/blog/draft/\">';</script>\n", 0},
		{"![i](/blog/draft/)\n", "<p>i</p>\n", "i\n", 1},
		{"![i](https://example.org/blog/draft)\n", "<p>i</p>\n", "i\n", 1},
		{"![i](/blog/other/)\n", "<p><img src=\"https://example.org/blog/other/\" alt=\"i\"></p>\n", "![i](https://example.org/blog/other/)\n", 0},
	} {
		r := renderBody(t, tc.body, unsafe)
		if string(r.HTML) != tc.html || r.Markdown != tc.md {
			t.Errorf("%q:\nHTML %q\nwant %q\nMarkdown %q\nwant     %q", tc.body, r.HTML, tc.html, r.Markdown, tc.md)
		}
		if len(r.Issues) != tc.issues {
			t.Errorf("%q: issues %v, want %d", tc.body, r.Issues, tc.issues)
		}
		if tc.issues > 0 && len(r.Issues) > 0 && (r.Issues[0].Line != 5 && r.Issues[0].Line != 6) {
			t.Errorf("%q: issue on line %d", tc.body, r.Issues[0].Line)
		}
	}
}

// TestBundleContentFileLinks (issue 15, finding 6): a bundle's content
// files are not published, so a link to one goes nowhere: its own
// bundle's is left out with a warning (Hugo accepts it and publishes a
// dead link), a hidden bundle's with a problem, like a link to the post.
func TestBundleContentFileLinks(t *testing.T) {
	posts, res := testSite(t, map[string]string{
		"blog/pack/index.md":    "---\ntitle: Pack\ndate: 2024-01-01\n---\nSee [notes](notes.md), [deep](sub/deep.md), ![n](notes.md) and [the photo](photo.png).\n",
		"blog/pack/notes.md":    "---\ntitle: Notes\ndraft: true\n---\nx\n",
		"blog/pack/sub/deep.md": "x\n",
		"blog/pack/photo.png":   "png",
		"blog/hid/index.md":     "---\ntitle: Hid\ndate: 2024-01-01\ndraft: true\n---\nx\n",
		"blog/hid/notes.md":     "x\n",
		"blog/linker.md":        "---\ntitle: L\ndate: 2024-01-01\n---\nSee [n](hid/notes.md) and [p](pack/notes.md).\n",
	})
	r := New(Options{BaseURL: testBase, Section: "blog"})
	pack := r.Render(posts["blog/pack/index.md"], res)
	if want := `<p>See notes, deep, n and <a href="https://example.org/blog/pack/photo.png">the photo</a>.</p>` + "\n"; string(pack.HTML) != want {
		t.Errorf("HTML %q, want %q", pack.HTML, want)
	}
	var warnings int
	for _, is := range pack.Issues {
		if is.Severity == pipeline.Warning && strings.Contains(is.Message, "not published (Hugo makes it a page resource)") {
			warnings++
		} else {
			t.Errorf("issue %v", is)
		}
	}
	if warnings != 3 {
		t.Errorf("%d warnings, want 3: %v", warnings, pack.Issues)
	}
	linker := r.Render(posts["blog/linker.md"], res)
	if strings.Contains(string(linker.HTML)+linker.Markdown, "notes") {
		t.Errorf("a link to a bundle's content file kept: %q", linker.HTML)
	}
	if len(linker.Issues) != 2 || linker.Issues[0].Severity == pipeline.Warning || linker.Issues[1].Severity != pipeline.Warning {
		t.Errorf("issues %v, want a problem for the hidden bundle's file and a warning", linker.Issues)
	}
}
