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
	dense := "Intro.\n\n" + strings.Repeat("*a", maxParagraphMarkup) + "\n\nOutro.\n"
	for _, tc := range []struct {
		name, in string
		want     string // the pieces, plain ones in «»; "" for no change
		visible  bool
	}{
		{"plain text is kept", "Some *text* with [a link](x.md) and > quotes.\n\n- a\n- b\n", "", false},
		{"deep quotes are capped", deep, strings.Repeat("> ", maxNesting) + `\> > > > > > x` + "\n", true},
		{"deep list markers are capped", strings.Repeat("- ", 70) + "x\n", strings.Repeat("- ", maxNesting) + `\- - - - - - x` + "\n", true},
		{"deep ordered markers are capped", strings.Repeat("1. ", 66) + "x\n", strings.Repeat("1. ", maxNesting) + `1\. 1. x` + "\n", true},
		{"indentation is capped", strings.Repeat(" ", 1000) + "x\n", strings.Repeat(" ", maxIndent) + "x\n", true},
		{"runaway brackets are plain", "a\n\n" + strings.Repeat("[", 300) + "\n", "a\n\n«" + strings.Repeat("[", 300) + "\n»", true},
		{"runaway link openers are plain", strings.Repeat("[a](", 5000) + "\n", "«" + strings.Repeat("[a](", 5000) + "\n»", true},
		{"dense paragraphs are plain", dense, "Intro.\n\n«" + strings.Repeat("*a", maxParagraphMarkup) + "\n»\nOutro.\n", true},
		{"reference definitions get blank lines", refs, strings.Replace(strings.Replace(refs, "[r128]", "\n[r128]", 1), "[r256]", "\n[r256]", 1), false},
		{"an HTML block's lines are raw", "Intro.\n\n<table>\n" + strings.Repeat("*a", maxParagraphMarkup) + "\n</table>\n\nOutro.\n", "", false},
		{"so is a closing block tag's", "Intro.\n\n</DIV >\n" + strings.Repeat("*a", maxParagraphMarkup) + "\n", "", false},
		{"an inline tag is not a block", "Intro.\n\n<span>\n" + strings.Repeat("*a", maxParagraphMarkup) + "\n", "Intro.\n\n«<span>\n" + strings.Repeat("*a", maxParagraphMarkup) + "\n»", true},
		{"nor an indented one (a list item's, maybe)", "Intro.\n\n  <div>\n" + strings.Repeat("*a", maxParagraphMarkup) + "\n", "Intro.\n\n«  <div>\n" + strings.Repeat("*a", maxParagraphMarkup) + "\n»", true},
		{"nor one at the text's start (after a shortcode, maybe)", "<div>\n" + strings.Repeat("*a", maxParagraphMarkup) + "\n", "«<div>\n" + strings.Repeat("*a", maxParagraphMarkup) + "\n»", true},
		{"fenced code is left alone", "```\n" + deep + strings.Repeat("[", 300) + "\n```\n", "", false},
	} {
		budget := maxPostMarkup
		pieces, shown := defuse(tc.in, &budget, nil)
		visible := shown >= 0
		if got := joinPieces(pieces); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
		if visible != tc.visible {
			t.Errorf("%s: visible %v, want %v", tc.name, visible, tc.visible)
		}
	}

	// The post's budget runs out across paragraphs and texts.
	budget := blockCost + 3 // "*a*" and its line
	pieces, _ := defuse("*a*\n\n*b*\n\n*c*\n", &budget, nil)
	if got := joinPieces(pieces); got != "*a*\n\n«*b*\n\n*c*\n»" {
		t.Errorf("budget: got %q", got) // the rest is one piece, not one per paragraph
	}
	if pieces, _ := defuse("# d\n\ne\n", &budget, nil); joinPieces(pieces) != "«# d\n\ne\n»" {
		t.Errorf("spent budget: got %q", joinPieces(pieces))
	}
}

func joinPieces(pieces []piece) string {
	var b strings.Builder
	for _, p := range pieces {
		if p.plain {
			b.WriteString("«" + p.text + "»")
		} else {
			b.WriteString(p.text)
		}
	}
	return b.String()
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
	"html block":         func(n int) string { return "x\n\n<div>\n" + strings.Repeat("*a", n/2) + "\n" },
	"code":               func(n int) string { return "```go\n" + strings.Repeat("x := \"a\" + `b`\n", n/16) + "```\n" },
	// With extensionsMarkup.
	"unclosed passthrough": func(n int) string { return strings.Repeat(`\( a `, n/12) + "\n" + strings.Repeat(`@( b`, n/8) },
	"dollar runs":          func(n int) string { return strings.Repeat("$a", n/2) },
	"extras runs":          func(n int) string { return strings.Repeat("^a==b++c~d", n/10) },
}

// extensionsMarkup turns on every extension Hugo has, with the math
// delimiters and one custom pair, for the pathological shapes.
func extensionsMarkup() *Markup {
	m := mathMarkup()
	m.Passthrough.Inline = append(m.Passthrough.Inline, [2]string{"@(", ")@"})
	m.Extras = Extras{Delete: true, Insert: true, Mark: true, Subscript: true, Superscript: true}
	m.CJK = CJK{Enable: true, EastAsianLineBreaks: true, Style: "css3draft", EscapedSpace: true}
	return m
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

// TestPathological renders each shape at 64 KB, with every extension on: it must finish (go test's
// timeout is the bound) without an internal error.
func TestPathological(t *testing.T) {
	r := New(Options{BaseURL: testBase, Section: "blog", Markup: extensionsMarkup()})
	for name, gen := range pathological {
		p := &pipeline.Post{File: "blog/x.md", Slug: "x", PageMeta: &pipeline.PageMeta{}, Body: []pipeline.Node{{Kind: pipeline.TextNode, Text: gen(64 << 10), Line: 1}}}
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
	r := New(Options{BaseURL: testBase, Section: "blog", Markup: extensionsMarkup()})
	for name, gen := range pathological {
		for _, size := range []int{1 << 20, 2 << 20} {
			p := &pipeline.Post{File: "blog/x.md", Slug: "x", PageMeta: &pipeline.PageMeta{}, Body: []pipeline.Node{{Kind: pipeline.TextNode, Text: gen(size), Line: 1}}}
			b.Run(fmt.Sprintf("%s/%dMB", strings.ReplaceAll(name, " ", "_"), size>>20), func(b *testing.B) {
				for b.Loop() {
					r.Render(p, nil)
				}
			})
		}
	}
}

// TestPlainParagraph: a paragraph too dense for goldmark shows as escaped
// text in the HTML and as written in the Markdown, and the lines after it
// keep their numbers.
func TestPlainParagraph(t *testing.T) {
	dense := strings.Repeat("*<a>", maxParagraphMarkup/2)
	r := renderBody(t, "Intro.\n\n"+dense+"\n\nA [hidden](draft.md) link.\n")
	if !strings.Contains(string(r.HTML), "<p>"+strings.Repeat("*&lt;a&gt;", 3)) {
		t.Errorf("dense paragraph not escaped: %.200s", r.HTML)
	}
	if !strings.Contains(r.Markdown, "Intro.\n\n"+dense+"\n\nA hidden link.\n") {
		t.Errorf("Markdown changed: %.200q", r.Markdown)
	}
	want := "7: Markdown too deeply nested or too dense to render; part of it is shown as plain text\n" +
		"9: link to \"draft.md\": the post is not published\n"
	if got := issueText(r.Issues); got != want {
		t.Errorf("issues:\n%s\nwant:\n%s", got, want)
	}
	// Hugo renders the paragraph (goldmark has no bound): a warning,
	// which leaves check at exit 0 and the site built (CONTRACT,
	// "Problems and warnings").
	if len(r.Issues) > 0 && r.Issues[0].Severity != pipeline.Warning {
		t.Errorf("the dense paragraph's issue is a problem, want a warning")
	}
}
