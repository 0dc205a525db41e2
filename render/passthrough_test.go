package render

import (
	"strings"
	"testing"
	"testing/fstest"
)

// mathMarkup is Hugo's defaults with the passthrough delimiters Hugo's
// documentation gives for math.
func mathMarkup() *Markup {
	m := DefaultMarkup()
	m.Passthrough = Passthrough{Enable: true,
		Inline: [][2]string{{`\(`, `\)`}, {"$", "$"}},
		Block:  [][2]string{{`\[`, `\]`}, {"$$", "$$"}}}
	return &m
}

// TestPassthroughTags: without a hook, a passthrough element is written
// as it is, except that a "<" opening a tag is escaped unless raw HTML
// is allowed, where it is written as Hugo writes it.
func TestPassthroughTags(t *testing.T) {
	body := "Less $a<b$, $a < b$, $a<1$ and $x</p><script>alert(1)</script>$.\n\n$$\na<b & c <d\n$$\n"
	for _, tc := range []struct {
		unsafe bool
		want   string
	}{
		{false, "<p>Less $a&lt;b$, $a < b$, $a<1$ and $x&lt;/p>&lt;script>alert(1)&lt;/script>$.</p>\n$$\na&lt;b & c &lt;d\n$$"},
		{true, "<p>Less $a<b$, $a < b$, $a<1$ and $x</p><script>alert(1)</script>$.</p>\n$$\na<b & c <d\n$$"},
	} {
		r := renderBody(t, body, Options{BaseURL: testBase, Section: "blog", Markup: mathMarkup(), Unsafe: tc.unsafe})
		if string(r.HTML) != tc.want {
			t.Errorf("unsafe=%v:\n got %q\nwant %q", tc.unsafe, r.HTML, tc.want)
		}
		if r.Markdown != body {
			t.Errorf("unsafe=%v: twin %q, want the body as written", tc.unsafe, r.Markdown)
		}
	}
}

// TestPassthroughOff: without the extension (Hugo's default), math is
// Markdown like any text.
func TestPassthroughOff(t *testing.T) {
	r := renderBody(t, "$x *y* z$ and \\(x\\)\n")
	if want := "<p>$x <em>y</em> z$ and (x)</p>\n"; string(r.HTML) != want {
		t.Errorf("got %q, want %q", r.HTML, want)
	}
}

// TestMarkupHookProblems: a passthrough or table hook that fails is a
// problem at the element's line naming the template, and the element is
// rendered as without the hook: the math as written, the table as
// goldmark writes it, cells rendered.
func TestMarkupHookProblems(t *testing.T) {
	body := "Intro.\n\nSee $x_1$ here.\n\n$$\ny_2\n$$\n\n| a | *b* |\n|:--|--:|\n| 1 | [c](https://c.example) |\n"
	for _, tc := range []struct {
		name, file, template string
		issues               []string
		html                 string
	}{
		{"passthrough", "render-passthrough.html", "<b>\n{{ .Nope }}</b>", []string{
			"7: render hook render-passthrough.html: template layouts/_markup/render-passthrough.html:2:", // the inline at line 7
			"can't evaluate field Nope in type the passthrough element (.)",
			"9: render hook render-passthrough.html",
		}, "<p>See $x_1$ here.</p>\n$$\ny_2\n$$<table>"},
		{"table", "render-table.html", `{{ range .THead }}{{ range . }}{{ .Nope }}{{ end }}{{ end }}`, []string{
			"13: render hook render-table.html", "can't evaluate field Nope in type the table cell",
		}, "<table>\n<thead>\n<tr>\n<th align=\"left\">a</th>\n<th align=\"right\"><em>b</em></th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td align=\"left\">1</td>\n<td align=\"right\"><a href=\"https://c.example\">c</a></td>\n</tr>\n</tbody>\n</table>\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tpls := LoadTemplates(fstest.MapFS{"layouts/_markup/" + tc.file: {Data: []byte(tc.template)}}, nil, "en")
			r := renderBody(t, body, Options{BaseURL: testBase, Section: "blog", Markup: mathMarkup(), Templates: tpls})
			var got strings.Builder
			for _, is := range r.Issues {
				got.WriteString(itoa(is.Line) + ": " + is.Message + "\n")
			}
			for _, w := range tc.issues {
				if !strings.Contains(got.String(), w) {
					t.Errorf("issues:\n%swant one containing %q", got.String(), w)
				}
			}
			if !strings.Contains(string(r.HTML), tc.html) {
				t.Errorf("HTML lacks %q:\n%s", tc.html, r.HTML)
			}
		})
	}
}

// TestPassthroughHookContext: a hook gets the text between the
// delimiters, the type, one ordinal count for both types, and the page;
// -inline and -block variants win over the generic hook.
func TestPassthroughHookContext(t *testing.T) {
	tpls := LoadTemplates(fstest.MapFS{
		"layouts/_markup/render-passthrough.html":        {Data: []byte(`[{{ .Type }} {{ .Ordinal }} {{ .Inner }}]`)},
		"layouts/_markup/render-passthrough-inline.html": {Data: []byte(`(inline {{ .Ordinal }} {{ .Inner }} {{ .Page.Title }} {{ .Position.LineNumber }})`)},
	}, nil, "en")
	r := renderBody(t, "A $a$ B \\(b\\)\n\n\\[c\\]\n", Options{BaseURL: testBase, Section: "blog", Markup: mathMarkup(), Templates: tpls})
	want := "<p>A (inline 0 a X 5) B (inline 1 b X 5)</p>\n[block 2 c]"
	if string(r.HTML) != want || len(r.Issues) > 0 {
		t.Errorf("got %q (issues %v), want %q", r.HTML, r.Issues, want)
	}
}
