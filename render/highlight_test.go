package render

import (
	"fmt"
	"strings"
	"testing"
)

// TestHighlightLookupsBounded: a language name chroma does not know costs
// a match against every lexer's file-name patterns, in time growing with
// its length. Issue 15, finding 3: 3,000 fences naming unknown languages
// took 20 s to render, one 100,000-character name 53 s. Names over
// maxLangName are not looked up, and each lookup by pattern is paid from
// the post's highlight budget, once per name; the work is counted, not
// timed.
func TestHighlightLookupsBounded(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "```nolang%d\nx\n```\n\n", i)
	}
	b.WriteString("```" + strings.Repeat("a", 100_000) + "\nlong\n```\n\n")
	b.WriteString("```go\nx := 1\n```\n")
	before := LanguageLookups()
	r := renderBody(t, b.String())
	if n := LanguageLookups() - before; n != maxHighlightPost/lookupCost {
		t.Errorf("%d lookups by file-name pattern, want %d (the budget's worth)", n, maxHighlightPost/lookupCost)
	}
	html := string(r.HTML)
	for _, want := range []string{
		`<pre tabindex="0"><code class="language-nolang0" data-lang="nolang0">x`,
		`<pre tabindex="0"><code class="language-nolang2999" data-lang="nolang2999">x`,
		`<pre tabindex="0"><code class="language-aaaa`,
		// The budget is spent: the Go block after them is plain too.
		`<pre tabindex="0"><code class="language-go" data-lang="go">x := 1`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if !strings.Contains(r.Markdown, "```nolang2999\nx\n```") {
		t.Errorf("Markdown lost the fences")
	}
}

// TestHighlightKnownNamesCostNothing: names chroma finds in its name and
// alias maps cost no budget, so a post with many languages is highlighted
// whatever the process rendered before; a name found by file-name
// pattern is paid once however many blocks use it.
func TestHighlightKnownNamesCostNothing(t *testing.T) {
	var b strings.Builder
	for range 50 {
		for _, lang := range []string{"go", "Go", "bash", "yaml", "JSON", "python", "js", "html", "css", "sql", "rust", "toml", "diff", "c", "java"} {
			fmt.Fprintf(&b, "```%s\nx\n```\n\n", lang)
		}
		b.WriteString("```mermaid\ngraph\n```\n\n```unknown-thing\nx\n```\n\n")
	}
	b.WriteString("```go\nlast := 1\n```\n")
	before := LanguageLookups()
	r := renderBody(t, b.String())
	if n := LanguageLookups() - before; n != 2 {
		t.Errorf("%d lookups by file-name pattern, want 2 (mermaid, unknown-thing)", n)
	}
	if !strings.Contains(string(r.HTML), `<code class="language-go" data-lang="go"><span class="line"><span class="cl"><span class="nx">last`) {
		t.Errorf("the last Go block is not highlighted")
	}
}
