package render

import (
	"strings"

	"folio/pipeline"

	"github.com/yuin/goldmark/ast"
)

// callKind tells apart what stands for a placeholder in the source.
type callKind uint8

const (
	// callShortcode is a {{< >}} shortcode call.
	callShortcode callKind = iota
	// callMore is the <!--more--> divider.
	callMore
	// callPlain is a paragraph too dense for goldmark (guard.go), shown
	// as plain text.
	callPlain
	// callMarkdown is a {{% %}} call at the top level, whose output is
	// in the source itself; it is not a placeholder, only an edit of the
	// Markdown twin.
	callMarkdown
)

// A call is one shortcode (or the divider) replaced by a placeholder in
// src. Its two renderings are computed once, before goldmark's HTML pass,
// so that issues are reported once however often the placeholder appears.
type call struct {
	kind     callKind
	node     *pipeline.Node
	line     int
	index    int
	off, end int // the placeholder in src

	html string // the HTML that replaces the placeholder
	md   string // the Markdown that replaces it in the alternate
	// url is a ref's target; dropped means the target is not visible, and
	// a link to it is rendered as its text alone.
	url     string
	dropped bool
	// mdBlock: the Markdown is blocks (details, a fenced block), set
	// apart by blank lines from the text around it.
	mdBlock bool
	// inCode: a {{% %}} call's output landed in code, where it is shown
	// as written; htmlLost: its HTML is left out, unless it is in code.
	inCode, htmlLost bool
}

// block reports whether the call's HTML is a block that must not be
// wrapped in <p> when it stands alone in a paragraph: folio's own
// placeholders. A shortcode alone in a paragraph takes the paragraph's
// place, whatever it writes, as in Hugo.
func (c *call) block() bool {
	return c.kind == callMore || c.kind == callPlain
}

// expandCalls settles what the divider's placeholder stands for; the
// shortcodes were rendered as the source was written.
func (st *state) expandCalls() {
	for _, c := range st.calls {
		if c.kind == callMore {
			c.md = ""
		}
	}
}

// shortcodeCall renders a call at the top level of the source: a {{< >}}
// call becomes a placeholder, a {{% %}} call's output joins the source.
func (st *state) shortcodeCall(n *pipeline.Node) {
	ordinal := st.ordinal
	st.ordinal++
	if t, _, _ := st.lookupShortcode(n.Name, n.Markup); !n.Markup || t != nil && t.version1 {
		exp := st.expandCall(n, nil, 0, ordinal)
		st.placeholder(&call{kind: callShortcode, node: n, line: n.Line, html: exp.out, md: exp.md, url: exp.url, dropped: exp.dropped, mdBlock: exp.block})
		return
	}
	exp := st.expandCall(n, nil, 0, ordinal)
	c := &call{kind: callMarkdown, node: n, line: n.Line, md: exp.md, off: len(st.src), mdBlock: exp.block,
		htmlLost: !st.r.opts.Unsafe && hasTag(exp.out)}
	st.src = append(st.src, normalizeNewlines(exp.out)...)
	c.end = len(st.src)
	st.inserted = append(st.inserted, c)
}

// hasTag reports whether s holds something an HTML parser reads as a tag
// or a comment.
func hasTag(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if c := s[i+1]; s[i] == '<' && (c == '/' || c == '!' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return true
		}
	}
	return false
}

func normalizeNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s)
}

// settleInserted finds the {{% %}} calls whose output landed in code
// (a fenced or indented block, a code span), where it shows as written,
// and warns of the others whose HTML is left out.
func (st *state) settleInserted(doc ast.Node) {
	if len(st.inserted) == 0 {
		return
	}
	var code [][2]int
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindFencedCodeBlock, ast.KindCodeBlock:
			if l := n.Lines(); l.Len() > 0 {
				code = append(code, [2]int{l.At(0).Start, l.At(l.Len() - 1).Stop})
			}
			return ast.WalkSkipChildren, nil
		case ast.KindCodeSpan:
			if f, l := n.FirstChild(), n.LastChild(); f != nil {
				if ft, ok := f.(*ast.Text); ok {
					if lt, ok := l.(*ast.Text); ok {
						code = append(code, [2]int{ft.Segment.Start, lt.Segment.Stop})
					}
				}
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	for _, c := range st.inserted {
		for _, r := range code {
			if c.off >= r[0] && c.off < r[1] {
				c.inCode = true
				break
			}
		}
		if c.htmlLost && !c.inCode {
			n := c.node.Name
			st.warn(c.line, "shortcode %q: its HTML is left out: a {{%% %%}} call writes Markdown, in which raw HTML needs markup.goldmark.renderer.unsafe = true (Hugo leaves it out too); call it as {{< %s >}}", n, n)
		}
	}
}
