package render

import (
	"fmt"
	"html/template"
	"regexp"
	"strings"

	"folio/pipeline"
)

// How a shortcode call becomes content, as in Hugo 0.165:
//
//   - The call's template is the site's (layouts/_shortcodes, then its
//     theme's), else Hugo's built-in of that name, else there is none: the
//     call keeps its inner text, with a warning (Hugo would stop; a
//     missing theme is the usual cause, and the text is the content).
//   - Nested calls render first, in order; their output is part of the
//     parent's .Inner, as text. A nested {{% %}} call with inner content
//     has that content rendered as Markdown first (one line of it loses
//     its <p>).
//   - A {{< >}} call's output is HTML put in place after the page's
//     Markdown is rendered; alone in a paragraph, it takes the
//     paragraph's place. A {{% %}} call at the top level writes Markdown:
//     its output joins the page's source before goldmark parses it (so
//     its raw HTML obeys markup.goldmark.renderer.unsafe, as in Hugo).
//   - A call without inner content, indented, has every line of its
//     output after the first indented the same.
//   - A template written for Hugo's legacy shortcode config (version 1)
//     gets a {{% %}} call's inner content as Markdown rendered on its
//     own, and its output is placed as a {{< >}} call's.

// maxCallDepth bounds the nesting of calls: inner content, RenderString
// and markdownify can each start another rendering.
const maxCallDepth = 32

// expandCall renders the call n. parent is the enclosing call, nil at the
// top level; level is the nesting depth and ordinal the call's position
// among its siblings.
func (st *state) expandCall(n *pipeline.Node, parent *shortcode, level, ordinal int) expansion {
	sc := &shortcode{
		Name: n.Name, Params: n.Params, Ordinal: ordinal, Parent: parent, Page: st.pageView(),
		line: n.Line, markup: n.Markup, indent: n.Indent,
	}
	_, sc.IsNamedParams = n.Params.(map[string]any)
	root := st.root()
	if root.depth >= maxCallDepth {
		st.issue(n.Line, "shortcode %q: calls nested more than %d deep", n.Name, maxCallDepth)
		return expansion{}
	}
	root.depth++
	defer func() { root.depth-- }()
	root.lastLine = n.Line

	if strings.HasSuffix(n.Name, inlineSuffix) {
		return st.expandInline(n, sc)
	}
	tmpl, bi, found := st.lookupShortcode(n.Name, n.Markup)
	if !found {
		st.warn(n.Line, "shortcode %q: no template for it in the site or its theme (layouts/_shortcodes/%s.html); its inner text is kept", n.Name, n.Name)
		inner := st.innerOutput(n, sc, level)
		return expansion{out: inner, md: st.innerTwin(sc)}
	}
	sc.node = n
	if n.HasInner && ((tmpl != nil && tmpl.failed == nil && !tmpl.usesInner) || (tmpl == nil && !bi.usesInner)) {
		st.issue(n.Line, "shortcode %q: its template does not use .Inner, yet a closing tag was given (Hugo stops here); what is between the tags is not shown", n.Name)
	}
	if n.HasInner {
		inner := st.innerOutput(n, sc, level)
		if n.Markup && (level > 0 || tmpl != nil && tmpl.version1) {
			h, _ := st.renderMarkdown(inner, false)
			if !strings.Contains(inner, "\n") {
				h = singleParagraph.ReplaceAllString(h, "$1")
			}
			inner = h
		}
		sc.Inner = template.HTML(inner)
	}
	var exp expansion
	if tmpl != nil {
		exp = st.execShortcode(tmpl, sc)
	} else {
		exp = bi.render(st, sc)
	}
	if !n.HasInner && sc.indent != "" && strings.Contains(exp.out, "\n") {
		exp.out = strings.ReplaceAll(exp.out, "\n", "\n"+sc.indent)
	}
	return exp
}

// singleParagraph is Hugo's clean-up of a one-line inner content
// rendered as Markdown.
var singleParagraph = regexp.MustCompile(`\A<p>(.*)</p>\n\z`)

// innerOutput is the call's inner content with the nested calls
// rendered, as .Inner has it.
func (st *state) innerOutput(n *pipeline.Node, sc *shortcode, level int) string {
	var b strings.Builder
	ordinal := 0
	for i := range n.Inner {
		c := &n.Inner[i]
		switch c.Kind {
		case pipeline.TextNode:
			b.WriteString(normalizeNewlines(c.Text))
		case pipeline.ShortcodeNode:
			exp := st.expandCall(c, sc, level+1, ordinal)
			ordinal++
			b.WriteString(exp.out)
			sc.childTwins = append(sc.childTwins, exp.md)
		}
	}
	return b.String()
}

// innerTwin is the Markdown the twin shows for a call's inner content:
// the text as written, each nested call as its own twin.
func (st *state) innerTwin(sc *shortcode) string {
	if sc.node == nil {
		return ""
	}
	var b strings.Builder
	k := 0
	for i := range sc.node.Inner {
		c := &sc.node.Inner[i]
		switch c.Kind {
		case pipeline.TextNode:
			b.WriteString(normalizeNewlines(c.Text))
		case pipeline.ShortcodeNode:
			if k < len(sc.childTwins) {
				b.WriteString(sc.childTwins[k])
			}
			k++
		}
	}
	return st.twinOf(b.String(), sc.line)
}

// lookupShortcode finds the template of a call: the site's (its own
// layouts, then its theme's), else Hugo's built-in of that name. An
// inline shortcode's is in the page (expandInline): found, neither.
func (st *state) lookupShortcode(name string, markup bool) (*siteTemplate, builtin, bool) {
	if strings.HasSuffix(name, inlineSuffix) {
		return nil, builtin{}, true
	}
	if t := st.r.opts.Templates.shortcode(name, st.root().post.Lang, markup); t != nil {
		return t, builtin{}, true
	}
	bi, ok := builtins[name]
	return nil, bi, ok
}

// warn records a warning: something Hugo accepts (or folio accepts in
// Hugo's place) that the author may want to fix.
func (st *state) warn(line int, format string, args ...any) {
	root := st.root()
	root.issues = append(root.issues, Issue{Line: line, Message: fmt.Sprintf(format, args...), Severity: pipeline.Warning})
}
