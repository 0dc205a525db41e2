package render

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// htmlWriter is the buffer goldmark renders into. It carries the
// rendering's state to the node renderers, which goldmark calls with
// nothing but the writer.
type htmlWriter struct {
	*bytes.Buffer
	st *state
}

func (w *htmlWriter) Buffered() int { return w.Len() }
func (w *htmlWriter) Flush() error  { return nil }

func stateOf(w util.BufWriter) *state {
	if hw, ok := w.(*htmlWriter); ok {
		return hw.st
	}
	return nil
}

// nodeRenderer renders the nodes where folio differs from goldmark:
// placeholders in text and paragraphs, resolved links and images, https
// for linkified "www." links, and highlighted code blocks.
type nodeRenderer struct {
	html.Config
	// linkifyProtocol is the scheme "www." links get.
	linkifyProtocol string
	// codeFences highlights fenced code blocks.
	codeFences bool
	// eastAsian is goldmark's own text renderer, which knows when a line
	// break between East Asian characters goes (the CJK extension's
	// eastAsianLineBreaks); nil when none does.
	eastAsian renderer.NodeRendererFunc
}

func newNodeRenderer(m *Markup) *nodeRenderer {
	return &nodeRenderer{Config: html.NewConfig(), linkifyProtocol: cmp.Or(m.LinkifyProtocol, "https"), codeFences: m.Highlight.CodeFences}
}

// SetOption receives the renderer options (WithUnsafe, the CJK
// extension's).
func (r *nodeRenderer) SetOption(name renderer.OptionName, value any) {
	r.Config.SetOption(name, value)
	if r.EastAsianLineBreaks != html.EastAsianLineBreaksNone {
		text := textFuncs{}
		html.NewRenderer(html.WithEastAsianLineBreaks(r.EastAsianLineBreaks)).RegisterFuncs(text)
		r.eastAsian = text[ast.KindText]
	} else {
		r.eastAsian = nil
	}
}

// textFuncs collects a node renderer's functions.
type textFuncs map[ast.NodeKind]renderer.NodeRendererFunc

func (f textFuncs) Register(k ast.NodeKind, fn renderer.NodeRendererFunc) { f[k] = fn }

// softBreak reports whether the soft line break after text node n is
// written, as goldmark decides with eastAsianLineBreaks.
func (r *nodeRenderer) softBreak(src []byte, n *ast.Text) bool {
	if r.eastAsian == nil {
		return true
	}
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	_, _ = r.eastAsian(w, src, n, true)
	_ = w.Flush()
	return bytes.HasSuffix(b.Bytes(), []byte{'\n'})
}

func (r *nodeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindText, r.text)
	reg.Register(ast.KindParagraph, r.paragraph)
	reg.Register(ast.KindLink, r.link)
	reg.Register(ast.KindImage, r.image)
	reg.Register(ast.KindAutoLink, r.autoLink)
	reg.Register(ast.KindFencedCodeBlock, r.fencedCode)
	reg.Register(ast.KindHeading, r.heading)
	reg.Register(ast.KindBlockquote, r.blockquote)
	reg.Register(ast.KindHTMLBlock, r.htmlBlock)
	reg.Register(ast.KindRawHTML, r.rawHTML)
	reg.Register(extast.KindTaskCheckBox, r.taskCheckBox)
}

func (r *nodeRenderer) text(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.Text)
	value := n.Segment.Value(src)
	if n.IsRaw() {
		r.Writer.RawWrite(w, value)
	} else {
		r.writeText(w, value)
	}
	switch {
	case n.HardLineBreak() || n.SoftLineBreak() && r.HardWraps:
		_, _ = w.WriteString("<br>\n")
	case n.SoftLineBreak() && r.softBreak(src, n):
		_ = w.WriteByte('\n')
	}
	return ast.WalkContinue, nil
}

// writeText writes Markdown text, replacing placeholders by their calls'
// HTML.
func (r *nodeRenderer) writeText(w util.BufWriter, value []byte) {
	st := stateOf(w)
	if st == nil || len(st.calls) == 0 {
		r.Writer.Write(w, value)
		return
	}
	for {
		i := bytes.Index(value, st.prefix)
		if i < 0 {
			break
		}
		c, n := st.callAt(value[i:])
		if c == nil {
			r.Writer.Write(w, value[:i+1])
			value = value[i+1:]
			continue
		}
		r.Writer.Write(w, value[:i])
		if c.kind == callMore {
			st.moreInline = true
		}
		_, _ = w.WriteString(c.html)
		value = value[i+n:]
	}
	r.Writer.Write(w, value)
}

// paragraph leaves out the <p> around shortcodes that make blocks when
// they stand alone, as Hugo does, and marks the summary's end at a
// <!--more--> alone in a top-level paragraph.
func (r *nodeRenderer) paragraph(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	st := stateOf(w)
	if calls := st.blockCalls(n, src); calls != nil {
		if !entering {
			return ast.WalkContinue, nil
		}
		for _, c := range calls {
			if c.kind == callMore {
				if n.Parent() != nil && n.Parent().Kind() == ast.KindDocument {
					if st.summaryEnd < 0 {
						st.summaryEnd = w.Buffered()
					}
				} else {
					st.moreInline = true
				}
			}
			_, _ = w.WriteString(c.html)
		}
		return ast.WalkSkipChildren, nil
	}
	if c := st.aloneCall(n, src); c != nil {
		// Hugo replaces <p>PLACEHOLDER</p> by the shortcode's output.
		if entering {
			_, _ = w.WriteString(c.html)
			_ = w.WriteByte('\n')
		}
		return ast.WalkSkipChildren, nil
	}
	if !entering {
		_, _ = w.WriteString("</p>\n")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString("<p")
	if n.Attributes() != nil {
		html.RenderAttributes(w, n, html.ParagraphAttributeFilter)
	}
	_ = w.WriteByte('>')
	return ast.WalkContinue, nil
}

// blockCalls returns the calls of a paragraph made of nothing but
// placeholders of block calls, one per line; nil for any other paragraph.
func (st *state) blockCalls(n ast.Node, src []byte) []*call {
	if st == nil || len(st.calls) == 0 {
		return nil
	}
	var calls []*call
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		t, ok := c.(*ast.Text)
		if !ok || t.IsRaw() {
			return nil
		}
		v := bytes.TrimSpace(t.Segment.Value(src))
		call, size := st.callAt(v)
		if call == nil || size != len(v) || !call.block() {
			return nil
		}
		calls = append(calls, call)
	}
	return calls
}

// aloneCall returns the shortcode call whose placeholder is all of a
// paragraph without attributes, nil for any other paragraph.
func (st *state) aloneCall(n ast.Node, src []byte) *call {
	if st == nil || len(st.calls) == 0 || n.Attributes() != nil || n.FirstChild() == nil || n.FirstChild() != n.LastChild() {
		return nil
	}
	t, ok := n.FirstChild().(*ast.Text)
	if !ok || t.IsRaw() || t.HardLineBreak() {
		return nil
	}
	v := t.Segment.Value(src)
	c, size := st.callAt(v)
	if c == nil || size != len(v) || c.kind != callShortcode {
		return nil
	}
	return c
}

// link writes a link whose destination resolveLinks made final; a link
// it dropped was replaced by its text before rendering.
func (r *nodeRenderer) link(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	st := stateOf(w)
	if h := st.linkHook("link"); h != nil {
		if entering {
			st.hookPos = append(st.hookPos, w.Buffered())
			return ast.WalkContinue, nil
		}
		text := st.popRendered(w)
		line := st.nodeLine(n)
		written := r.hookURL(st.written(n))
		ctx := &linkHook{hookBase: st.hookBase(n.Kind(), line), Destination: written,
			Title: string(n.Title), Text: template.HTML(text), PlainText: st.hookPlainText(n, src), Attributes: map[string]any{}}
		if out, ok := st.runHook(h, ctx, line); ok {
			_, _ = w.WriteString(st.absoluteURLs(out, written, r.hookURL(string(n.Destination))))
			return ast.WalkContinue, nil
		}
		r.openLink(w, n)
		_, _ = w.WriteString(text)
		_, _ = w.WriteString("</a>")
		return ast.WalkContinue, nil
	}
	if !entering {
		_, _ = w.WriteString("</a>")
		return ast.WalkContinue, nil
	}
	r.openLink(w, n)
	return ast.WalkContinue, nil
}

func (r *nodeRenderer) openLink(w util.BufWriter, n *ast.Link) {
	_, _ = w.WriteString(`<a href="`)
	r.writeURL(w, n.Destination)
	_ = w.WriteByte('"')
	r.writeTitle(w, n.Title)
	_ = w.WriteByte('>')
}

func (r *nodeRenderer) image(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Image)
	st := stateOf(w)
	if h := st.linkHook("image"); h != nil {
		if entering {
			st.hookPos = append(st.hookPos, w.Buffered())
			return ast.WalkContinue, nil
		}
		text := st.popRendered(w)
		line := st.nodeLine(n)
		written := r.hookURL(st.written(n))
		ctx := &imageHook{linkHook: linkHook{hookBase: st.hookBase(n.Kind(), line), Destination: written,
			Title: string(n.Title), Text: template.HTML(text), PlainText: st.hookPlainText(n, src), Attributes: hookAttributes(n.Attributes(), nil)}}
		if out, ok := st.runHook(h, ctx, line); ok {
			_, _ = w.WriteString(st.absoluteURLs(out, written, r.hookURL(string(n.Destination))))
			return ast.WalkContinue, nil
		}
		r.writeImage(w, src, n)
		return ast.WalkContinue, nil
	}
	if !entering {
		return ast.WalkContinue, nil
	}
	r.writeImage(w, src, n)
	return ast.WalkSkipChildren, nil
}

func (r *nodeRenderer) writeImage(w util.BufWriter, src []byte, n *ast.Image) {
	_, _ = w.WriteString(`<img src="`)
	r.writeURL(w, n.Destination)
	_, _ = w.WriteString(`" alt="`)
	_, _ = w.WriteString(stateOf(w).altText(r.Writer, n, src))
	_ = w.WriteByte('"')
	r.writeTitle(w, n.Title)
	_ = w.WriteByte('>')
}

// hookURL is a destination as a hook gets it: less a javascript: URL
// and the like unless raw HTML is allowed.
func (r *nodeRenderer) hookURL(u string) string {
	if r.Unsafe || !html.IsDangerousURL([]byte(u)) {
		return u
	}
	return ""
}

// heading is Hugo's: a render-heading hook's output, or the heading with
// every attribute but event handlers.
func (r *nodeRenderer) heading(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Heading)
	st := stateOf(w)
	if h := st.linkHook("heading"); h != nil {
		if entering {
			st.hookPos = append(st.hookPos, w.Buffered())
			return ast.WalkContinue, nil
		}
		text := st.popRendered(w)
		st.tocHeading(n, text)
		line := st.nodeLine(n)
		anchor, _ := n.AttributeString("id")
		a, _ := anchor.([]byte)
		ctx := &headingHook{hookBase: st.hookBase(n.Kind(), line), Level: n.Level, Anchor: string(a),
			Text: template.HTML(text), PlainText: st.hookPlainText(n, src), Attributes: hookAttributes(n.Attributes(), nil)}
		if out, ok := st.runHook(h, ctx, line); ok {
			_, _ = w.WriteString(out)
			return ast.WalkContinue, nil
		}
		openHeading(w, n)
		_, _ = w.WriteString(text)
		closeHeading(w, n)
		return ast.WalkContinue, nil
	}
	if entering {
		openHeading(w, n)
		st.tocAt = w.Buffered()
	} else {
		if hw, ok := w.(*htmlWriter); ok && st.tocAt <= hw.Len() {
			st.tocHeading(n, string(hw.Bytes()[st.tocAt:]))
		}
		closeHeading(w, n)
	}
	return ast.WalkContinue, nil
}

func openHeading(w util.BufWriter, n *ast.Heading) {
	_, _ = w.WriteString("<h")
	_ = w.WriteByte("0123456"[n.Level])
	for _, a := range n.Attributes() {
		if bytes.HasPrefix(bytes.ToLower(a.Name), []byte("on")) {
			continue
		}
		_ = w.WriteByte(' ')
		_, _ = w.Write(a.Name)
		_, _ = w.WriteString(`="`)
		switch v := a.Value.(type) {
		case []byte:
			_, _ = w.Write(util.EscapeHTML(v))
		default:
			_, _ = fmt.Fprint(w, v)
		}
		_ = w.WriteByte('"')
	}
	_ = w.WriteByte('>')
}

func closeHeading(w util.BufWriter, n *ast.Heading) {
	_, _ = w.WriteString("</h")
	_ = w.WriteByte("0123456"[n.Level])
	_, _ = w.WriteString(">\n")
}

// blockquote is Hugo's: with a render-blockquote hook, the quote is
// rendered first, then found to be an alert (> [!NOTE]) or a regular
// quote, and handed to the hook for its type.
func (r *nodeRenderer) blockquote(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Blockquote)
	st := stateOf(w)
	if st == nil || !st.r.opts.Templates.hasHooks("blockquote") {
		if entering {
			openBlockquote(w, n)
		} else {
			_, _ = w.WriteString("</blockquote>\n")
		}
		return ast.WalkContinue, nil
	}
	if entering {
		st.hookPos = append(st.hookPos, w.Buffered())
		return ast.WalkContinue, nil
	}
	text := st.popRendered(w)
	line := st.nodeLine(n)
	ordinal := st.nextOrdinal(n.Kind())
	typ, alert := "regular", blockquoteAlert(text)
	if alert.typ != "" {
		typ = "alert"
	}
	if h := st.hook("blockquote", typ); h != nil {
		inner := text
		if typ == "alert" {
			// The alert's text starts on its second line.
			before, after, found := strings.Cut(strings.TrimSpace(text), "\n")
			switch {
			case !found:
				inner = ""
			case strings.HasSuffix(before, "</p>"):
				inner = after
			default:
				inner = "<p>" + after
			}
		}
		ctx := &blockquoteHook{hookBase: hookBase{page: st.pageView(), ordinal: ordinal, pos: position{file: st.post.File, line: line}},
			Type: typ, AlertType: alert.typ, AlertTitle: template.HTML(alert.title), AlertSign: alert.sign,
			Text: template.HTML(inner), Attributes: hookAttributes(n.Attributes(), nil)}
		if out, ok := st.runHook(h, ctx, line); ok {
			_, _ = w.WriteString(out)
			return ast.WalkContinue, nil
		}
	}
	openBlockquote(w, n)
	_, _ = w.WriteString(text)
	_, _ = w.WriteString("</blockquote>\n")
	return ast.WalkContinue, nil
}

func openBlockquote(w util.BufWriter, n *ast.Blockquote) {
	if n.Attributes() != nil {
		_, _ = w.WriteString("<blockquote")
		html.RenderAttributes(w, n, html.BlockquoteAttributeFilter)
		_ = w.WriteByte('>')
	} else {
		_, _ = w.WriteString("<blockquote>\n")
	}
}

// An alert is GitHub's (and Obsidian's) > [!TYPE]+ title.
type alert struct{ typ, sign, title string }

var alertRe = regexp.MustCompile(`^<p>\[!([a-zA-Z]+)\](-|\+)?[^\S\r\n]?([^\n]*)\n?`)

// blockquoteAlert reads an alert from a rendered quote, as Hugo does.
func blockquoteAlert(s string) alert {
	m := alertRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return alert{}
	}
	return alert{typ: strings.ToLower(m[1]), sign: m[2], title: strings.TrimSuffix(strings.TrimSpace(m[3]), "</p>")}
}

// taskCheckBox renders a task list item's box as goldmark does, with an
// accessible name: a checkbox without one is announced as an unlabelled
// control (axe's "label" rule, found by the browser audit).
func (r *nodeRenderer) taskCheckBox(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	if node.(*extast.TaskCheckBox).IsChecked {
		_, _ = w.WriteString(`<input checked="" disabled="" type="checkbox" aria-label="done"> `)
	} else {
		_, _ = w.WriteString(`<input disabled="" type="checkbox" aria-label="to do"> `)
	}
	return ast.WalkContinue, nil
}

// writeTitle writes a link's or an image's title attribute, if it has one.
func (r *nodeRenderer) writeTitle(w util.BufWriter, title []byte) {
	if title != nil {
		_, _ = w.WriteString(` title="`)
		r.Writer.Write(w, title)
		_ = w.WriteByte('"')
	}
}

// writeURL writes a resolved URL into an attribute, leaving out
// javascript: and the like unless raw HTML is allowed anyway.
func (r *nodeRenderer) writeURL(w util.BufWriter, u []byte) {
	if r.Unsafe || !html.IsDangerousURL(u) {
		_, _ = w.Write(util.EscapeHTML(u))
	}
}

// autoLink is goldmark's, with "www." links given markup's
// linkifyProtocol (https) as Hugo does.
func (r *nodeRenderer) autoLink(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.AutoLink)
	if !entering {
		return ast.WalkContinue, nil
	}
	u := n.URL(src)
	if len(n.Protocol) > 0 {
		u = append([]byte(r.linkifyProtocol), u[len(n.Protocol):]...)
	}
	st := stateOf(w)
	if h := st.linkHook("link"); h != nil {
		dest := string(u)
		if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(dest), "mailto:") {
			dest = "mailto:" + dest
		}
		label := string(n.Label(src))
		line := st.nodeLine(n)
		ctx := &linkHook{hookBase: st.hookBase(n.Kind(), line), Destination: r.hookURL(dest),
			Text: template.HTML(label), PlainText: label, Attributes: map[string]any{}}
		if out, ok := st.runHook(h, ctx, line); ok {
			_, _ = w.WriteString(out)
			return ast.WalkContinue, nil
		}
	}
	u = util.URLEscape(u, false)
	_, _ = w.WriteString(`<a href="`)
	if n.AutoLinkType == ast.AutoLinkEmail && !bytes.HasPrefix(bytes.ToLower(u), []byte("mailto:")) {
		_, _ = w.WriteString("mailto:")
	}
	r.writeURL(w, u)
	_, _ = w.WriteString(`">`)
	_, _ = w.Write(util.EscapeHTML(n.Label(src)))
	_, _ = w.WriteString(`</a>`)
	return ast.WalkContinue, nil
}

func (r *nodeRenderer) fencedCode(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.FencedCodeBlock)
	var code []byte
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		code = append(code, seg.Value(src)...)
	}
	lang, info := string(n.Language(src)), []byte(nil)
	if n.Info != nil {
		info = n.Info.Segment.Value(src)
	}
	lang, _, _ = strings.Cut(lang, "{")
	st := stateOf(w)
	ordinal := 0
	if st != nil {
		ordinal = st.nextOrdinal(n.Kind())
		if hk := st.hook("codeblock", lang); hk != nil && st.codeHook(w, hk, n, code, info, lang, ordinal) {
			return ast.WalkSkipChildren, nil
		}
	}
	if st == nil || !r.codeFences {
		r.plainCode(w, lang, code)
		return ast.WalkSkipChildren, nil
	}
	h := st.r.markup.Highlight
	attrs := codeAttributes(&h, info)
	if h.LineAnchors == "" {
		h.LineAnchors = "hl-" + strconv.Itoa(ordinal) // Hugo's default: the block's ordinal
	}
	// As Hugo: no trailing newlines, then one.
	c := strings.TrimRight(string(code), "\r\n") + "\n"
	// Hugo writes no newline after a highlighted block.
	writeHighlighted(w, lang, c, h, attrs, &st.root().highlightBudget)
	return ast.WalkSkipChildren, nil
}

// plainCode is goldmark's own rendering of a fenced block, for
// markup.highlight.codeFences = false.
func (r *nodeRenderer) plainCode(w util.BufWriter, lang string, code []byte) {
	_, _ = w.WriteString("<pre><code")
	if lang != "" {
		_, _ = w.WriteString(` class="language-`)
		r.Writer.Write(w, []byte(lang))
		_ = w.WriteByte('"')
	}
	_ = w.WriteByte('>')
	r.Writer.RawWrite(w, code)
	_, _ = w.WriteString("</code></pre>\n")
}

// inlineMarkdown renders a shortcode argument written in Markdown (a
// figure's caption): the HTML without the <p> around a single paragraph,
// as Hugo's markdownify does, and the Markdown with its links resolved.
func (st *state) inlineMarkdown(s string, line int) (htm, md string) {
	sub := &state{r: st.r, post: st.post, res: st.res, page: st.page, pageURL: st.pageURL,
		prefix: st.prefix, summaryEnd: -1, parent: st, lineCache: lineCache{mark: -1}}
	sub.src = []byte(normalizeNewlines(s))
	sub.marks = []mark{{0, line}}
	doc := st.r.parse(sub, sub.src)
	sub.settleInserted(doc)
	sub.resolveLinks(doc)
	w := &htmlWriter{Buffer: new(bytes.Buffer), st: sub}
	sub.renderBlocks(w, doc)
	htm = strings.TrimSpace(w.String())
	if strings.HasPrefix(htm, "<p>") && strings.HasSuffix(htm, "</p>") && strings.Count(htm, "<p>") == 1 {
		htm = htm[len("<p>") : len(htm)-len("</p>")]
	}
	return htm, sub.markdown()
}

// htmlBlock and rawHTML are goldmark's, except that without Unsafe an
// HTML comment is dropped rather than marked "raw HTML omitted", as in
// Hugo.
func (r *nodeRenderer) htmlBlock(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.HTMLBlock)
	if r.Unsafe {
		st := stateOf(w)
		if entering {
			for i := range n.Lines().Len() {
				writeRawSegment(w, st, src, n.Lines().At(i))
			}
		} else if n.HasClosure() {
			writeRawSegment(w, st, src, n.ClosureLine)
		}
		return ast.WalkContinue, nil
	}
	if n.Lines().Len() > 0 && (entering || n.HasClosure()) {
		if first := n.Lines().At(0); !isComment(first.Value(src)) {
			_, _ = w.WriteString("<!-- raw HTML omitted -->\n")
		}
	}
	return ast.WalkContinue, nil
}

func (r *nodeRenderer) rawHTML(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.RawHTML)
	st := stateOf(w)
	for i := range n.Segments.Len() {
		seg := n.Segments.At(i)
		switch {
		case r.Unsafe:
			writeRawSegment(w, st, src, seg)
		case i == 0 && !isComment(seg.Value(src)):
			_, _ = w.WriteString("<!-- raw HTML omitted -->")
		}
	}
	return ast.WalkSkipChildren, nil
}

// writeRawSegment writes raw HTML kept by Unsafe, less what st cut from
// it (URLs naming unpublished posts). src is st.src (renderBlocks).
func writeRawSegment(w util.BufWriter, st *state, src []byte, seg text.Segment) {
	if st == nil || len(st.rawCuts) == 0 {
		_, _ = w.Write(seg.Value(src))
		return
	}
	st.writeRaw(w, seg)
}

func isComment(b []byte) bool { return bytes.HasPrefix(b, []byte("<!--")) }
