package render

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Goldmark is linear on ordinary text but quadratic (or worse) on a few
// shapes of input an editor will not produce but a file can hold. This
// file bounds them, measured with BenchmarkPathological:
//
//   - linkify looks for an e-mail address after every space, "*", "_",
//     "~" and "(", scanning the run of address characters that follows:
//     "*a*a*a…" costs the square of its length. linkifyGuard remembers
//     the run and lets goldmark scan only where an "@" ends it.
//   - Every open container costs each line that continues it, with a
//     column computed from the start of the line, so nesting depth d
//     costs d² per line and d³ overall. defuse caps the containers a line
//     opens at maxNesting, and the indentation at maxIndent columns.
//   - An inline link destination is scanned to the end of its line, so a
//     line of many "](" costs their number times its length. defuse
//     escapes the "(" of such a line when that product is too large.
//   - Each "]" walks the nodes after the "[" it closes: thousands of
//     nested "[" cost the square of their number. Past maxBrackets open
//     brackets, defuse makes the paragraph's brackets text.
//   - Link reference definitions in one paragraph cost the square of
//     their number; defuse puts a blank line between every maxRefDefs.
//   - chroma highlights about half a megabyte a second: a post gets
//     maxHighlightPost bytes of highlighting (highlight.go), the rest is
//     plain code.
//
// Defused text renders as literal characters, which is what such input
// looks like anyway; a post that needed it gets an Issue.

const (
	maxNesting   = 64
	maxIndent    = 256
	maxLinkScans = 1 << 24 // "](" count × line length
	maxBrackets  = 256     // open "[" in one paragraph
	maxRefDefs   = 128     // link reference definitions in one paragraph
)

// linkifyGuard is goldmark's linkify parser, skipped where it would only
// rescan a run of address characters not followed by "@".
type linkifyGuard struct{ parser.InlineParser }

func (g linkifyGuard) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	rest := line
	if len(rest) > 0 && strings.IndexByte(" *_~(", rest[0]) >= 0 {
		rest = rest[1:]
	}
	st, _ := pc.Get(stateKey).(*state)
	if st == nil || hasURLPrefix(rest) {
		return g.InlineParser.Parse(parent, block, pc)
	}
	if len(rest) > 0 && util.IsPunct(rest[0]) {
		return nil // linkify gives up on these at once
	}
	start := seg.Start + len(line) - len(rest)
	if st.nextAt(block.Source(), start, seg.Stop) >= seg.Stop {
		return nil // no "@" in the rest of the line: most lines
	}
	at := st.emailRunEnd(block.Source(), start, seg.Stop)
	if at >= seg.Stop || block.Source()[at] != '@' || at == st.emailFailed {
		return nil
	}
	n := g.InlineParser.Parse(parent, block, pc)
	if n == nil {
		// The domain after this "@" is no address's: the same for every
		// start in the run.
		st.emailFailed = at
	}
	return n
}

func hasURLPrefix(b []byte) bool {
	return bytes.HasPrefix(b, []byte("http:")) || bytes.HasPrefix(b, []byte("https:")) ||
		bytes.HasPrefix(b, []byte("ftp:")) || bytes.HasPrefix(b, []byte("www."))
}

// nextAt returns the offset of the next "@" at or after start and before
// stop (stop if none), searching each stretch of a line once.
func (st *state) nextAt(src []byte, start, stop int) int {
	if start >= st.atFrom && start <= st.atNext && stop == st.atStop {
		return st.atNext
	}
	next := stop
	if i := bytes.IndexByte(src[start:stop], '@'); i >= 0 {
		next = start + i
	}
	st.atFrom, st.atNext, st.atStop = start, next, stop
	return next
}

// emailRunEnd returns the end of the run of address characters starting
// at start, scanning each run once.
func (st *state) emailRunEnd(src []byte, start, stop int) int {
	if start >= st.emailFrom && start < st.emailEnd {
		return st.emailEnd
	}
	end := start
	for end < stop && isEmailChar(src[end]) {
		end++
	}
	st.emailFrom, st.emailEnd = start, end
	return end
}

// isEmailChar matches the characters goldmark's FindEmailIndex accepts
// before the "@".
func isEmailChar(c byte) bool { return emailChars[c] }

var emailChars = func() (t [256]bool) {
	for _, c := range []byte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-./=?^_`{|}~") {
		t[c] = true
	}
	return t
}()

// defuse bounds nesting, indentation, bracket depth and link-destination
// scans, paragraph by paragraph outside fenced code. visible reports a
// change that shows in the output (an inserted blank line between link
// reference definitions does not).
func defuse(s string) (out string, visible bool) {
	if len(s) < maxNesting {
		return s, false // too short to nest deep
	}
	// The rewritten text is built only from the first paragraph that
	// changes: nearly every text is returned as it is.
	var b *strings.Builder
	done := 0 // s[:done] is in b
	var para []string
	paraStart := 0
	flush := func(end int) {
		if len(para) == 0 {
			return
		}
		v, changed := defuseParagraph(para)
		visible = visible || v
		if changed {
			if b == nil {
				b = &strings.Builder{}
				b.Grow(len(s) + 64)
			}
			b.WriteString(s[done:paraStart])
			for _, l := range para {
				b.WriteString(l)
			}
			done = end
		}
		para = para[:0]
	}
	fence := ""
	for pos := 0; pos < len(s); {
		lineStart, line := pos, s[pos:]
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i+1]
		}
		pos += len(line)
		switch f := fenceOf(line); {
		case f != "" && (fence == "" || strings.HasPrefix(f, fence)):
			flush(lineStart)
			if fence == "" {
				fence = f
			} else {
				fence = ""
			}
		case fence != "":
			// Code is not parsed as Markdown.
		case strings.TrimSpace(line) == "":
			flush(lineStart)
		default:
			if len(para) == 0 {
				paraStart = lineStart
			}
			para = append(para, line)
		}
	}
	flush(len(s))
	if b == nil {
		return s, false
	}
	b.WriteString(s[done:])
	return b.String(), visible
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

// defuseParagraph rewrites the lines of one paragraph in place.
func defuseParagraph(lines []string) (visible, changed bool) {
	defs := 0
	for i, line := range lines {
		fixed := capContainers(line)
		if n := strings.Count(fixed, "]("); n > 1 && n*len(fixed) > maxLinkScans {
			fixed = strings.ReplaceAll(fixed, "](", `]\(`)
		}
		if fixed != line {
			lines[i], visible = fixed, true
		}
		// goldmark's paragraph transformer is quadratic in the number of
		// link reference definitions in one paragraph; a blank line
		// between two of them changes nothing else.
		if isRefDef(line) {
			if defs++; defs%maxRefDefs == 0 && i+1 < len(lines) && isRefDef(lines[i+1]) {
				lines[i] += "\n"
				changed = true
			}
		} else {
			defs = 0
		}
	}
	if bracketDepth(lines) > maxBrackets {
		// Every "]" walks the nodes after its open "["; so many open
		// brackets are text.
		r := strings.NewReplacer("[", `\[`, "]", `\]`)
		for i, l := range lines {
			lines[i] = r.Replace(l)
		}
		visible = true
	}
	return visible, changed || visible
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
