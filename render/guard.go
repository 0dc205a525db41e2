package render

import "strings"

// Goldmark is linear on ordinary text but quadratic (or worse), or very
// hungry, on a few shapes of input an editor will not produce but a file
// can hold. This file bounds them, measured with BenchmarkPathological:
//
//   - linkify looks for an e-mail address after every space, "*", "_",
//     "~" and "(", scanning the run of address characters that follows:
//     "*a*a*a…" costs the square of its length. linkifyGuard lets it scan
//     only where an "@" ends the run.
//   - Every open container costs each line that continues it, with a
//     column computed from the start of the line, so nesting depth d
//     costs d² per line and d³ overall. defuse caps the containers a line
//     opens at maxNesting (the marker after that is escaped, and shows as
//     text), and the indentation at maxIndent blanks.
//   - An inline link destination is scanned to the end of its line, so a
//     line of many "](" costs their number times its length; each "]"
//     walks the nodes after the "[" it closes, so thousands of nested "["
//     cost the square of their number.
//   - Every markup character can become a node of a few hundred bytes:
//     a megabyte of "*a" is 260 MB of tree.
//   - Link reference definitions in one paragraph cost the square of
//     their number; defuse puts a blank line between every maxRefDefs.
//   - The passthrough extension (math) scans from an opening delimiter
//     to its closing one across the paragraph's lines; an opening `\(`
//     with no `\)` after it is scanned to the paragraph's end, and so
//     is every one after it: thousands of them cost their number times
//     the paragraph's length. passthroughScans counts that cost, which
//     is charged as markup, one character per scansPerMarkup bytes.
//   - chroma highlights a few hundred kilobytes a second: a post gets
//     maxHighlightPost bytes of highlighting (highlight.go), the rest is
//     plain code.
//
// A paragraph past those bounds (maxParagraphMarkup markup characters and
// lines, maxBrackets open brackets, a line of runaway "](" or of unclosed
// passthrough delimiters, or past the post's maxPostMarkup) is not given to goldmark: it is shown as plain
// text, which is what such input looks like anyway, and the post gets an
// Issue. Ordinary posts are far below every bound.

const (
	maxNesting         = 64
	maxIndent          = 256
	maxLinkScans       = 1 << 24 // "](" count × line length
	maxBrackets        = 256     // open "[" in one paragraph
	maxRefDefs         = 128     // link reference definitions in one paragraph
	maxParagraphMarkup = 20_000  // markup characters and lines in one paragraph
	maxPostMarkup      = 400_000 // and in a whole post
	scansPerMarkup     = 1 << 10 // bytes the passthrough parser scans, per markup character
)

// A piece is part of a text after defuse: Markdown to parse, or a
// paragraph to show as plain text. line is where it starts, counted in
// lines from the start of the text.
type piece struct {
	text  string
	plain bool
	line  int
}

// extensionGuard is what defuse needs to know of the extensions a site
// turned on: the passthrough delimiters, and the characters the extras
// and passthrough extensions make nodes from, which count as markup.
type extensionGuard struct {
	pairs [][2]string
	chars [256]bool
}

// newExtensionGuard is the guard for m's extensions; nil when the
// extensions are off, as by default.
func newExtensionGuard(m *Markup) *extensionGuard {
	g := &extensionGuard{}
	add := func(on bool, chars string) {
		if on {
			for i := range len(chars) {
				g.chars[chars[i]] = !markupChars[chars[i]]
			}
		}
	}
	x := m.Extras
	add(x.Superscript, "^")
	add(x.Subscript || x.Delete, "~")
	add(x.Insert, "+")
	add(x.Mark, "=")
	if pt := m.Passthrough; pt.Enable {
		g.pairs = append(append(g.pairs, pt.Inline...), pt.Block...)
		for _, d := range g.pairs {
			if d[0] != "" {
				add(true, d[0][:1])
			}
		}
	}
	if g.pairs == nil && g.chars == ([256]bool{}) {
		return nil
	}
	return g
}

// defuse bounds what goldmark is given, paragraph by paragraph outside
// fenced code. budget is what is left of the post's maxPostMarkup, and is
// spent; g is the guard of the site's extensions (nil for none). It returns nil when s needs no change; shown is the line of the
// first change that shows in the output (a blank line between link
// reference definitions does not), -1 if none.
func defuse(s string, budget *int, g *extensionGuard) (pieces []piece, shown int) {
	shown = -1
	if *budget < 0 {
		// The post is spent: the rest of it is one plain piece, not a
		// node per paragraph.
		return []piece{{text: s, plain: true}}, 0
	}
	done, doneLine := 0, 0 // s[:done], doneLine lines, is in pieces
	var para []string
	paraStart, paraLine := 0, 0
	// flush decides about the paragraph in para, which ends at offset end
	// and line endLine.
	flush := func(end, endLine int) {
		if len(para) == 0 {
			return
		}
		var act action
		if paraStart > 0 && htmlBlockStart(para[0]) {
			// An HTML block goldmark keeps as raw lines to the next blank
			// one: no inline parsing, no containers; its lines cost one
			// each. (Not at the text's start: that may be mid-line, after
			// a shortcode.)
			*budget -= blockCost + len(para)
		} else {
			act = defuseParagraph(para, budget, g)
		}
		if *budget < 0 {
			end, act = len(s), plain // and all that follows
		}
		if act != keep {
			if done < paraStart {
				pieces = append(pieces, piece{text: s[done:paraStart], line: doneLine})
			}
			if act == plain {
				pieces = append(pieces, piece{text: s[paraStart:end], plain: true, line: paraLine})
			} else {
				pieces = append(pieces, piece{text: strings.Join(para, ""), line: paraLine})
			}
			if act != rewriteQuiet && shown < 0 {
				shown = paraLine
			}
			done, doneLine = end, endLine
		}
		para = para[:0]
	}
	fence, lineNo := "", 0
	for pos := 0; pos < len(s) && done < len(s); lineNo++ {
		lineStart, line := pos, s[pos:]
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i+1]
		}
		pos += len(line)
		switch f := fenceOf(line); {
		case f != "" && (fence == "" || strings.HasPrefix(f, fence)):
			flush(lineStart, lineNo)
			if fence == "" {
				fence = f
			} else {
				fence = ""
			}
		case fence != "":
			// Code is not parsed as Markdown.
		case strings.TrimSpace(line) == "":
			flush(lineStart, lineNo)
		default:
			if len(para) == 0 {
				paraStart, paraLine = lineStart, lineNo
			}
			para = append(para, line)
		}
	}
	if done < len(s) {
		flush(len(s), lineNo)
	}
	if pieces == nil {
		return nil, -1
	}
	if done < len(s) {
		pieces = append(pieces, piece{text: s[done:], line: doneLine})
	}
	return pieces, shown
}

// htmlBlockStart reports whether line, at the start of a block with no
// indentation, opens one of CommonMark's HTML blocks of type 6 (a block
// tag: <div, </table, <details>), which end at a blank line.
func htmlBlockStart(line string) bool {
	rest, ok := strings.CutPrefix(line, "<")
	if !ok {
		return false
	}
	if r, ok := strings.CutPrefix(rest, "/"); ok {
		rest = strings.TrimLeft(r, " ")
	}
	n := 0
	for n < len(rest) && (isASCIILetter(rest[n]) || n > 0 && (rest[n] >= '0' && rest[n] <= '9' || rest[n] == '-')) {
		n++
	}
	if n == 0 || !htmlBlockTags[strings.ToLower(rest[:n])] {
		return false
	}
	after := rest[n:]
	return after == "" || after[0] == ' ' || after[0] == '>' || after[0] == '\n' || after[0] == '\r' ||
		strings.HasPrefix(after, "/>")
}

// htmlBlockTags are the tags that open an HTML block of type 6, as the
// CommonMark spec (0.31) lists them, and meta, as goldmark reads them.
var htmlBlockTags = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range strings.Fields(`address article aside base basefont blockquote body caption center
		col colgroup dd details dialog dir div dl dt fieldset figcaption figure footer form frame
		frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link main menu menuitem
		meta nav noframes ol optgroup option p param search section summary table tbody td tfoot th
		thead title tr track ul`) {
		m[t] = true
	}
	return m
}()

// What defuse does with a paragraph.
type action uint8

const (
	keep         action = iota
	rewrite             // lines changed (nesting capped)
	rewriteQuiet        // blank lines added between reference definitions
	plain               // shown as plain text
)

// defuseParagraph decides about one paragraph, rewriting its lines in
// place when it keeps it as Markdown.
func defuseParagraph(lines []string, budget *int, g *extensionGuard) action {
	markup := blockCost
	for _, l := range lines {
		markup += markupCount(l) + 1 // a line is a node too
	}
	if g != nil {
		for _, l := range lines {
			for i := range len(l) {
				if g.chars[l[i]] {
					markup++
				}
			}
		}
		markup += passthroughScans(lines, g.pairs) / scansPerMarkup
	}
	*budget -= markup
	if markup > maxParagraphMarkup || *budget < 0 || bracketDepth(lines) > maxBrackets {
		return plain
	}
	act := keep
	defs := 0
	for i, line := range lines {
		if n := strings.Count(line, "]("); n > 1 && n*len(line) > maxLinkScans {
			return plain
		}
		if fixed := capContainers(line); fixed != line {
			lines[i], act = fixed, rewrite
		}
		// goldmark's paragraph transformer is quadratic in the number of
		// link reference definitions in one paragraph; a blank line
		// between two of them changes nothing else.
		if isRefDef(line) {
			if defs++; defs%maxRefDefs == 0 && i+1 < len(lines) && isRefDef(lines[i+1]) {
				lines[i] += "\n"
				if act == keep {
					act = rewriteQuiet
				}
			}
		} else {
			defs = 0
		}
	}
	return act
}

// passthroughScans is at most what the passthrough extension's inline
// parser scans in a paragraph, bar one length per pair: each opening
// delimiter with no closing one after it is scanned to the end. (An
// opening delimiter with a closing one after it is scanned to there, and
// the parser goes on after it; a pair whose delimiters are the same has
// no opening one after its last closing one.)
func passthroughScans(lines []string, pairs [][2]string) int {
	var p string
	total := 0
	for _, d := range pairs {
		if d[0] == d[1] || d[0] == "" || d[1] == "" {
			continue
		}
		if p == "" {
			p = strings.Join(lines, "")
		}
		from := 0
		if i := strings.LastIndex(p, d[1]); i >= 0 {
			from = i + len(d[1])
		}
		for {
			j := strings.Index(p[from:], d[0])
			if j < 0 {
				break
			}
			total += len(p) - (from + j)
			from += j + len(d[0])
		}
	}
	return total
}

// markupChars are the characters from which goldmark's parsers make
// nodes: delimiters, brackets, code, HTML, entities, escapes, quotes,
// table cells, e-mail addresses.
var markupChars = func() (t [256]bool) {
	for _, c := range []byte("*_~[]<>`&\\'\"|@") {
		t[c] = true
	}
	return t
}()

// blockCost is what a paragraph (or heading, or list item) costs beside
// its characters: a heading is a dozen allocations and an id.
const blockCost = 8

// markupCount counts the markup characters of a line, and its "www."
// links.
func markupCount(s string) int {
	n := strings.Count(s, "www.")
	for i := 0; i < len(s); i++ {
		if markupChars[s[i]] {
			n++
		}
	}
	return n
}

// fenceOf returns the fence a line opens or closes ("```", "~~~~"), or "".
func fenceOf(line string) string {
	t := strings.TrimLeft(line, " \t>")
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(t) && t[n] == c {
			n++
		}
		if n >= 3 {
			return t[:n]
		}
	}
	return ""
}

func isRefDef(line string) bool {
	t := strings.TrimLeft(line, " ")
	return len(line)-len(t) <= 3 && strings.HasPrefix(t, "[") && strings.Contains(t, "]:")
}

// bracketDepth is the deepest nesting of unescaped "[" in the lines.
func bracketDepth(lines []string) int {
	depth, deepest := 0, 0
	for _, l := range lines {
		for i := 0; i < len(l); i++ {
			switch l[i] {
			case '\\':
				i++
			case '[':
				depth++
				deepest = max(deepest, depth)
			case ']':
				depth = max(depth-1, 0)
			}
		}
	}
	return deepest
}

// capContainers escapes the container marker beyond maxNesting at the
// start of a line ("> > > …", "- - - …", "1. 1. …") and drops
// indentation beyond maxIndent blanks.
func capContainers(line string) string {
	var b strings.Builder
	changed := false
	markers, blanks, i := 0, 0, 0
	for i < len(line) {
		c := line[i]
		if c == ' ' || c == '\t' {
			blanks++
			if blanks > maxIndent {
				changed = true
			} else {
				b.WriteByte(c)
			}
			i++
			continue
		}
		n := markerLen(line[i:])
		if n == 0 {
			break
		}
		markers++
		if markers > maxNesting {
			// A backslash before the marker's last character ("\>",
			// "\-", "1\.") makes it text.
			b.WriteString(line[i : i+n-1])
			b.WriteByte('\\')
			b.WriteString(line[i+n-1:])
			return b.String()
		}
		b.WriteString(line[i : i+n])
		i += n
	}
	if !changed {
		return line
	}
	b.WriteString(line[i:])
	return b.String()
}

// markerLen is the length of the container marker at the start of s: ">",
// "-", "*" or "+" before a blank, or up to nine digits and "." or ")"
// before a blank; 0 if there is none.
func markerLen(s string) int {
	blankAt := func(i int) bool { return i < len(s) && (s[i] == ' ' || s[i] == '\t') }
	switch c := s[0]; {
	case c == '>':
		return 1
	case c == '-' || c == '*' || c == '+':
		if blankAt(1) {
			return 1
		}
	case c >= '0' && c <= '9':
		j := 0
		for j < len(s) && j < 9 && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j < len(s) && (s[j] == '.' || s[j] == ')') && blankAt(j+1) {
			return j + 1
		}
	}
	return 0
}
