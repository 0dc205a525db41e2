package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"
	"unicode/utf8"

	"folio/pipeline"
)

// FuzzRender feeds bodies through the real pipeline and the renderer:
//
//	go test ./render -run '^$' -fuzz FuzzRender -fuzztime 60s
//
// Render must not fail (a recovered panic shows as an "internal error"
// issue), must not leak placeholders or shortcode syntax, and must keep
// valid UTF-8 valid.
func FuzzRender(f *testing.F) {
	for _, seed := range []string{
		"# Écriture 日本語\n\nText *em* **strong** `code` [link](other.md) ![img](a.png)\n",
		"A [hidden](draft.md) and a [ref]({{< ref \"other.md\" >}}).\n\n<!--more-->\n\nAfter.\n",
		"{{< figure src=\"a.png\" caption=\"*c* [l](other.md)\" >}}\n\n{{< youtube x >}}\n",
		"{{< highlight go >}}\nfunc f() {}\n{{< /highlight >}}\n\n```go\nx := `y`\n```\n",
		"{{% unknown %}}\n- a\n- b\n{{% /unknown %}}\n",
		"| a | b |\n|---|:-:|\n| 1 | 2 |\n\nterm\n: def\n\n- [ ] task\n\nfoot[^1]\n\n[^1]: note\n",
		"> > > - - 1. deep\n>\n> quote [x][r]\n\n[r]: ../other/ \"t\"\n",
		"<div>raw</div>\n\n<span>inline</span> &copy; www.example.org a@b.co\n",
		"text <!--more--> inside\r\nCRLF\r\n",
		"[a](<b c>) [d](e \"f\" ) [g]( h ) [i]\n\n[i]: j\n",
		"FOLIOSC0E FOLIOSCX1E {{< ref \"FOLIOSC\" >}}\n",
		strings.Repeat("*a", 50) + strings.Repeat("[", 50) + strings.Repeat(">", 80) + "\n",
		"Math $a_1$ \\(b\\) @(c)@ text $$d$$ more\n\n\\[\ne < f\n\\]\n\n- $$g$$ h\n\n> $$\n> i\n> $$\n",
		"H~2~O x^2^ ==m== ++i++ ~~d~~ 日本語の\n文章 **太字**\\ です $x {{< ref \"other.md\" >}}$ <!--more--> $$y$$\n",
		"| $a|b$ | c |\n|---|---|\n| \\(x\\) | $$y$$ |\n",
	} {
		f.Add(seed)
	}
	// The golden inputs are seeds too.
	files, _ := filepath.Glob(filepath.Join("testdata", "content", "blog", "*.md"))
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			if _, body, ok := strings.Cut(string(data), "\n---\n"); ok {
				f.Add(body)
			}
		}
	}
	cfg := pipeline.DefaultConfig()
	cfg.BaseURL = testBase
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	fixtures := fstest.MapFS{
		"blog/other.md": {Data: []byte("---\ntitle: O\ndate: 2024-01-01\n---\nx\n")},
		"blog/draft.md": {Data: []byte("---\ntitle: D\ndate: 2024-01-01\ndraft: true\n---\nx\n")},
	}
	// Hugo's defaults, and every extension on (extensionsMarkup).
	renderers := []*Renderer{New(Options{BaseURL: testBase, Section: "blog"}), New(Options{BaseURL: testBase, Section: "blog", Markup: extensionsMarkup()})}
	f.Fuzz(func(t *testing.T, body string) {
		fsys := fstest.MapFS{"blog/x.md": {Data: []byte("---\ntitle: X\ndate: 2024-01-01\n---\n" + body)}}
		for k, v := range fixtures {
			fsys[k] = v
		}
		s, err := pipeline.Build(fsys, cfg, pipeline.Options{Drafts: true}, now)
		if err != nil {
			t.Fatal(err)
		}
		var p *pipeline.Post
		for _, q := range s.Posts() {
			if q.File == "blog/x.md" {
				p = q
			}
		}
		if p == nil {
			return // the pipeline rejected the file
		}
		res := NewIndex(s.Posts(), func(q *pipeline.Post) bool { return q.Published(now) })
		for _, r := range renderers {
			checkRendered(t, p, body, r.Render(p, res))
		}
	})
}

// checkRendered checks what FuzzRender asks of every rendering.
func checkRendered(t *testing.T, p *pipeline.Post, body string, out Result) {
	t.Helper()
	for _, is := range out.Issues {
		if strings.Contains(is.Message, "internal error") {
			t.Fatalf("%s", is.Message)
		}
		if is.Line < 1 {
			t.Fatalf("issue without a line: %v", is)
		}
	}
	prefix := string(placeholderPrefix(p.Body))
	if strings.Contains(string(out.HTML), prefix) || strings.Contains(out.Markdown, prefix) {
		t.Fatalf("placeholder leaked:\nHTML %q\nMarkdown %q", out.HTML, out.Markdown)
	}
	if !strings.HasPrefix(string(out.HTML), string(out.Summary)) {
		t.Fatalf("summary %q is not a prefix of the HTML %q", out.Summary, out.HTML)
	}
	textHas := false
	walkStrings(p.Body, func(s string) { textHas = textHas || strings.Contains(s, "{{") })
	if !textHas && strings.Contains(out.Markdown, "{{<") {
		t.Fatalf("shortcode leaked into the Markdown %q", out.Markdown)
	}
	if utf8.ValidString(body) && (!utf8.ValidString(string(out.HTML)) || !utf8.ValidString(out.Markdown)) {
		t.Fatalf("invalid UTF-8 out of valid input")
	}
}

// FuzzRenderOrg is FuzzRender for Org posts (go-org, the shortcodes'
// placeholders, the divider, the twin made from the HTML):
//
//	go test ./render -run '^$' -fuzz FuzzRenderOrg -fuzztime 60s
func FuzzRenderOrg(f *testing.F) {
	for _, seed := range []string{
		"* Heading\nSome *bold*, /it/, =v=, ~c~ and [[https://x.org][a link]] [[file:a.png]].\n- a\n  - b\n1. c\n",
		"#+BEGIN_SRC go\nx := 1\n#+END_SRC\n\n| a | b |\n|---+---|\n| 1 | 2 |\n\n[fn:1] note\n",
		"Before {{< ref \"other.md\" >}} after.\n\n# more\n\n{{< highlight go >}}\nx\n{{< /highlight >}}\n",
		"{{< details summary=\"*s*\" >}}\n/inner/\n{{< /details >}}\n<!--more-->\nFOLIOSC0E\n",
		"#+BEGIN_QUOTE\nq\n#+END_QUOTE\n:PROPERTIES:\n:a: b\n:END:\n\\begin{x}\ny\n\\end{x}\n#+INCLUDE: \"x.org\"\n",
		"- [X] done\n- [ ] open\n- term :: def\n\n-----\n\n#+begin_example\n<raw>\n#+end_example\n",
		// The shapes of review 31's pathological posts, past their
		// bounds (orgguard.go): open environments, open quotes,
		// footnote references without a definition, a deep list; and
		// review 32's, within them: 6,000 headlines, footnotes defined.
		strings.Repeat("\\begin{equation}\n", 1000),
		strings.Repeat("#+BEGIN_QUOTE\n", 1000),
		orgFootnotes(2049, false),
		orgNest(maxOrgListDepth + 1),
		strings.Repeat("* h\n", 6000),
		orgFootnotes(2500, true),
	} {
		f.Add(seed)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "oracle", "org*", "site", "content", "posts", "*.org"))
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(string(data))
		}
	}
	cfg := pipeline.DefaultConfig()
	cfg.BaseURL = testBase
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	r := New(Options{BaseURL: testBase, Section: "blog"})
	f.Fuzz(func(t *testing.T, body string) {
		fsys := fstest.MapFS{
			"blog/x.org":    {Data: []byte("#+TITLE: X\n#+DATE: 2024-01-01\n\n" + body)},
			"blog/other.md": {Data: []byte("---\ntitle: O\ndate: 2024-01-01\n---\nx\n")},
		}
		s, err := pipeline.Build(fsys, cfg, pipeline.Options{Drafts: true}, now)
		if err != nil {
			t.Fatal(err)
		}
		var p *pipeline.Post
		for _, q := range s.Posts() {
			if q.File == "blog/x.org" {
				p = q
			}
		}
		if p == nil {
			return // the pipeline rejected the file
		}
		checkRendered(t, p, body, r.Render(p, NewIndex(s.Posts(), func(q *pipeline.Post) bool { return q.Published(now) })))
	})
}

// orgNest is a list n deep.
func orgNest(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat("  ", i) + "- item\n")
	}
	return b.String()
}
