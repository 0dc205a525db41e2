package render

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"
	"unicode/utf8"

	"folio/pipeline"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

const testBase = "https://example.org/"

// testNow is the clock of the test site: future.md is not yet published,
// draft.md is a draft.
var testNow = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// testSite parses testdata/content, plus extra files, with the real
// pipeline. It returns every post (hidden ones too) and a resolver that
// knows which are published.
func testSite(t testing.TB, extra map[string]string) (map[string]*pipeline.Post, Resolver) {
	t.Helper()
	fsys := fstest.MapFS{}
	root := filepath.Join("testdata", "content")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		fsys[filepath.ToSlash(rel)] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range extra {
		fsys[name] = &fstest.MapFile{Data: []byte(data)}
	}
	cfg := pipeline.DefaultConfig()
	cfg.BaseURL = testBase
	s, err := pipeline.Build(fsys, cfg, pipeline.Options{Drafts: true}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range s.Problems() {
		if !strings.Contains(p.Message, "unknown shortcode") {
			t.Fatalf("test content: %s", p)
		}
	}
	byFile := map[string]*pipeline.Post{}
	for _, p := range s.Posts() {
		byFile[p.File] = p
	}
	return byFile, NewIndex(s.Posts(), func(p *pipeline.Post) bool { return p.Published(testNow) })
}

// renderBody renders body as the post blog/x.md of the test site.
func renderBody(t testing.TB, body string, opts ...Options) Result {
	t.Helper()
	posts, res := testSite(t, map[string]string{"blog/x.md": "---\ntitle: X\ndate: 2024-01-01\n---\n" + body})
	o := Options{BaseURL: testBase, Section: "blog"}
	if len(opts) > 0 {
		o = opts[0]
	}
	return New(o).Render(posts["blog/x.md"], res)
}

// TestGolden renders every post of testdata/content and compares the
// HTML, the summary, the whole Markdown document and the issues with the
// files under testdata/golden (go test ./render -update rewrites them).
func TestGolden(t *testing.T) {
	posts, res := testSite(t, nil)
	safe := New(Options{BaseURL: testBase, Section: "blog"})
	unsafe := New(Options{BaseURL: testBase, Section: "blog", Unsafe: true})
	for file, p := range posts {
		name := strings.ReplaceAll(strings.TrimSuffix(file, ".md"), "/", "_")
		t.Run(name, func(t *testing.T) {
			r := safe.Render(p, res)
			checkInvariants(t, p, r)
			golden(t, name+".html", string(r.HTML))
			golden(t, name+".summary.html", string(r.Summary))
			golden(t, name+".md", string(MarkdownDocument(p, strings.TrimSuffix(testBase, "/")+"/"+p.Path("blog"), r.Markdown)))
			golden(t, name+".issues.txt", issueText(r.Issues))
			if strings.Contains(name, "rawhtml") {
				golden(t, name+".unsafe.html", string(unsafe.Render(p, res).HTML))
			}
		})
	}
}

// checkInvariants holds for every post: no shortcode syntax or
// placeholder in the output, valid UTF-8, no internal error.
func checkInvariants(t *testing.T, p *pipeline.Post, r Result) {
	t.Helper()
	prefix := string(placeholderPrefix(p.Body))
	for what, out := range map[string]string{"HTML": string(r.HTML), "Markdown": r.Markdown} {
		if strings.Contains(out, prefix) {
			t.Errorf("%s contains a placeholder:\n%s", what, out)
		}
		if !utf8.ValidString(out) {
			t.Errorf("%s is not valid UTF-8", what)
		}
	}
	textHas := func(s string) bool {
		found := false
		walkText(p.Body, func(text string) { found = found || strings.Contains(text, s) })
		return found
	}
	for _, sc := range []string{"{{<", "{{%"} {
		if strings.Contains(r.Markdown, sc) && !textHas(sc) {
			t.Errorf("Markdown leaks %q:\n%s", sc, r.Markdown)
		}
	}
	for _, is := range r.Issues {
		if strings.Contains(is.Message, "internal error") {
			t.Errorf("issue: %v", is)
		}
	}
}

func issueText(issues []Issue) string {
	var b strings.Builder
	for _, is := range issues {
		fmt.Fprintf(&b, "%d: %s\n", is.Line, is.Message)
	}
	return b.String()
}

// golden compares got with testdata/golden/name; an empty got means the
// file must not exist.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if got == "" {
			_ = os.Remove(path)
			return
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if os.IsNotExist(err) && got == "" {
		return
	}
	if err != nil {
		t.Fatalf("%v (run go test ./render -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (go test ./render -update rewrites it)\n--- got:\n%s\n--- want:\n%s", name, got, want)
	}
}

func TestMarkdownDocument(t *testing.T) {
	p := &pipeline.Post{
		Slug:        "héllo wörld",
		Title:       "Hello, \"world\"\n<again>",
		Description: "First & best.",
		Tags:        []string{"go", "http"},
		Date:        time.Date(2026, 1, 2, 16, 4, 5, 0, time.FixedZone("CET", 3600)),
	}
	got := string(MarkdownDocument(p, "https://example.org/blog/h%C3%A9llo%20w%C3%B6rld/", "Body.\n"))
	want := `---
title: "Hello, \"world\"\n<again>"
description: "First & best."
date: 2026-01-02T15:04:05Z
tags: ["go", "http"]
url: "https://example.org/blog/h%C3%A9llo%20w%C3%B6rld/"
---

# Hello, "world" <again>

Body.
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	empty := string(MarkdownDocument(&pipeline.Post{Slug: "e", Date: p.Date}, "https://example.org/blog/e/", ""))
	if !strings.HasSuffix(empty, "tags: []\nurl: \"https://example.org/blog/e/\"\n---\n\n# e\n") {
		t.Errorf("empty post:\n%s", empty)
	}
}

func TestCRLF(t *testing.T) {
	body := "# Title\n\nA *paragraph*\nover lines.\n\n<!--more-->\n\n{{< highlight go >}}\nx := 1\n{{< /highlight >}}\n\n- [a link](other.md)\n- [hidden](draft.md)\n\n```\ncode\n```\n"
	lf := renderBody(t, body)
	crlf := renderBody(t, strings.ReplaceAll(body, "\n", "\r\n"))
	if lf.HTML != crlf.HTML || lf.Summary != crlf.Summary || lf.Markdown != crlf.Markdown {
		t.Errorf("CRLF input renders differently:\n%s\n%s\n---\n%s\n%s", lf.HTML, lf.Markdown, crlf.HTML, crlf.Markdown)
	}
	if issueText(lf.Issues) != issueText(crlf.Issues) || len(lf.Issues) != 1 {
		t.Errorf("issues: LF %v, CRLF %v", lf.Issues, crlf.Issues)
	}
	if strings.Contains(string(crlf.HTML), "\r") || strings.Contains(crlf.Markdown, "\r") {
		t.Error("a carriage return survived")
	}
}

func TestRawHTML(t *testing.T) {
	body := "Inline <b>bold</b>.\n\n<div>block</div>\n"
	safe := renderBody(t, body)
	if strings.Contains(string(safe.HTML), "<b>") || strings.Count(string(safe.HTML), "<!-- raw HTML omitted -->") != 3 {
		t.Errorf("safe: %s", safe.HTML)
	}
	unsafe := renderBody(t, body, Options{BaseURL: testBase, Section: "blog", Unsafe: true})
	if !strings.Contains(string(unsafe.HTML), "<b>bold</b>") || !strings.Contains(string(unsafe.HTML), "<div>block</div>") {
		t.Errorf("unsafe: %s", unsafe.HTML)
	}
	// The alternate says what the page says: raw HTML only when it is
	// allowed (issue 15: an omitted <a href> to a draft stayed in it).
	if safe.Markdown != "Inline bold.\n" {
		t.Errorf("safe: the Markdown alternate keeps raw HTML the page omits: %q", safe.Markdown)
	}
	if !strings.Contains(unsafe.Markdown, "<b>bold</b>") || !strings.Contains(unsafe.Markdown, "<div>block</div>") {
		t.Errorf("unsafe: the Markdown alternate lost the author's HTML: %q", unsafe.Markdown)
	}
}

func TestSummary(t *testing.T) {
	for _, tc := range []struct{ body, summary string }{
		{"One.\n\n<!--more-->\n\nTwo.\n", "<p>One.</p>\n"},
		{"One.\n<!--more-->\nTwo.\n", "<p>One.</p>\n"},
		{"One <!--more--> two.\n\nThree.\n", "<p>One</p>\n"}, // Hugo ends the paragraph there
		{"- a\n\n  <!--more-->\n\n- b\n\nAfter.\n", "<ul>\n<li>\n<p>a</p>\n</li>\n<li>\n<p>b</p>\n</li>\n</ul>\n"},
		{"<!--more-->\n\nAll after.\n", ""},
		{"No divider.\n", ""},
		{"```\ncode <!--more--> in code\n```\n\nText.\n", ""},
	} {
		r := renderBody(t, tc.body)
		if string(r.Summary) != tc.summary {
			t.Errorf("%q: summary %q, want %q", tc.body, r.Summary, tc.summary)
		}
		if strings.Contains(string(r.HTML), "more") && !strings.Contains(tc.body, "in code") {
			t.Errorf("%q: the divider shows in %q", tc.body, r.HTML)
		}
		if strings.Contains(r.Markdown, "more") && !strings.Contains(tc.body, "in code") {
			t.Errorf("%q: the divider shows in the Markdown %q", tc.body, r.Markdown)
		}
	}
}

func TestHighlightCSS(t *testing.T) {
	css := HighlightCSS()
	for _, want := range []string{".chroma {", ".chroma .kd {", "@media (prefers-color-scheme: dark)"} {
		if !strings.Contains(css, want) {
			t.Errorf("HighlightCSS lacks %q", want)
		}
	}
	r := renderBody(t, "```go\nfunc f() {}\n```\n")
	if !strings.Contains(string(r.HTML), `<span class="kd">func</span>`) || strings.Contains(string(r.HTML), "style=") {
		t.Errorf("code is not highlighted with classes: %s", r.HTML)
	}
}

func TestCurrent(t *testing.T) {
	posts, _ := testSite(t, nil)
	p := posts["blog/links.md"]
	list := make([]*pipeline.Post, 0, len(posts))
	for _, q := range posts {
		list = append(list, q)
	}
	before := NewIndex(list, func(q *pipeline.Post) bool { return q.Published(testNow) })
	r := New(Options{BaseURL: testBase, Section: "blog"}).Render(p, before)
	if !r.Current(before) || !r.Current(NewIndex(list, func(q *pipeline.Post) bool { return q.Published(testNow) })) {
		t.Error("a result is not current for the same answers")
	}
	later := NewIndex(list, func(q *pipeline.Post) bool { return q.Published(testNow.AddDate(100, 0, 0)) })
	if r.Current(later) {
		t.Error("the result is still current once future.md is published")
	}
	if !bytes.Contains([]byte(New(Options{BaseURL: testBase, Section: "blog"}).Render(p, later).HTML), []byte(`href="https://example.org/blog/future/"`)) {
		t.Error("future.md is not linked once published")
	}
}

// TestConcurrent renders the test site from several goroutines with one
// Renderer (run it with -race) and expects the serial results. On a
// loaded machine it also checks that a lexer's match descheduled past
// chroma's 250 ms does not change the colours (highlightClock): before,
// with six busy processes beside it, four -race runs of six failed.
func TestConcurrent(t *testing.T) {
	posts, res := testSite(t, nil)
	r := New(Options{BaseURL: testBase, Section: "blog"})
	want := map[string]Result{}
	for file, p := range posts {
		want[file] = r.Render(p, res)
	}
	errs := make(chan string, 4*len(posts))
	done := make(chan bool)
	for range 4 {
		go func() {
			for file, p := range posts {
				got := r.Render(p, res)
				if got.HTML != want[file].HTML || got.Markdown != want[file].Markdown || got.Summary != want[file].Summary {
					errs <- file
				}
			}
			done <- true
		}()
	}
	for range 4 {
		<-done
	}
	close(errs)
	for file := range errs {
		t.Errorf("%s renders differently when concurrent", file)
	}
	if r := New(Options{}).Render(nil, nil); r.HTML != "" || r.Markdown != "" || r.Issues != nil {
		t.Error("a nil post does not render as nothing")
	}
}
