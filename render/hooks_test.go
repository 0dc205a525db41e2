package render

import (
	"strings"
	"testing"
)

// TestHookLookup: the hook nearest the page wins, then the one for the
// element's variant, the site's over a theme's, a language variant over
// the plain file; Hugo's goat renderer comes after the root's goat hooks
// and before the generic code block hook.
func TestHookLookup(t *testing.T) {
	body := "[a](https://a.example)\n\n```mermaid\ngraph\n```\n\n```go\nx\n```\n\n```goat\n+-+\n```\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"section over root", map[string]string{
			"layouts/_markup/render-link.html":      `<a class="root">{{ .Text }}</a>`,
			"layouts/blog/_markup/render-link.html": `<a class="section">{{ .Text }}</a>`,
		}, []string{`<a class="section">a</a>`}},
		{"variant over generic, generic for the rest", map[string]string{
			"layouts/_markup/render-codeblock.html":         `<pre class="generic">{{ .Inner }}</pre>`,
			"layouts/_markup/render-codeblock-mermaid.html": `<pre class="mermaid">{{ .Inner }}</pre>`,
		}, []string{`<pre class="mermaid">graph</pre>`, `<pre class="generic">x</pre>`, `<div class="goat svg-container ">`}},
		{"a section's generic over the root's variant", map[string]string{
			"layouts/blog/_markup/render-codeblock.html":    `<pre class="generic">{{ .Inner }}</pre>`,
			"layouts/_markup/render-codeblock-mermaid.html": `<pre class="mermaid">{{ .Inner }}</pre>`,
		}, []string{`<pre class="generic">graph</pre>`, `<pre class="generic">&#43;-&#43;</pre>`}},
		{"site over theme, theme's goat over Hugo's", map[string]string{
			"layouts/_default/_markup/render-link.html":               `<a class="site">{{ .Text }}</a>`,
			"themes/theme/layouts/_markup/render-link.html":           `<a class="theme">{{ .Text }}</a>`,
			"themes/theme/layouts/_markup/render-codeblock-goat.html": `<pre class="theme-goat">{{ .Inner }}</pre>`,
		}, []string{`<a class="site">a</a>`, `<pre class="theme-goat">&#43;-&#43;</pre>`}},
		{"language variant", map[string]string{
			"layouts/_markup/render-link.html":    `<a class="plain">{{ .Text }}</a>`,
			"layouts/_markup/render-link.en.html": `<a class="en">{{ .Text }}</a>`,
			"layouts/_markup/render-link.fr.html": `<a class="fr">{{ .Text }}</a>`,
		}, []string{`<a class="en">a</a>`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := renderWith(t, tc.files, body)
			for _, w := range tc.want {
				if !strings.Contains(string(r.HTML), w) {
					t.Errorf("HTML lacks %q:\n%s", w, r.HTML)
				}
			}
			if len(r.Issues) > 0 {
				t.Errorf("issues: %v", r.Issues)
			}
		})
	}
}

// TestHookProblems: a hook that fails is a problem at the element's line
// naming the template's file and line, and the element is rendered as
// without the hook; nothing panics, nothing runs unbounded.
func TestHookProblems(t *testing.T) {
	for _, tc := range []struct {
		name, file, template, body string
		issue, html                string
	}{
		{"unknown function", "render-link.html", "<a>\n{{ nosuchfunc . }}</a>", "Text\n\n[kept *text*](https://a.example)\n",
			`render hook render-link.html: layouts/_markup/render-link.html:2: template: function "nosuchfunc" not defined`,
			`<a href="https://a.example">kept <em>text</em></a>`},
		{"syntax error", "render-heading.html", "{{ if }}", "## Kept\n",
			`render hook render-heading.html: layouts/_markup/render-heading.html:1:`, `<h2 id="kept">Kept</h2>`},
		{"errorf", "render-image.html", `{{ errorf "no %s" .Destination }}`, "![alt](a.png)\n",
			`render hook render-image.html: no a.png`, `<img src="https://example.org/blog/x/a.png" alt="alt">`},
		{"missing field", "render-codeblock.html", "{{ .Nothing }}", "```go\nx := 1\n```\n",
			`at .Nothing: can't evaluate field Nothing in type the code block (.)`, `<span class="nx">x</span>`},
		{"recursion", "render-link.html", `{{ markdownify "[again](https://b.example)" }}`, "[a](https://a.example)\n",
			"render hooks nested more than 8 deep", `<a href="https://b.example">again</a>`},
		{"blockquote", "render-blockquote-alert.html", "{{ .Nope }}", "> [!NOTE]\n> Body.\n",
			"render hook render-blockquote-alert.html", "<blockquote>\n<p>[!NOTE]\nBody.</p>\n</blockquote>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := renderWith(t, map[string]string{"layouts/_markup/" + tc.file: tc.template}, tc.body)
			if !strings.Contains(issuesOf(r), tc.issue) {
				t.Errorf("issues:\n%swant one containing %q", issuesOf(r), tc.issue)
			}
			if !strings.Contains(string(r.HTML), tc.html) {
				t.Errorf("HTML lacks %q:\n%s", tc.html, r.HTML)
			}
		})
	}
}

// TestHookLines: a hook's problem is at its element's line.
func TestHookLines(t *testing.T) {
	r := renderWith(t, map[string]string{"layouts/_markup/render-link.html": `{{ errorf "bad" }}`},
		"Line one.\n\nLine three [link](https://a.example).\n")
	if len(r.Issues) != 1 || r.Issues[0].Line != 7 { // 4 lines of front matter
		t.Errorf("issues %+v, want one at line 7", r.Issues)
	}
}

// TestHookDestinations: a hook gets the destination as written, as Hugo
// gives it (so that "is it external?" tests work), and what it writes is
// made absolute as every URL folio writes; a javascript: URL reaches it
// empty.
func TestHookDestinations(t *testing.T) {
	tpl := `<a href="{{ .Destination | safeURL }}"{{ if strings.HasPrefix .Destination "http" }} rel="external"{{ end }}>{{ .Text }}</a>`
	r := renderWith(t, map[string]string{"layouts/_markup/render-link.html": tpl},
		"[about](/about/) [out](https://out.example/) [rel](other/) [bad](javascript:alert(1))\n")
	for _, want := range []string{
		`<a href="https://example.org/about/">about</a>`,
		`<a href="https://out.example/" rel="external">out</a>`,
		`<a href="https://example.org/blog/x/other/">rel</a>`,
		`<a href="">bad</a>`,
	} {
		if !strings.Contains(string(r.HTML), want) {
			t.Errorf("HTML lacks %q:\n%s", want, r.HTML)
		}
	}
}

// TestGoatBound: a diagram past folio's ceiling is shown as its text,
// with a warning.
func TestGoatBound(t *testing.T) {
	row := strings.Repeat("-", 600) + "\n"
	r := renderBody(t, "```goat\n"+strings.Repeat(row, 600)+"```\n")
	if strings.Contains(string(r.HTML), "<svg") || !strings.Contains(string(r.HTML), "------") {
		t.Errorf("the diagram was drawn: %.200s", r.HTML)
	}
	if !strings.Contains(issuesOf(r), "goat diagram: larger than folio draws (600 by 600 characters)") {
		t.Errorf("issues: %s", issuesOf(r))
	}
}

// TestHookTwin: the Markdown twin is the Markdown, whatever the hooks
// make of it.
func TestHookTwin(t *testing.T) {
	r := renderWith(t, map[string]string{
		"layouts/_markup/render-codeblock-mermaid.html": `<pre class="mermaid">{{ .Inner }}</pre>`,
		"layouts/_markup/render-blockquote-alert.html":  `<aside>{{ .Text }}</aside>`,
		"layouts/_markup/render-heading.html":           `<h{{ .Level }}>{{ .Text }}#</h{{ .Level }}>`,
	}, "## Head\n\n```mermaid\ngraph TD\n```\n\n> [!NOTE]\n> Body.\n")
	want := "## Head\n\n```mermaid\ngraph TD\n```\n\n> [!NOTE]\n> Body.\n"
	if r.Markdown != want {
		t.Errorf("twin %q, want %q", r.Markdown, want)
	}
}
