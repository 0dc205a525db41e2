package render

import (
	"bufio"
	"bytes"
	"html"
	"html/template"
	"strings"

	emojiast "github.com/yuin/goldmark-emoji/ast"
	"github.com/yuin/goldmark/ast"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// resolveLinks settles every link and image of the parsed document
// before it is rendered: its destination becomes the final URL, a link
// to a hidden post is replaced by its text, and the matching edits of the
// Markdown alternate are noted.
func (st *state) resolveLinks(doc ast.Node) {
	if t := st.r.opts.Templates; t.hasHooks("link") || t.hasHooks("image") {
		st.hookWritten = map[ast.Node]string{}
	}
	for _, ls := range st.links {
		var dest *[]byte
		image := false
		switch n := ls.node.(type) {
		case *ast.Link:
			dest = &n.Destination
		case *ast.Image:
			dest, image = &n.Destination, true
		default:
			continue
		}
		raw := *dest
		line := st.line(ls.node.Pos())
		written := string(util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(raw))))
		written, dropped := st.substituteRefs(written)
		var t target
		if e, ok := st.embeddedDest(written, image); ok && !dropped {
			t = e
		} else if !dropped {
			t = st.resolveDest(written, image, line)
		}
		if dropped || t.drop {
			st.dropLink(ls)
			continue
		}
		*dest = []byte(t.url)
		if st.hookWritten != nil {
			st.hookWritten[ls.node] = written
		}
		if t.changed {
			if off := aliasOffset(st.src, raw); off >= 0 {
				st.edits = append(st.edits, edit{off, off + len(raw), markdownURL(t.md)})
			}
		}
	}
}

// substituteRefs replaces the ref placeholders in a destination by their
// URLs ({{< ref >}} inside a link is the usual way to link a post).
// dropped reports a ref to a hidden post.
func (st *state) substituteRefs(s string) (out string, dropped bool) {
	if len(st.calls) == 0 {
		return s, false
	}
	out = st.replacePlaceholders(s, func(c *call) string {
		dropped = dropped || c.dropped
		if c.url == "" && !c.dropped {
			return html.UnescapeString(c.html) // a site's shortcode writing a URL
		}
		return c.url
	})
	return out, dropped
}

// dropLink replaces a link by its text (an image by its alt text), in the
// tree and in the Markdown alternate. The issue was reported when the target was looked up.
func (st *state) dropLink(ls *linkSpan) {
	n := ls.node
	if parent := n.Parent(); parent != nil {
		for c := n.FirstChild(); c != nil; {
			next := c.NextSibling()
			parent.InsertBefore(parent, n, c)
			c = next
		}
		parent.RemoveChild(parent, n)
	}
	open, from := n.Pos(), n.Pos()
	if _, image := n.(*ast.Image); image && open >= 0 && open < len(st.src) && st.src[open] == '!' {
		open++ // an image's "![" goes: its alt text stays
	}
	if open >= 0 && open < ls.close && ls.close < ls.end && ls.end <= len(st.src) &&
		st.src[open] == '[' && st.src[ls.close] == ']' {
		st.edits = append(st.edits, edit{from, open + 1, ""}, edit{ls.close, ls.end, ""})
	}
}

// aliasOffset returns where b sits in src when b is a slice of src (as
// goldmark's link destinations usually are), else -1.
func aliasOffset(src, b []byte) int {
	if len(b) == 0 || len(src) == 0 {
		return -1
	}
	off := cap(src) - cap(b)
	if off < 0 || off+len(b) > len(src) || &src[off] != &b[0] {
		return -1
	}
	return off
}

// plainText is Hugo's TextPlain of a node's inline content: the text of
// heading IDs and of hooks' .PlainText. Like Hugo's, it follows only the
// first child of an inline container (emphasis, a link, a code span):
// with the typographer on, *"quoted"* gives its opening quote alone, and
// Hugo's id for '## Say *"Hi"*' is "say-". Placeholders are left in for
// the caller.
func plainText(n ast.Node, src []byte) string {
	var b bytes.Buffer
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		plainTextTo(&b, c, src)
	}
	return string(util.ResolveEntityNames(b.Bytes()))
}

func plainTextTo(b *bytes.Buffer, n ast.Node, src []byte) {
	switch n := n.(type) {
	case nil:
	case *ast.RawHTML:
		b.WriteString(strings.TrimSpace(stripTags(string(n.Segments.Value(src)))))
	case *ast.String:
		b.Write(n.Value)
	case *ast.Text:
		b.Write(n.Segment.Value(src))
		if n.HardLineBreak() || n.SoftLineBreak() {
			b.WriteByte('\n')
		}
	case *emojiast.Emoji:
		b.Write(n.ShortName)
	default:
		plainTextTo(b, n.FirstChild(), src)
	}
}

// altText is an image's alt text as Hugo writes it (goldmark's
// renderTexts): the text of every descendant, written as text is (the
// typographer's entities as they are, backslash escapes resolved, HTML
// escaped), placeholders as their calls' Markdown, escaped.
func (st *state) altText(wr ghtml.Writer, n ast.Node, src []byte) string {
	var b bytes.Buffer
	bw := bufio.NewWriter(&b)
	altTexts(wr, bw, n, src)
	_ = bw.Flush()
	s := b.String()
	if st == nil || len(st.calls) == 0 {
		return s
	}
	return st.replacePlaceholders(s, func(c *call) string { return template.HTMLEscapeString(c.md) })
}

func altTexts(wr ghtml.Writer, w util.BufWriter, n ast.Node, src []byte) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.String:
			switch {
			case c.IsCode():
				_, _ = w.Write(c.Value)
			case c.IsRaw():
				wr.RawWrite(w, c.Value)
			default:
				wr.Write(w, c.Value)
			}
		case *ast.Text:
			if c.IsRaw() {
				wr.RawWrite(w, c.Segment.Value(src))
				continue
			}
			wr.Write(w, c.Segment.Value(src))
			if c.HardLineBreak() || c.SoftLineBreak() {
				_ = w.WriteByte('\n')
			}
		default:
			altTexts(wr, w, c, src)
		}
	}
}

// replacePlaceholders replaces every placeholder in s by f(its call).
func (st *state) replacePlaceholders(s string, f func(*call) string) string {
	if !strings.Contains(s, string(st.prefix)) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, string(st.prefix))
		if i < 0 {
			break
		}
		c, n := st.callAt([]byte(s[i:]))
		if c == nil {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(f(c))
		s = s[i+n:]
	}
	b.WriteString(s)
	return b.String()
}

// stripTags is Hugo's plainify for the HTML folio itself produced: tags
// removed, entities decoded.
func stripTags(h string) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(h); i++ {
		switch c := h[i]; {
		case c == '<':
			in = true
		case c == '>':
			in = false
		case !in:
			b.WriteByte(c)
		}
	}
	return html.UnescapeString(b.String())
}
