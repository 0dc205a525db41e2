package render

import (
	"bytes"
	"regexp"
	"strings"
)

// go-org, like Hugo with it, looks for the end of a block (#+BEGIN_X),
// a drawer (:NAME:) or a LaTeX environment (\begin{x}) in every line
// after it, and parses those lines again for each one left open: a few
// thousand open blocks take it minutes (5,000 open quotes, 70 KB, took
// 14 s; 20,000 property drawers, more than 20 s). orgTooDense bounds
// that work before go-org runs: the lines it would scan for every
// opener, up to its closer, else to the end. Past the bound the post
// shows as written, with an issue, as a Markdown paragraph past
// guard.go's bounds does.

// maxOrgScan is the most lines go-org may scan for openers' ends: 2^16,
// a few hundred open blocks or environments (1,000 open
// \begin{equation} lines, 5*10^5 scans, took seconds).
// maxOrgFootnoteScan bounds go-org's lookups of footnote references
// without a definition: WriteFootnotes looks each one up among all the
// named references (a map walk, some 8 ns a name), so they cost
// (undefined names) x (named references): 2,000 undefined took 34 ms,
// 4,000 125 ms, 8,000 540 ms, 16,000 2.1 s (go-org v1.9.1's Parse and
// Write, CPU time, at load 25-35). 2^22 is some 35 ms per write: 2,048
// references without a definition, or fewer among more defined ones.
// A defined reference costs no lookup: 40,000 of them with their
// definitions took 0.43 s, 10 us each, linear. maxOrgListDepth bounds
// the nesting of lists, which go-org parses again for each level (a
// list 2,000 deep took 7 s, 100 deep 13 ms).
//
// Headlines are not bounded: go-org's cost is linear in them, some
// 10 us a headline for Parse and Write (5,000 took 44 ms, 20,000 182 ms,
// 80,000 0.77 s; as bare "* h" lines 4 us each; nested 4 levels the
// same), and folio's render (its twin and description too) some 45 us
// a headline (20,000 0.95 s, 40,000 1.9 s), as much per byte as a
// paragraph's: no more than the size of the post, as for Markdown.
const (
	maxOrgScan         = 1 << 16
	maxOrgFootnoteScan = 1 << 22
	maxOrgListDepth    = 100
)

var (
	orgBeginBlock = regexp.MustCompile(`(?i)^\s*#\+BEGIN_(\w+)`)
	orgEndBlock   = regexp.MustCompile(`(?i)^\s*#\+END_(\w+)`)
	orgBeginLatex = regexp.MustCompile(`(?i)^\s*\\begin{([^}]+)}\s*$`)
	orgEndLatex   = regexp.MustCompile(`(?i)^\s*\\end{([^}]+)}\s*$`)
	orgDrawer     = regexp.MustCompile(`^\s*:\S+:\s*$`)
	orgDrawerEnd  = regexp.MustCompile(`(?i)^\s*:END:\s*$`)
	orgHeadline   = regexp.MustCompile(`^\*+\s`)
	orgListItem   = regexp.MustCompile(`^(\s*)(?:[-+*]|[0-9]+[.)]|[a-zA-Z][.)])(?:\s|$)`)
	// go-org's footnote definition (a line's start) and reference,
	// which may define it inline ([fn:name:text], [fn::text]).
	orgFootnoteDef = regexp.MustCompile(`^\[fn:([\w-]+)\](?:\s|$)`)
	orgFootnoteRef = regexp.MustCompile(`\[fn:([\w-]*)(?::([^\n]*?))?\]`)
	// a headline that may be a COMMENT one or have tags.
	orgMaybeExcluded = regexp.MustCompile(`COMMENT|\s:\S+:\s*$`)
)

// orgTooDense says why go-org would take too long over src, "" when it
// would not: lists nested more than maxOrgListDepth deep, more than
// maxOrgScan lines to scan for the ends of its openers, or more than
// maxOrgFootnoteScan lookups of references without a definition. The
// offset is where the bound is passed (for the scans, the first opener
// left open), for the warning's line.
func orgTooDense(src []byte) (string, int) {
	if at := orgListTooDeep(src); at >= 0 {
		return "lists nested too deep", at
	}
	hasFootnotes := bytes.Contains(src, []byte("[fn:"))
	if !hasFootnotes && !bytes.Contains(src, []byte("#+")) && !bytes.Contains(src, []byte(`\begin{`)) && !bytes.Contains(src, []byte(":")) {
		return "", 0
	}
	lines := strings.Split(string(src), "\n")
	// next closers, seen from the end: per block name, per environment,
	// and :END:.
	nextBlock, nextLatex := map[string]int{}, map[string]int{}
	nextDrawer := len(lines)
	cost, open := 0, -1
	// inside marks the lines of closed blocks, drawers and environments
	// (while cost is in bound), whose footnote definitions are not
	// counted: a src block's "[fn:1] x" is its text, not a definition.
	var inside []bool
	if hasFootnotes {
		inside = make([]bool, len(lines))
	}
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if !strings.ContainsAny(l, `#\:`) {
			continue
		}
		end := -1
		switch {
		case orgEndBlock.MatchString(l):
			nextBlock[strings.ToUpper(orgEndBlock.FindStringSubmatch(l)[1])] = i
		case orgEndLatex.MatchString(l):
			nextLatex[strings.ToUpper(orgEndLatex.FindStringSubmatch(l)[1])] = i
		case orgDrawerEnd.MatchString(l):
			nextDrawer = i
		case orgBeginBlock.MatchString(l):
			end = closer(nextBlock, strings.ToUpper(orgBeginBlock.FindStringSubmatch(l)[1]), len(lines))
		case orgBeginLatex.MatchString(l):
			end = closer(nextLatex, strings.ToUpper(orgBeginLatex.FindStringSubmatch(l)[1]), len(lines))
		case orgDrawer.MatchString(l):
			end = nextDrawer
		}
		if end < 0 {
			continue
		}
		if cost += end - i; end == len(lines) {
			open = i
		} else if inside != nil && cost <= maxOrgScan {
			for j := i + 1; j < end; j++ {
				inside[j] = true
			}
		}
	}
	if cost > maxOrgScan {
		return "too many blocks, drawers or environments left open", offsetOf(lines, max(open, 0))
	}
	if hasFootnotes {
		if i := orgFootnotesUndefined(lines, inside); i >= 0 {
			return "too many footnote references without a definition", offsetOf(lines, i)
		}
	}
	return "", 0
}

// orgFootnotesUndefined is the line at which go-org's lookups of
// footnote references without a definition pass maxOrgFootnoteScan, -1
// when they do not. Its WriteFootnotes walks all the named references
// for each named one that has no definition, neither a line
// "[fn:name] text" nor its first reference "[fn:name:text]". The count
// errs on the side of more lookups, never fewer: a definition inside a
// block or drawer (inside[i]) is not counted, nor one under a headline
// go-org may leave out with its subtree (a COMMENT one, or one with
// tags: :noexport: is go-org's #+EXCLUDE_TAGS), whose definitions it
// never reads; a reference anywhere is.
func orgFootnotesUndefined(lines []string, inside []bool) int {
	defined := map[string]bool{}
	excluded := 0 // the level of the excluded headline the line is under
	for i, l := range lines {
		if len(l) > 0 && l[0] == '*' && orgHeadline.MatchString(l) {
			level := len(l) - len(strings.TrimLeft(l, "*"))
			if excluded > 0 && level <= excluded {
				excluded = 0
			}
			if excluded == 0 && orgMaybeExcluded.MatchString(l) {
				excluded = level
			}
			continue
		}
		if excluded == 0 && strings.HasPrefix(l, "[fn:") && !inside[i] {
			if m := orgFootnoteDef.FindStringSubmatch(l); m != nil {
				defined[m[1]] = true
			}
		}
	}
	named := map[string]bool{}
	undefined := 0
	for i, l := range lines {
		if !strings.Contains(l, "[fn:") {
			continue
		}
		if m := orgFootnoteDef.FindStringIndex(l); m != nil && !inside[i] {
			l = l[m[1]:] // the definition's own name is no reference
		}
		for _, m := range orgFootnoteRef.FindAllStringSubmatch(l, -1) {
			name, text := m[1], m[2]
			if name == "" || named[name] {
				continue // anonymous, or a name already looked up
			}
			named[name] = true
			if text == "" && !defined[name] {
				undefined++
			}
		}
		if undefined*len(named) > maxOrgFootnoteScan {
			return i
		}
	}
	return -1
}

// offsetOf is the offset of line i of lines (split at "\n").
func offsetOf(lines []string, i int) int {
	off := 0
	for _, l := range lines[:i] {
		off += len(l) + 1
	}
	return off
}

// orgListTooDeep is the offset of the first list item nested more than
// maxOrgListDepth deep, -1 when there is none. A headline ends every
// list.
func orgListTooDeep(src []byte) int {
	var indents []int // the list items' indentations, nested
	off := 0
	for len(src) > 0 {
		l := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			l = src[:i+1]
		}
		src = src[len(l):]
		at := off
		off += len(l)
		if len(l) > 0 && l[0] == '*' && orgHeadline.Match(l) {
			indents = indents[:0]
			continue
		}
		m := orgListItem.FindSubmatchIndex(l)
		if m == nil {
			continue
		}
		ind := m[3] - m[2]
		for len(indents) > 0 && indents[len(indents)-1] >= ind {
			indents = indents[:len(indents)-1]
		}
		if indents = append(indents, ind); len(indents) > maxOrgListDepth {
			return at
		}
	}
	return -1
}

func closer(next map[string]int, name string, none int) int {
	if i, ok := next[name]; ok {
		return i
	}
	return none
}
