package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"slices"
	"strings"

	"folio/pipeline"
)

// The Markdown alternate is the post's own Markdown with edits spliced
// in at the offsets goldmark reported: placeholders become the shortcodes'
// Markdown, relative link destinations become absolute, a link to a hidden
// post loses its brackets and destination. The author's formatting is
// kept byte for byte everywhere else.

// An edit replaces src[start:end] by repl.
type edit struct {
	start, end int
	repl       string
}

// markdown applies the edits to src.
func (st *state) markdown() string {
	var nl []int
	if len(st.calls) > 0 {
		nl = newlines(st.src)
	}
	if len(st.inserted) > 0 && nl == nil {
		nl = newlines(st.src)
	}
	for _, c := range st.calls {
		st.edits = append(st.edits, st.callEdit(c, nl))
	}
	for _, c := range st.inserted {
		if !c.inCode { // in code, the output shows as written
			st.edits = append(st.edits, st.callEdit(c, nl))
		}
	}
	// By start; of two edits at one place the longer first, so that an
	// edit inside another one (a ref inside a link) is skipped.
	slices.SortStableFunc(st.edits, func(a, b edit) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	var b strings.Builder
	b.Grow(len(st.src) + len(st.src)/8)
	pos := 0
	for _, e := range st.edits {
		if e.start < pos {
			continue
		}
		b.Write(st.src[pos:e.start])
		b.WriteString(e.repl)
		pos = e.end
	}
	b.Write(st.src[pos:])
	return tidy(b.String())
}

// callEdit replaces a placeholder by its call's Markdown. A <!--more-->
// alone on its line takes the line with it; the lines of a block's
// Markdown after the first get the container prefix of the placeholder's
// line ("> ", a list item's indentation).
// nl lists the offsets of src's newlines: a post may hold many calls on
// one long line, and searching the line for each would be quadratic.
func (st *state) callEdit(c *call, nl []int) edit {
	start, end := 0, len(st.src)
	if i, _ := slices.BinarySearch(nl, c.off); i > 0 {
		start = nl[i-1] + 1
	}
	if j, _ := slices.BinarySearch(nl, c.end); j < len(nl) {
		end = nl[j]
	}
	before, after := st.src[start:c.off], st.src[c.end:end]
	alone := len(bytes.TrimSpace(before)) == 0 && len(bytes.TrimSpace(after)) == 0
	if c.kind == callMore && alone {
		if end < len(st.src) {
			end++ // the newline
			// Between two blank lines, one blank line is enough.
			if start >= 2 && st.src[start-2] == '\n' && end < len(st.src) && st.src[end] == '\n' {
				end++
			}
		}
		return edit{start, end, ""}
	}
	repl := c.md
	if c.mdBlock && alone && repl != "" {
		// A block (details, a fenced block) stands apart from the text
		// around it, which may run on into the same paragraph.
		if start >= 2 && !blankLineBefore(st.src, start) {
			repl = "\n" + repl
		}
		if end < len(st.src) && !blankLineAfter(st.src, end) {
			repl += "\n"
		}
	}
	if strings.Contains(repl, "\n") {
		repl = strings.ReplaceAll(repl, "\n", "\n"+continuation(before))
	}
	return edit{c.off, c.end, repl}
}

// blankLineAfter reports whether the line after the newline at nl is
// blank (or there is none).
func blankLineAfter(src []byte, nl int) bool {
	rest := src[nl+1:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	return len(bytes.TrimSpace(rest)) == 0
}

// italic writes Markdown text as an italic line: between underscores when
// it holds asterisks (its own emphasis), else between asterisks.
func italic(s string) string {
	if strings.Contains(s, "*") && !strings.Contains(s, "_") {
		return "_" + s + "_"
	}
	return "*" + s + "*"
}

// newlines returns the offsets of the newlines in src, in order.
func newlines(src []byte) []int {
	var out []int
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			return out
		}
		out = append(out, i+j)
		i += j + 1
	}
}

// continuation turns the start of a line into the prefix that continues
// its container: "> " stays, list markers become spaces. Text yields "".
func continuation(prefix []byte) string {
	out := make([]byte, len(prefix))
	for i, c := range prefix {
		switch {
		case c == '>' || c == ' ' || c == '\t':
			out[i] = c
		case c == '-' || c == '*' || c == '+' || c == '.' || c == ')' || c >= '0' && c <= '9':
			out[i] = ' '
		default:
			return ""
		}
	}
	return string(out)
}

// tidy drops the blank lines at the start and the white space at the end,
// and ends a non-empty body with one newline.
func tidy(s string) string {
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 || strings.TrimSpace(s[:i]) != "" {
			break
		}
		s = s[i+1:]
	}
	s = strings.TrimRight(s, " \t\n")
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return s + "\n"
}

// markdownURL makes an absolute URL safe as a Markdown link destination.
func markdownURL(u string) string {
	depth, balanced := 0, true
	for i := 0; i < len(u); i++ {
		switch u[i] {
		case '(':
			depth++
		case ')':
			depth--
			balanced = balanced && depth >= 0
		}
	}
	balanced = balanced && depth == 0
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c <= ' ' || c == '<' || c == '>' || c == '\\' || c == 0x7f ||
			!balanced && (c == '(' || c == ')'):
			b.WriteString("%" + strings.ToUpper(hex2(c)))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

// escapeLinkText escapes what would end a link's text.
func escapeLinkText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`).Replace(s)
}

// escapeTitle escapes what would end a double-quoted link title.
func escapeTitle(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}

// fence writes code as a fenced block, with a fence longer than any run
// of backticks inside.
func fence(lang, code string) string {
	run, longest := 0, 0
	for i := 0; i < len(code); i++ {
		if code[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", max(3, longest+1))
	if fields := strings.Fields(strings.ReplaceAll(lang, "`", "")); len(fields) > 0 {
		lang = fields[0]
	} else {
		lang = ""
	}
	if code == "" {
		return f + lang + "\n" + f
	}
	return f + lang + "\n" + code + "\n" + f
}

// replaceLeftovers replaces the placeholders goldmark passed through
// without text nodes (in code, attributes, raw HTML) by their calls'
// HTML, as Hugo does: a call in a code block shows its output there. In
// a tag (an attribute's value), where HTML would break the markup, the
// call's Markdown stands, escaped.
func (st *state) replaceLeftovers(w *htmlWriter) {
	if len(st.calls) == 0 || !bytes.Contains(w.Bytes(), st.prefix) {
		return
	}
	in := bytes.Clone(w.Bytes())
	w.Reset()
	pos, newEnd := 0, -1
	inTag := false
	copyTo := func(end int) {
		if newEnd < 0 && st.summaryEnd >= pos && st.summaryEnd <= end {
			newEnd = w.Len() + st.summaryEnd - pos
		}
		for _, b := range in[pos:end] {
			switch b {
			case '<':
				inTag = true
			case '>':
				inTag = false
			}
		}
		w.Write(in[pos:end])
		pos = end
	}
	for {
		i := bytes.Index(in[pos:], st.prefix)
		if i < 0 {
			break
		}
		c, n := st.callAt(in[pos+i:])
		if c == nil {
			copyTo(pos + i + 1)
			continue
		}
		copyTo(pos + i)
		if inTag || c.kind == callMore {
			template.HTMLEscape(w, []byte(c.md))
		} else {
			w.WriteString(c.html)
		}
		pos += n
	}
	copyTo(len(in))
	st.summaryEnd = newEnd
}

// MarkdownDocument returns the whole text/markdown body of a post: the
// YAML block (title, description, date, tags, url, strings JSON-quoted),
// "# Title", then body, which is Result.Markdown. pageURL is the post's
// absolute URL.
func MarkdownDocument(p *pipeline.Post, pageURL, body string) []byte {
	var b bytes.Buffer
	// Room for all of it at once, quotes and escapes aside, rather than
	// the buffer's doublings up to a twin's size.
	size := len(body) + 2*len(p.Title) + len(p.Description) + len(pageURL) + 128
	for _, t := range p.Tags {
		size += len(t) + 4
	}
	b.Grow(size)
	b.WriteString("---\ntitle: ")
	b.WriteString(jsonString(p.Title))
	b.WriteString("\ndescription: ")
	b.WriteString(jsonString(p.Description))
	if !p.Date.IsZero() { // a page without a date has no date line
		b.WriteString("\ndate: ")
		b.WriteString(p.Date.UTC().Format("2006-01-02T15:04:05Z"))
	}
	b.WriteString("\ntags: [")
	for i, t := range p.Tags {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(jsonString(t))
	}
	b.WriteString("]\nurl: ")
	b.WriteString(jsonString(pageURL))
	b.WriteString("\n---\n\n# ")
	title := strings.Join(strings.Fields(p.Title), " ")
	if title == "" {
		title = p.Slug
	}
	b.WriteString(title)
	b.WriteString("\n")
	if body != "" {
		b.WriteString("\n")
		b.WriteString(body)
	}
	return b.Bytes()
}

// PageDocument is the Markdown twin of a page that is not a post (the
// home page, a list, the API page), in the article's form: front matter
// with title, description and url, then "# Title", then body.
func PageDocument(title, description, url, body string) []byte {
	var b bytes.Buffer
	b.Grow(len(body) + 2*len(title) + len(description) + len(url) + 64)
	b.WriteString("---\ntitle: " + jsonString(title))
	b.WriteString("\ndescription: " + jsonString(description))
	b.WriteString("\nurl: " + jsonString(url))
	b.WriteString("\n---\n\n# " + strings.Join(strings.Fields(title), " ") + "\n")
	if body != "" {
		b.WriteString("\n" + body)
	}
	return b.Bytes()
}

// jsonString quotes s as JSON does, without escaping <, > and & (the
// document is not HTML), and with every character YAML does not allow
// as it is escaped too: the front matter is YAML, whose double-quoted
// strings read JSON's escapes, but which refuses DEL, the C1 controls,
// U+FFFE and U+FFFF (YAML 1.2, c-printable) and reads U+0085 as a line
// break (issue 15, finding 15).
func jsonString(s string) string {
	if plainASCII(s) {
		return `"` + s + `"` // what the encoder writes for it
	}
	return quoteEscaped(s)
}

// plainASCII reports whether s is printable ASCII without a quote or a
// backslash: the strings JSON and YAML both take as they are, which
// most titles, descriptions, tags and URLs are (each twin quotes a
// few, and each went through an encoder of its own).
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// quoteEscaped is jsonString for any s, through encoding/json.
func quoteEscaped(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	q := strings.TrimSuffix(b.String(), "\n")
	if !strings.ContainsFunc(q, yamlEscapes) {
		return q
	}
	var out strings.Builder
	for _, r := range q {
		if yamlEscapes(r) {
			fmt.Fprintf(&out, `\u%04x`, r)
		} else {
			out.WriteRune(r)
		}
	}
	return out.String()
}

// yamlEscapes reports whether r must be escaped in YAML front matter
// after JSON's escaping: what YAML 1.2 does not count printable (JSON
// escapes the C0 controls already), line breaks to YAML 1.1 (U+0085,
// U+2028, U+2029), and a byte-order mark.
func yamlEscapes(r rune) bool {
	switch {
	case r == 0x7f, r >= 0x80 && r <= 0x9f, r == 0x2028, r == 0x2029, r == 0xfeff, r == 0xfffe, r == 0xffff:
		return true
	}
	return false
}
