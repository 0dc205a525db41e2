package render

import (
	"html/template"
	"net/url"
	"strings"

	"folio/pipeline"

	"github.com/yuin/goldmark/renderer/html"
)

// callKind tells the shortcodes folio knows apart; callMore stands for the
// <!--more--> divider, which travels through goldmark the same way.
type callKind uint8

const (
	callUnknown callKind = iota
	callMore
	callFigure
	callHighlight
	callRef
	callRelref
	callYouTube
	// callPlain is a paragraph too dense for goldmark (guard.go), shown
	// as plain text.
	callPlain
)

func knownCall(name string) callKind {
	switch name {
	case "figure":
		return callFigure
	case "highlight":
		return callHighlight
	case "ref":
		return callRef
	case "relref":
		return callRelref
	case "youtube":
		return callYouTube
	}
	return callUnknown
}

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
}

// block reports whether the call's HTML is a block that must not be
// wrapped in <p> when it stands alone in a paragraph.
func (c *call) block() bool {
	return c.kind == callMore || c.kind == callFigure || c.kind == callHighlight || c.kind == callPlain
}

// expandCalls computes every call's HTML and Markdown.
func (st *state) expandCalls() {
	for _, c := range st.calls {
		switch c.kind {
		case callMore:
			c.md = ""
		case callFigure:
			st.figure(c)
		case callHighlight:
			st.highlight(c)
		case callRef, callRelref:
			st.ref(c)
		case callYouTube:
			st.youtube(c)
		}
	}
}

// figure renders Hugo's figure shortcode, minus its page-resource lookup:
// a relative src already resolves against the post's URL.
func (st *state) figure(c *call) {
	n := c.node
	src := n.Param("src", -1)
	if src == "" {
		st.issue(c.line, "figure: missing src")
	}
	img := st.figureDest(src, true, c.line)
	link := st.figureDest(n.Param("link", -1), false, c.line)
	alt, title, caption := n.Param("alt", -1), n.Param("title", -1), n.Param("caption", -1)
	capHTML, capMD := "", ""
	if caption != "" {
		capHTML, capMD = st.inlineMarkdown(caption, c.line)
	}
	if alt == "" && caption != "" {
		alt = stripTags(capHTML)
	}

	var b strings.Builder
	b.WriteString("<figure")
	attr(&b, "class", n.Param("class", -1))
	b.WriteString(">")
	if link.url != "" && !link.drop {
		b.WriteString("<a")
		attr(&b, "href", link.url)
		attr(&b, "target", n.Param("target", -1))
		attr(&b, "rel", n.Param("rel", -1))
		b.WriteString(">")
	}
	b.WriteString("<img")
	attr(&b, "src", img.url)
	if alt != "" {
		attr(&b, "alt", alt)
	}
	for _, a := range [...]string{"width", "height", "loading"} {
		attr(&b, a, n.Param(a, -1))
	}
	b.WriteString(">")
	if link.url != "" && !link.drop {
		b.WriteString("</a>")
	}
	st.figcaption(&b, c, title, capHTML)
	b.WriteString("</figure>\n")
	c.html = b.String()

	c.md = "![" + escapeLinkText(n.Param("alt", -1)) + "](" + markdownURL(img.md)
	if title != "" {
		c.md += ` "` + escapeTitle(title) + `"`
	}
	c.md += ")"
	if capMD = strings.Join(strings.Fields(capMD), " "); capMD != "" {
		c.md += "\n*" + capMD + "*"
	}
}

// figureDest resolves one of a figure's URLs (src, link, attrlink) as a
// Markdown destination is resolved, and leaves out javascript:, vbscript:,
// file: and data: URLs other than images unless raw HTML is allowed, as
// writeURL does for Markdown links: a figure's attributes are written by
// folio, so nothing else would clean them.
func (st *state) figureDest(dest string, image bool, line int) target {
	t := st.resolveDest(dest, image, line)
	if !st.r.opts.Unsafe && (html.IsDangerousURL([]byte(t.url)) || html.IsDangerousURL([]byte(t.md))) {
		return target{}
	}
	return t
}

func (st *state) figcaption(b *strings.Builder, c *call, title, capHTML string) {
	n := c.node
	attrText := n.Param("attr", -1)
	if title == "" && capHTML == "" && attrText == "" {
		return
	}
	b.WriteString("<figcaption>")
	if title != "" {
		// Hugo writes an <h4>; a heading here would jump from the page's
		// <h1> or <h2> and enter the outline, so the title is bold text.
		b.WriteString(`<p class="figure-title"><strong>` + template.HTMLEscapeString(title) + "</strong></p>")
	}
	if capHTML != "" || attrText != "" {
		b.WriteString("<p>" + capHTML)
		if attrText != "" {
			attrLink := st.figureDest(n.Param("attrlink", -1), false, c.line)
			if attrLink.url != "" && !attrLink.drop {
				b.WriteString(`<a href="` + template.HTMLEscapeString(attrLink.url) + `">`)
			}
			h, _ := st.inlineMarkdown(attrText, c.line)
			b.WriteString(h)
			if attrLink.url != "" && !attrLink.drop {
				b.WriteString("</a>")
			}
		}
		b.WriteString("</p>")
	}
	b.WriteString("</figcaption>")
}

// highlight renders Hugo's highlight shortcode: the language is the first
// argument, the code the inner text, de-indented and trimmed of blank
// lines around it as Hugo does. Line-number options are not supported.
func (st *state) highlight(c *call) {
	lang := c.node.Param("", 0)
	var b strings.Builder
	walkText(c.node.Inner, func(s string) { b.WriteString(s) })
	code := strings.Trim(deindent(normalizeNewlines(b.String())), "\n")
	var h strings.Builder
	// Hugo's highlight trims the newline a fenced block keeps.
	writeCode(&h, lang, code, &st.root().highlightBudget)
	c.html = h.String()
	c.md = fence(lang, code)
}

// ref renders ref and relref: both give the target's absolute URL, since
// every URL folio emits is absolute.
func (st *state) ref(c *call) {
	arg := c.node.Param("path", 0)
	c.url, c.dropped = st.resolveRef(arg, c.line)
	c.md = c.url
	c.html = template.HTMLEscapeString(c.url)
}

// youtube renders a plain link to the video: no iframe, no request to
// YouTube until the reader follows it.
func (st *state) youtube(c *call) {
	id := c.node.Param("id", 0)
	if id == "" {
		st.issue(c.line, "youtube: missing video id")
		return
	}
	title := c.node.Param("title", -1)
	if title == "" {
		title = "YouTube video"
	}
	u := "https://www.youtube.com/watch?v=" + url.QueryEscape(id)
	c.html = `<a href="` + template.HTMLEscapeString(u) + `">` + template.HTMLEscapeString(title) + "</a>"
	c.md = "[" + escapeLinkText(title) + "](" + u + ")"
}

// attr writes ` name="value"` when value is not empty.
func attr(b *strings.Builder, name, value string) {
	if value == "" {
		return
	}
	b.WriteString(" " + name + `="` + template.HTMLEscapeString(value) + `"`)
}

// deindent removes the indentation all non-blank lines share, as Hugo's
// .InnerDeindent does.
func deindent(s string) string {
	lines := strings.Split(s, "\n")
	prefix, first := "", true
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if first {
			prefix, first = ind, false
			continue
		}
		i := 0
		for i < len(prefix) && i < len(ind) && prefix[i] == ind[i] {
			i++
		}
		prefix = prefix[:i]
	}
	if prefix == "" {
		return s
	}
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			lines[i] = l[len(prefix):]
		} else {
			lines[i] = strings.TrimLeft(l, " \t") // a blank line
		}
	}
	return strings.Join(lines, "\n")
}

func normalizeNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s)
}
