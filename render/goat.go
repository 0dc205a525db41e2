package render

import (
	"fmt"
	"html"
	"html/template"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/bep/goat"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// linkHook is the hook of kind (a link, an image or a heading: kinds
// without variants) on st's page; nil without one, or without st.
func (st *state) linkHook(kind string) *siteTemplate {
	if st == nil {
		return nil
	}
	return st.hook(kind, "")
}

// written is a link's or an image's destination as written, as Hugo
// hands it to a hook.
func (st *state) written(n ast.Node) string {
	if w, ok := st.hookWritten[n]; ok {
		return w
	}
	switch n := n.(type) {
	case *ast.Link:
		return string(n.Destination)
	case *ast.Image:
		return string(n.Destination)
	}
	return ""
}

// hookURLAttr is a URL attribute in a hook's output.
var hookURLAttr = regexp.MustCompile(`(\s(?:href|src))="([^"]*)"`)

// absoluteURLs makes the URLs of a link or image hook's output absolute,
// as folio writes every URL of a body: the destination as written
// becomes folio's resolved URL for it (a post's URL for its file), any
// other relative URL is resolved against the page's.
func (st *state) absoluteURLs(out, written, resolved string) string {
	if !strings.Contains(out, "href=") && !strings.Contains(out, "src=") {
		return out
	}
	return hookURLAttr.ReplaceAllStringFunc(out, func(m string) string {
		sub := hookURLAttr.FindStringSubmatch(m)
		v := html.UnescapeString(sub[2])
		if v == "" || strings.HasPrefix(v, "#") {
			return m
		}
		u, err := url.Parse(v)
		if err != nil || u.Scheme != "" || strings.HasPrefix(v, "//") {
			return m
		}
		abs := st.page.ResolveReference(u).String()
		if w, err := url.Parse(written); err == nil && resolved != "" && (v == written || u.String() == w.String()) {
			abs = resolved
		}
		return sub[1] + `="` + html.EscapeString(abs) + `"`
	})
}

// popRendered takes back what was rendered since the element a hook
// renders started: its text.
func (st *state) popRendered(w util.BufWriter) string {
	i := len(st.hookPos) - 1
	pos := st.hookPos[i]
	st.hookPos = st.hookPos[:i]
	hw := w.(*htmlWriter)
	text := string(hw.Bytes()[pos:])
	hw.Truncate(pos)
	return text
}

// hookPlainText is an element's plain text, shortcode calls in it as
// their Markdown.
func (st *state) hookPlainText(n ast.Node, src []byte) string {
	s := plainText(n, src)
	if len(st.calls) == 0 {
		return s
	}
	return st.replacePlaceholders(s, func(c *call) string { return c.md })
}

// codeHook renders a fenced code block with a hook (or Hugo's goat
// renderer); false when it failed, and the block is highlighted as code.
func (st *state) codeHook(w util.BufWriter, h *siteTemplate, n *ast.FencedCodeBlock, code, info []byte, lang string, ordinal int) bool {
	line := st.nodeLine(n)
	if n.Info != nil {
		line = st.line(n.Info.Segment.Start)
	}
	inner := strings.TrimRight(string(code), "\r\n")
	options := map[string]any{}
	attrs := hookAttributes(codeBlockAttributes(n, info), options)
	if h == goatHook {
		return st.goat(w, inner, attrs, line)
	}
	ctx := &codeblockHook{hookBase: hookBase{page: st.pageView(), ordinal: ordinal, pos: position{file: st.post.File, line: line}},
		Type: lang, Inner: inner, Options: options, Attributes: attrs}
	out, ok := st.runHook(h, ctx, line)
	if ok {
		_, _ = w.WriteString(out)
	}
	return ok
}

// A goat diagram's cost is its grid: the diagram is walked cell by cell
// several times. One diagram, and all of a page's, have a ceiling; past
// it a diagram is shown as its text, with a warning.
const (
	maxGoatCells = 1 << 18
	maxGoatPage  = 1 << 21
)

// goat is Hugo's render-codeblock-goat: an ASCII diagram drawn as SVG by
// the goat library Hugo uses, in the markup Hugo's template writes, less
// the style attribute goat puts on each letter (font-size:1em, which
// changes nothing, and which the Content-Security-Policy forbids).
func (st *state) goat(w util.BufWriter, inner string, attrs map[string]any, line int) bool {
	width, height := 0, 0
	for l := range strings.Lines(inner) {
		width = max(width, utf8.RuneCountInString(strings.TrimRight(l, "\r\n")))
		height++
	}
	cells := width * height
	root := st.root()
	root.goatUsed += cells
	if cells > maxGoatCells || root.goatUsed > maxGoatPage {
		st.warn(line, "goat diagram: larger than folio draws (%d by %d characters); shown as text", width, height)
		return false
	}
	svg := goat.BuildSVG(strings.NewReader(inner))
	body := strings.ReplaceAll(svg.Body, " style='font-size:1em'", "")
	var b strings.Builder
	if err := goatLayout.Execute(&b, goatView{
		Class:   goatAttr(attrs["class"]),
		Width:   goatAttr(attrs["width"]),
		Height:  goatAttr(attrs["height"]),
		ViewBox: fmt.Sprintf("0 0 %d %d", svg.Width, svg.Height),
		Body:    template.HTML(body),
	}); err != nil {
		panic(err) // the layout is folio's: a bug
	}
	_, _ = w.WriteString(b.String())
	return true
}

// goatLayout writes the bytes of Hugo's template, its white space
// included (hence the escapes: lines of tabs alone).
var goatLayout = template.Must(template.New("goat").Parse("\n\n\n" +
	"<div class=\"goat svg-container {{ .Class }}\">\n\t\n" +
	"\t\t<svg\n" +
	"\t\t\txmlns=\"http://www.w3.org/2000/svg\"\n" +
	"\t\t\tfont-family=\"Menlo,Lucida Console,monospace\"\n" +
	"\t\t\t\n" +
	"{{ if or .Width .Height }}" +
	"\t\t\t\t{{ with .Width }}width=\"{{ . }}\"{{ end }}\n" +
	"\t\t\t\t{{ with .Height }}height=\"{{ . }}\"{{ end }}\n" +
	"{{ else }}" +
	"\t\t\t\tviewBox=\"{{ .ViewBox }}\"\n" +
	"{{ end }}" +
	"\t\t\t>\n" +
	"\t\t\t{{ .Body }}\n" +
	"\t\t</svg>\n\t\n</div>\n"))

type goatView struct {
	Class, Width, Height, ViewBox string
	Body                          template.HTML
}

// goatAttr is an attribute's value as Hugo's template prints it.
func goatAttr(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// A goatDiagram is what diagrams.Goat returns to a template, with Hugo's
// methods: the SVG's elements (Inner), the whole svg element (Wrapped),
// its size in pixels. Like the code blocks folio draws, its letters have
// no style attribute (the Content-Security-Policy forbids it).
type goatDiagram struct {
	inner, wrapped template.HTML
	width, height  int
}

func (d *goatDiagram) Inner() template.HTML   { return d.inner }
func (d *goatDiagram) Wrapped() template.HTML { return d.wrapped }
func (d *goatDiagram) Width() int             { return d.width }
func (d *goatDiagram) Height() int            { return d.height }

// Goat implements funcs.Env: the diagram drawn, within the ceilings of a
// diagram and of a page's diagrams (an error past them).
func (e *tplEnv) Goat(src string) (any, error) {
	width, height := 0, 0
	for l := range strings.Lines(src) {
		width = max(width, utf8.RuneCountInString(strings.TrimRight(l, "\r\n")))
		height++
	}
	cells := width * height
	root := e.st.root()
	root.goatUsed += cells
	if cells > maxGoatCells || root.goatUsed > maxGoatPage {
		return nil, fmt.Errorf("diagrams.Goat: a diagram larger than folio draws (%d by %d characters)", width, height)
	}
	svg := goat.BuildSVG(strings.NewReader(src))
	const style = " style='font-size:1em'"
	return &goatDiagram{
		inner:   template.HTML(strings.ReplaceAll(svg.Body, style, "")),
		wrapped: template.HTML(strings.ReplaceAll(svg.String(), style, "")),
		width:   svg.Width, height: svg.Height,
	}, nil
}
