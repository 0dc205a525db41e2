package render

import (
	"regexp"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// htmlToMarkdown is what the Markdown twin shows for HTML a site's
// template wrote: Markdown where the HTML has a Markdown form (paragraphs,
// headings, emphasis, links, images, lists, quotes, code, rules, line
// breaks), the text content elsewhere (a tab's label, a notice's body, a
// card's title), and nothing of what is not content (scripts, styles,
// forms, SVG drawings). Never tags: an agent reading the twin reads text.
func htmlToMarkdown(h string) string {
	if !hasTag(h) {
		return strings.TrimSpace(html.UnescapeString(h))
	}
	nodes, err := html.ParseFragment(strings.NewReader(h), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		return strings.TrimSpace(plainify(h))
	}
	w := &mdWriter{}
	for _, n := range nodes {
		w.node(n)
	}
	return w.result()
}

// mdWriter writes Markdown blocks separated by blank lines.
type mdWriter struct {
	blocks []string
	inline strings.Builder
	// prefix is what each line of a block starts with (list
	// indentation, "> ").
	listDepth int
	// cell writes a table cell's content, which is one line: a table
	// or a list in it is flattened to text (cellTable, cellList), a
	// line break is a space.
	cell bool
}

// flush ends the inline text as a block of its own.
func (w *mdWriter) flush() {
	if t := strings.TrimSpace(collapseSpace(w.inline.String())); t != "" {
		w.blocks = append(w.blocks, t)
	}
	w.inline.Reset()
}

func (w *mdWriter) result() string {
	w.flush()
	return strings.Join(w.blocks, "\n\n")
}

var spaceRun = regexp.MustCompile(`[ \t\r\n]+`)

// collapseSpace makes runs of white space one space, except the line
// breaks written for <br>.
func collapseSpace(s string) string {
	parts := strings.Split(s, "\x00")
	for i, p := range parts {
		parts[i] = spaceRun.ReplaceAllString(p, " ")
	}
	return strings.ReplaceAll(strings.Join(parts, "\\\n"), " \\\n", "\\\n")
}

// skipped elements are not content.
var skipped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Template: true, atom.Svg: true, atom.Noscript: true,
	atom.Button: true, atom.Input: true, atom.Select: true, atom.Textarea: true, atom.Iframe: true,
	atom.Object: true, atom.Embed: true, atom.Canvas: true, atom.Audio: true, atom.Video: true,
}

// blockElems end the text before them and after them.
var blockElems = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Section: true, atom.Article: true, atom.Aside: true, atom.Header: true,
	atom.Footer: true, atom.Nav: true, atom.Main: true, atom.Figure: true, atom.Figcaption: true,
	atom.Details: true, atom.Summary: true, atom.Dl: true, atom.Dt: true, atom.Dd: true, atom.Table: true,
	atom.Tr: true, atom.Caption: true, atom.Form: true, atom.Fieldset: true, atom.Address: true,
	atom.Center: true, atom.Label: true,
}

func (w *mdWriter) node(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.inline.WriteString(escapeMarkdownText(n.Data))
		return
	case html.ElementNode:
	case html.DocumentNode:
		w.children(n)
		return
	default:
		return
	}
	if skipped[n.DataAtom] {
		return
	}
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		w.flush()
		level := int(n.Data[1] - '0')
		w.inline.WriteString(strings.Repeat("#", level) + " ")
		w.children(n)
		w.flush()
	case atom.Br:
		if w.cell {
			w.inline.WriteString(" ")
			return
		}
		w.inline.WriteString("\x00")
	case atom.Hr:
		w.flush()
		w.blocks = append(w.blocks, "---")
	case atom.Strong, atom.B:
		w.wrap(n, "**")
	case atom.Em, atom.I:
		w.wrap(n, "*")
	case atom.Del, atom.S:
		w.wrap(n, "~~")
	case atom.Code:
		w.inline.WriteString(codeSpan(textOf(n)))
	case atom.A:
		href := attrOf(n, "href")
		text := strings.TrimSpace(collapseSpace(inlineOf(n)))
		switch {
		case href == "" || strings.HasPrefix(href, "javascript:"):
			w.inline.WriteString(text)
		case text == "":
			w.inline.WriteString("<" + href + ">")
		default:
			w.inline.WriteString("[" + text + "](" + markdownURL(href) + ")")
		}
	case atom.Img:
		if src := attrOf(n, "src"); src != "" {
			w.inline.WriteString("![" + escapeLinkText(attrOf(n, "alt")) + "](" + markdownURL(src) + ")")
		}
	case atom.Pre:
		w.flush()
		lang := ""
		if c := firstElement(n, atom.Code); c != nil {
			lang = strings.TrimPrefix(firstClass(attrOf(c, "class"), "language-"), "language-")
		} else if firstClass(attrOf(n, "class"), "mermaid") == "mermaid" {
			lang = "mermaid" // a diagram's source, as Markdown writes one
		}
		w.blocks = append(w.blocks, fence(lang, strings.TrimRight(textOf(n), "\n")))
	case atom.Ul, atom.Ol:
		if w.cell {
			w.inline.WriteString(" " + cellList(n) + " ")
			return
		}
		w.flush()
		w.list(n, n.DataAtom == atom.Ol)
	case atom.Blockquote:
		w.flush()
		inner := htmlChildrenMarkdown(n)
		if inner != "" {
			w.blocks = append(w.blocks, "> "+strings.ReplaceAll(inner, "\n", "\n> "))
		}
	case atom.Table:
		if w.cell {
			w.inline.WriteString(" " + cellTable(n) + " ")
			return
		}
		w.flush()
		if t := tableMarkdown(n); t != "" {
			w.blocks = append(w.blocks, t)
			return
		}
		w.children(n)
		w.flush()
	case atom.Summary, atom.Dt, atom.Th:
		w.flush()
		w.wrap(n, "**")
		w.flush()
	case atom.Td:
		w.children(n)
		w.inline.WriteString(" ")
	default:
		if blockElems[n.DataAtom] {
			w.flush()
			w.children(n)
			w.flush()
			return
		}
		w.children(n)
	}
}

func (w *mdWriter) children(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.node(c)
	}
}

// wrap writes an inline element's content between marks, when it has
// any.
func (w *mdWriter) wrap(n *html.Node, mark string) {
	inner := inlineOf(n)
	if strings.TrimSpace(inner) == "" {
		w.inline.WriteString(inner)
		return
	}
	lead := inner[:len(inner)-len(strings.TrimLeft(inner, " \t\n"))]
	trail := inner[len(strings.TrimRight(inner, " \t\n")):]
	w.inline.WriteString(lead + mark + strings.TrimSpace(inner) + mark + trail)
}

// list writes a list's items, nested lists indented.
func (w *mdWriter) list(n *html.Node, ordered bool) {
	var lines []string
	k := 1
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || c.DataAtom != atom.Li {
			continue
		}
		marker := "- "
		if ordered {
			marker = itoa(k) + ". "
			k++
		}
		body := htmlChildrenMarkdown(c)
		switch attrOf(c, "class") { // go-org's task list items
		case "checked":
			body = "[x] " + body
		case "unchecked":
			body = "[ ] " + body
		}
		indent := strings.Repeat(" ", len(marker))
		lines = append(lines, marker+indentLines(body, indent))
	}
	if len(lines) > 0 {
		w.blocks = append(w.blocks, strings.Join(lines, "\n"))
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// htmlChildrenMarkdown is the Markdown of an element's content.
func htmlChildrenMarkdown(n *html.Node) string {
	w := &mdWriter{}
	w.children(n)
	return w.result()
}

// inlineOf is the Markdown of an element's content, on one line.
func inlineOf(n *html.Node) string {
	w := &mdWriter{}
	w.children(n)
	w.flush()
	return strings.Join(w.blocks, " ")
}

// textOf is the text of a node, as written.
func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func attrOf(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

func firstElement(n *html.Node, a atom.Atom) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == a {
			return c
		}
	}
	return nil
}

func firstClass(classes, prefix string) string {
	for _, c := range strings.Fields(classes) {
		if strings.HasPrefix(c, prefix) {
			return c
		}
	}
	return ""
}

// codeSpan writes code as a Markdown code span.
func codeSpan(s string) string {
	ticks := "`"
	for strings.Contains(s, ticks) {
		ticks += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return ticks + " " + s + " " + ticks
	}
	return ticks + s + ticks
}

// escapeMarkdownText escapes what would make text Markdown syntax
// (emphasis, links, HTML) when it is read as Markdown again.
func escapeMarkdownText(s string) string {
	return mdEscaper.Replace(s)
}

var mdEscaper = strings.NewReplacer(`\`, `\\`, "*", `\*`, "`", "\\`", "[", `\[`, "]", `\]`, "<", `\<`)

// tableMarkdown writes a table as a GFM table: a header row (the
// thead's, else the first row when its cells are all th), then the
// body's rows; each cell's content on one line (cellOf), | escaped. A
// table without a header row gets an empty one, GFM's only way to write
// it (the first row is data, not headings). A table without rows is ""
// (its text, if any, stands instead).
func tableMarkdown(n *html.Node) string {
	var rows [][]string
	var header []string
	var walk func(*html.Node, bool)
	walk = func(n *html.Node, inHead bool) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.DataAtom {
			case atom.Thead:
				walk(c, true)
			case atom.Tbody, atom.Tfoot:
				walk(c, false)
			case atom.Tr:
				var cells []string
				allTh := true
				for d := c.FirstChild; d != nil; d = d.NextSibling {
					if d.Type == html.ElementNode && (d.DataAtom == atom.Td || d.DataAtom == atom.Th) {
						allTh = allTh && d.DataAtom == atom.Th
						cells = append(cells, strings.ReplaceAll(cellOf(d), "|", `\|`))
					}
				}
				if header == nil && len(rows) == 0 && (inHead || allTh) && len(cells) > 0 {
					header = cells
				} else if len(cells) > 0 {
					rows = append(rows, cells)
				}
			}
		}
	}
	walk(n, false)
	if header == nil && len(rows) == 0 {
		return ""
	}
	width := len(header)
	for _, r := range rows {
		width = max(width, len(r))
	}
	line := func(cells []string) string {
		for len(cells) < width {
			cells = append(cells, "")
		}
		return "| " + strings.Join(cells, " | ") + " |"
	}
	out := []string{line(header), line(slices.Repeat([]string{"---"}, width))}
	for _, r := range rows {
		out = append(out, line(r))
	}
	return strings.Join(out, "\n")
}

// cellOf is the Markdown of a table cell's content on one line.
func cellOf(d *html.Node) string {
	w := &mdWriter{cell: true}
	w.children(d)
	w.flush()
	return strings.TrimSpace(collapseSpace(strings.Join(w.blocks, " ")))
}

// cellTable is a table inside a table's cell, as text: each row's
// cells (cellOf) joined by ", ", the rows by "; ". A GFM cell holds
// one line of inline content, so a table in it cannot be one.
func cellTable(n *html.Node) string {
	var rows []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.DataAtom {
			case atom.Thead, atom.Tbody, atom.Tfoot:
				walk(c)
			case atom.Tr:
				var cells []string
				for d := c.FirstChild; d != nil; d = d.NextSibling {
					if d.Type == html.ElementNode && (d.DataAtom == atom.Td || d.DataAtom == atom.Th) {
						if t := cellOf(d); t != "" {
							cells = append(cells, t)
						}
					}
				}
				if len(cells) > 0 {
					rows = append(rows, strings.Join(cells, ", "))
				}
			}
		}
	}
	walk(n)
	return strings.Join(rows, "; ")
}

// cellList is a list inside a table's cell, as text: its items
// (cellOf) joined by "; ".
func cellList(n *html.Node) string {
	var items []string
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Li {
			if t := cellOf(c); t != "" {
				items = append(items, t)
			}
		}
	}
	return strings.Join(items, "; ")
}

// indentLines indents every line of s but the first, and the empty ones.
func indentLines(s, indent string) string {
	lines := strings.Split(s, "\n")
	for i := 1; i < len(lines); i++ {
		if lines[i] != "" {
			lines[i] = indent + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}
