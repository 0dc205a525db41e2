package render

import (
	"fmt"
	"strings"
	"testing"

	"folio/pipeline"
)

func TestDefuse(t *testing.T) {
	deep := strings.Repeat("> ", 70) + "x\n"
	refs := ""
	for i := range 2*maxRefDefs + 1 {
		refs += fmt.Sprintf("[r%d]: /x\n", i)
	}
	links := strings.Repeat("[a](", 5000) + "\n"
	for _, tc := range []struct {
		name, in string
		want     func(string) bool
		visible  bool
	}{
		{"plain text is kept", "Some *text* with [a link](x.md) and > quotes.\n\n- a\n- b\n", nil, false},
		{"deep quotes are capped", deep, func(out string) bool {
			return strings.HasPrefix(out, strings.Repeat("> ", maxNesting)+`\>`)
		}, true},
		{"deep list markers are capped", strings.Repeat("- ", 70) + "x\n", func(out string) bool {
			return strings.HasPrefix(out, strings.Repeat("- ", maxNesting)+`\-`)
		}, true},
		{"deep ordered markers are capped", strings.Repeat("1. ", 70) + "x\n", func(out string) bool {
			return strings.HasPrefix(out, strings.Repeat("1. ", maxNesting)+`1\.`)
		}, true},
		{"indentation is capped", strings.Repeat(" ", 1000) + "x\n" + strings.Repeat("-", 70) + "\n", func(out string) bool {
			return strings.HasPrefix(out, strings.Repeat(" ", maxIndent)+"x\n")
		}, true},
		{"runaway brackets are text", strings.Repeat("[", 300) + "x" + strings.Repeat("]", 300) + "\n", func(out string) bool {
			return strings.HasPrefix(out, `\[\[`) && strings.HasSuffix(out, `\]`+"\n")
		}, true},
		{"runaway link openers are text", links, func(out string) bool {
			return strings.Count(out, `]\(`) == 5000
		}, true},
		{"reference definitions get blank lines", refs, func(out string) bool {
			return strings.Count(out, "\n\n") == 2 && strings.Count(out, "]:") == 2*maxRefDefs+1
		}, false},
		{"fenced code is left alone", "```\n" + deep + "```\n", nil, false},
	} {
		out, visible := defuse(tc.in)
		if tc.want == nil && out != tc.in {
			t.Errorf("%s: changed to %q", tc.name, out)
		}
		if tc.want != nil && !tc.want(out) {
			t.Errorf("%s: got %q", tc.name, out)
		}
		if visible != tc.visible {
			t.Errorf("%s: visible %v, want %v", tc.name, visible, tc.visible)
		}
	}
}

// pathological are the shapes of input goldmark is slow on, by size.
var pathological = map[string]func(n int) string{
	"one long line":      func(n int) string { return strings.Repeat("word ", n/5) },
	"nested quotes":      func(n int) string { return strings.Repeat(">", n) + " x" },
	"nested lists":       func(n int) string { return strings.Repeat("- ", n/2) + "x" },
	"indented lists":     func(n int) string { return indented(n) },
	"star runs":          func(n int) string { return strings.Repeat("*a", n/2) },
	"underscore runs":    func(n int) string { return strings.Repeat("_a ", n/3) },
	"open brackets":      func(n int) string { return strings.Repeat("[", n) },
	"nested brackets":    func(n int) string { return strings.Repeat("[", n/2) + strings.Repeat("]", n/2) },
	"link openers":       func(n int) string { return strings.Repeat("[a](", n/4) },
	"image openers":      func(n int) string { return strings.Repeat("![", n/2) },
	"backtick runs":      func(n int) string { return backticks(n) },
	"angle brackets":     func(n int) string { return strings.Repeat("<a ", n/3) },
	"table columns":      func(n int) string { return strings.Repeat("|a", n/4) + "\n" + strings.Repeat("|-", n/4) + "\n" },
	"footnote refs":      func(n int) string { return strings.Repeat("[^1]", n/4) + "\n\n[^1]: x\n" },
	"equal headings":     func(n int) string { return strings.Repeat("## a\n\n", n/6) },
	"reference defs":     func(n int) string { return refDefs(n) },
	"reference links":    func(n int) string { return "[r]: other.md\n\n" + strings.Repeat("[a][r] ", n/7) },
	"e-mail like runs":   func(n int) string { return strings.Repeat("a.b_c*", n/6) + "@x" },
	"linkify candidates": func(n int) string { return strings.Repeat("www.a.b a@b.c ", n/14) },
	"code":               func(n int) string { return "```go\n" + strings.Repeat("x := \"a\" + `b`\n", n/16) + "```\n" },
}

func indented(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(strings.Repeat("  ", i))
		b.WriteString("- x\n")
	}
	return b.String()
}

func backticks(n int) string {
	var b strings.Builder
	for i := 1; b.Len() < n; i++ {
		b.WriteString(strings.Repeat("`", i%200))
		b.WriteString("a")
	}
	return b.String()
}

func refDefs(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "[r%d]: /x%d\n", i, i)
	}
	return b.String() + "[r1]\n"
}

// TestPathological renders each shape at 64 KB: it must finish (go test's
// timeout is the bound) without an internal error.
func TestPathological(t *testing.T) {
	r := New(Options{BaseURL: testBase, Section: "blog"})
	for name, gen := range pathological {
		p := &pipeline.Post{File: "blog/x.md", Slug: "x", Body: []pipeline.Node{{Kind: pipeline.TextNode, Text: gen(64 << 10), Line: 1}}}
		out := r.Render(p, nil)
		if out.HTML == "" {
			t.Errorf("%s: no HTML", name)
		}
		for _, is := range out.Issues {
			if strings.Contains(is.Message, "internal error") {
				t.Errorf("%s: %v", name, is)
			}
		}
	}
}

// BenchmarkPathological measures each shape at 1 MB and 2 MB: the time
// per op should double, not quadruple, from one to the other.
//
//	go test ./render -run '^$' -bench Pathological -benchtime 1x
func BenchmarkPathological(b *testing.B) {
	r := New(Options{BaseURL: testBase, Section: "blog"})
	for name, gen := range pathological {
		for _, size := range []int{1 << 20, 2 << 20} {
			p := &pipeline.Post{File: "blog/x.md", Slug: "x", Body: []pipeline.Node{{Kind: pipeline.TextNode, Text: gen(size), Line: 1}}}
			b.Run(fmt.Sprintf("%s/%dMB", strings.ReplaceAll(name, " ", "_"), size>>20), func(b *testing.B) {
				for b.Loop() {
					r.Render(p, nil)
				}
			})
		}
	}
}
