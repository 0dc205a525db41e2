package render

import (
	"strings"
	"testing"

	"folio/pipeline"
)

// renderOrg renders src as the Org post blog/o.org of the test site.
func renderOrg(t *testing.T, src string) Result {
	t.Helper()
	posts, res := testSite(t, map[string]string{"blog/o.org": src})
	p := posts["blog/o.org"]
	if p == nil {
		t.Fatal("the pipeline did not read blog/o.org")
	}
	return New(Options{BaseURL: testBase, Section: "blog"}).Render(p, res)
}

// TestOrgInclude: #+INCLUDE and #+SETUPFILE read nothing (what the page
// shows would depend on a file a save of which renders nothing again);
// a warning names the line, and the rest of the post renders.
func TestOrgInclude(t *testing.T) {
	got := renderOrg(t, "#+TITLE: O\n#+DATE: 2024-01-01\n\nBefore.\n\n#+INCLUDE: \"o.org\" src org\n\nAfter.\n")
	if len(got.Issues) != 1 || got.Issues[0].Line != 6 || got.Issues[0].Severity != pipeline.Warning ||
		!strings.Contains(got.Issues[0].Message, "#+INCLUDE") {
		t.Errorf("issues: %+v", got.Issues)
	}
	if h := string(got.HTML); !strings.Contains(h, "Before.") || !strings.Contains(h, "After.") || strings.Contains(h, "src-org") {
		t.Errorf("HTML:\n%s", h)
	}
}

// TestOrgDivider: after Org keywords, "# more" divides the summary from
// the rest, as <!--more--> does after YAML; the divider shows in neither
// the HTML nor the twin.
func TestOrgDivider(t *testing.T) {
	// go-org starts a paragraph after a blank line with one.
	summaries := map[string]string{"org": "<p>\nFirst <em>part</em>.</p>", "yaml": "<p>First <em>part</em>.</p>"}
	for name, src := range map[string]string{
		"org":  "#+TITLE: O\n#+DATE: 2024-01-01\n\nFirst /part/.\n\n# more\n\nSecond part.\n",
		"yaml": "---\ntitle: O\ndate: 2024-01-01\n---\nFirst /part/.\n\n<!--more-->\n\nSecond part.\n",
	} {
		t.Run(name, func(t *testing.T) {
			got := renderOrg(t, src)
			if string(got.Summary) != summaries[name] {
				t.Errorf("summary %q, want %q", got.Summary, summaries[name])
			}
			if h := string(got.HTML); !strings.HasPrefix(h, string(got.Summary)) || !strings.Contains(h, "Second part.") || strings.Contains(h, "more") || strings.Contains(h, "FOLIO") {
				t.Errorf("HTML %q", h)
			}
			if got.Markdown != "First *part*.\n\nSecond part.\n" {
				t.Errorf("twin %q", got.Markdown)
			}
		})
	}
}

// TestOrgTwin: the Markdown twin of an Org post is Markdown: headings,
// emphasis, links made absolute, lists, task items, code with its
// language, tables, and a shortcode's Markdown.
func TestOrgTwin(t *testing.T) {
	got := renderOrg(t, "#+TITLE: O\n#+DATE: 2024-01-01\n\n* Head\nSome *bold* and a [[../x/][link]].\n"+
		"- [X] done\n- open\n\n#+BEGIN_SRC sh\necho hi\n#+END_SRC\n\n| a | b |\n|---+---|\n| 1 | 2 |\n\n{{< highlight go >}}\nx := 1\n{{< /highlight >}}\n")
	want := "## Head\n\nSome **bold** and a [link](https://example.org/blog/x/).\n\n- [x] done\n- open\n\n" +
		"```sh\necho hi\n```\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n```go\nx := 1\n```\n"
	if got.Markdown != want {
		t.Errorf("twin\n--- got:\n%s\n--- want:\n%s", got.Markdown, want)
	}
	if !strings.Contains(string(got.HTML), `<a href="https://example.org/blog/x/">link</a>`) {
		t.Errorf("HTML: the link is not absolute:\n%s", got.HTML)
	}
}

// TestOrgTooDense: what would keep go-org busy for minutes (thousands
// of blocks, drawers or environments left open, each of which it scans
// the rest of the post for; too many headlines) is shown as written with
// an issue at the first opener left open; as many closed ones render.
func TestOrgTooDense(t *testing.T) {
	open := func(opener string, n int) string { return strings.Repeat(opener+"\nx\n", n) }
	tests := []struct {
		name, body string
		dense      bool
		line       int // of the issue, in the body
	}{
		{name: "closed blocks", body: strings.Repeat("#+BEGIN_QUOTE\nx\n#+END_QUOTE\n", 3000)},
		{name: "open blocks", body: "Text.\n" + open("#+BEGIN_QUOTE", 2000), dense: true, line: 2},
		{name: "open blocks, another's end", body: open("#+begin_quote", 2000) + "#+END_CENTER\n", dense: true, line: 1},
		{name: "closed drawers", body: strings.Repeat(":PROPERTIES:\n:a: b\n:END:\n", 3000)},
		{name: "open drawers", body: open(":PROPERTIES:", 2000), dense: true, line: 1},
		{name: "open environments", body: open(`\begin{align}`, 2000), dense: true, line: 1},
		{name: "closed environments", body: strings.Repeat("\\begin{align}\nx\n\\end{align}\n", 3000)},
		{name: "headlines", body: strings.Repeat("* h\n", maxOrgHeadlines+1), dense: true},
		{name: "fewer headlines", body: strings.Repeat("* h\n", 2000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dense, at := orgTooDense([]byte(tt.body))
			if dense != tt.dense {
				t.Fatalf("dense %v, want %v", dense, tt.dense)
			}
			if dense && tt.line > 0 && strings.Count(tt.body[:at], "\n")+1 != tt.line {
				t.Errorf("the first opener left open at line %d, want %d", strings.Count(tt.body[:at], "\n")+1, tt.line)
			}
		})
	}
	got := renderOrg(t, "#+TITLE: O\n#+DATE: 2024-01-01\n\nText.\n"+open("#+BEGIN_QUOTE", 2000))
	if len(got.Issues) != 1 || got.Issues[0].Line != 5 || !strings.Contains(got.Issues[0].Message, "left open") {
		t.Errorf("issues %+v", got.Issues)
	}
	if !strings.HasPrefix(string(got.HTML), "<pre>") || !strings.Contains(string(got.HTML), "#+BEGIN_QUOTE") {
		t.Errorf("HTML %.80q", got.HTML)
	}
}
