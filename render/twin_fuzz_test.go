package render

import (
	"net/url"
	"strings"
	"testing"

	"folio/pipeline"
)

// sentinel is the slug of the hidden post FuzzTwinLinks links to: a
// word no other part of the input may hold, so that finding it in the
// output means a link to the hidden post leaked.
const sentinel = "zqhiddenzq"

// twinLinkForms are the ways a post links to another, each with %s
// where the destination goes (issue 15, findings 4 and 5).
var twinLinkForms = []string{
	"[t](%s)", "[t](<%s>)", "[t](%s \"title\")", "![i](%s)",
	"[t][r]\n\n[r]: %s", "[r][]\n\n[r]: %s", "[r]\n\n[r]: %s", "Unused.\n\n[r]: %s \"T\"",
	"![i][r]\n\n[r]: %s", "<%s>", "See %s now.", "[![i](pic.png)](%s)",
	"<a href=\"%s\">t</a>", "<div>\n<a href='%s'>t</a>\n</div>",
	"> [t](%s)", "- [t][r]\n\n  [r]: %s",
	"<a href=%s>t</a>", "<img src=\"%s\" alt=\"i\">", "<p>\n<img srcset=\"/x.png 1x, %s 2x\">\n</p>",
	"> <a\nhref=\"%s\">t</a>",
}

// twinSpellings are the spellings of the hidden post's URL the server
// answers (or that name its bundle's files).
var twinSpellings = []string{
	"../%s/", "/blog/%s/", "/blog/%s.md", "%s.md", "https://example.org/blog/%s/", "http://EXAMPLE.org/blog/%s/",
	"//example.org/blog/%s/", "/blog//%s/", "/BLOG/%s/", "/blog/./%s/", "/blog/x/../%s/", "../%s/pic.png",
	"https://example.org/blog/%s/#frag", "/blog/%s/?q=1",
}

// FuzzTwinLinks renders a post linking to a hidden post in every form
// and spelling, between text the fuzzer makes: neither the HTML nor the
// Markdown alternate may hold the hidden post's slug, in any case or
// percent-encoding, and nothing panics. Raw HTML is off, as by default,
// unless form's high bit is set (markup.goldmark.renderer.unsafe).
//
//	go test ./render -run '^$' -fuzz '^FuzzTwinLinks$' -fuzztime 1m
func FuzzTwinLinks(f *testing.F) {
	for i := range twinLinkForms {
		for j := range twinSpellings {
			f.Add(uint8(i), uint8(j), "Before ", " after.", false)
			f.Add(uint8(i)|0x80, uint8(j), "Before ", " after.", j%2 == 0)
		}
	}
	f.Add(uint8(4), uint8(1), "*a* [", "](x)\n\n> q", true)
	posts, res := testSite(f, map[string]string{
		"blog/" + sentinel + ".md":        "---\ntitle: H\ndate: 2024-01-01\ndraft: true\n---\nx\n",
		"blog/" + sentinel + "b/index.md": "---\ntitle: H\ndate: 2024-01-01\ndraft: true\n---\nx\n",
		"blog/" + sentinel + "b/pic.png":  "png",
		"blog/fuzz.md":                    "---\ntitle: F\ndate: 2024-01-01\n---\nx\n",
	})
	host := posts["blog/fuzz.md"]
	safe := New(Options{BaseURL: testBase, Section: "blog"})
	unsafe := New(Options{BaseURL: testBase, Section: "blog", Unsafe: true})
	f.Fuzz(func(t *testing.T, form, spelling uint8, before, after string, bundle bool) {
		// Text that would turn the link into code or HTML (a fence, an
		// indented block, a comment) leaves it literal text, the
		// author's own, and is not what this target checks.
		if strings.Contains(strings.ToLower(before+after), "zqhidden") || strings.ContainsAny(before+after, "%`~<>[]\\\t") || strings.Contains(before+after, "   ") {
			t.Skip()
		}
		slug := sentinel
		if bundle {
			slug += "b"
		}
		r := safe
		if form&0x80 != 0 {
			r = unsafe
		}
		spell, shape := twinSpellings[int(spelling)%len(twinSpellings)], twinLinkForms[int(form&0x7f)%len(twinLinkForms)]
		if strings.Contains(shape, "=%s>") && strings.ContainsAny(spell, "?#") {
			spell = "../%s/" // an unquoted value ends at white space, not "?"
		}
		if (shape == "<%s>" || shape == "See %s now.") && !strings.HasPrefix(spell, "http") {
			// Only an absolute URL is an autolink; the rest is text.
			spell = "https://example.org/blog/%s/"
		}
		dest := strings.ReplaceAll(spell, "%s", slug)
		body := before + "\n\n" + strings.ReplaceAll(shape, "%s", dest) + "\n\n" + after + "\n"
		p := *host
		p.Body = []pipeline.Node{{Kind: pipeline.TextNode, Text: body, Line: 5}}
		out := r.Render(&p, res)
		for what, s := range map[string]string{"HTML": string(out.HTML), "Markdown": out.Markdown} {
			plain, err := url.PathUnescape(s)
			if err != nil {
				plain = s
			}
			if strings.Contains(strings.ToLower(plain), "zqhidden") {
				t.Fatalf("%s of %q names the hidden post:\n%s", what, body, s)
			}
		}
		for _, is := range out.Issues {
			if strings.Contains(is.Message, "panic") {
				t.Fatalf("%q: %s", body, is.Message)
			}
		}
	})
}
