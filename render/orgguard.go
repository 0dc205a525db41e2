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
// \begin{equation} lines, 5*10^5 scans, took seconds). maxOrgHeadlines
// bounds the headlines, each of which go-org writes as some 100 bytes of
// nested sections and outline, in time that grows faster than their
// number (10,000 took 0.2 s, 20,000 2 s). maxOrgFootnotes bounds the
// footnote references: go-org looks up the name of each one without a
// definition among all of them (20,000 took 15 s). maxOrgListDepth
// bounds the nesting of lists, which go-org parses again for each level
// (a list 2,000 deep took 7 s, 100 deep 13 ms).
const (
	maxOrgScan      = 1 << 16
	maxOrgHeadlines = 5_000
	maxOrgFootnotes = 2_000
	maxOrgListDepth = 100
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
)

// orgTooDense says why go-org would take too long over src, "" when it
// would not: it would scan more than maxOrgScan lines for the ends of
// its openers, meet more than maxOrgHeadlines headlines or
// maxOrgFootnotes footnote references, or lists nested more than
// maxOrgListDepth deep. The offset is where the bound is passed (for
// the scans, the first opener left open), for the line.
func orgTooDense(src []byte) (string, int) {
	if why, at := orgTooMany(src); why != "" {
		return why, at
	}
	if !bytes.Contains(src, []byte("#+")) && !bytes.Contains(src, []byte(`\begin{`)) && !bytes.Contains(src, []byte(":")) {
		return "", 0
	}
	lines := strings.Split(string(src), "\n")
	// next closers, seen from the end: per block name, per environment,
	// and :END:.
	nextBlock, nextLatex := map[string]int{}, map[string]int{}
	nextDrawer := len(lines)
	cost, open := 0, -1
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
		if end >= 0 {
			cost += end - i
			if end == len(lines) {
				open = i
			}
		}
	}
	if cost <= maxOrgScan {
		return "", 0
	}
	off := 0
	for _, l := range lines[:max(open, 0)] {
		off += len(l) + 1
	}
	return "too many blocks, drawers or environments left open", off
}

// orgTooMany counts, line by line, the headlines, the footnote
// references and the depth of lists, and says which passes its bound
// first, with the offset of the line where it does.
func orgTooMany(src []byte) (string, int) {
	headlines, footnotes := 0, 0
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
			if headlines++; headlines > maxOrgHeadlines {
				return "too many headlines", at
			}
			indents = indents[:0]
			continue
		}
		if footnotes += bytes.Count(l, []byte("[fn:")); footnotes > maxOrgFootnotes {
			return "too many footnote references", at
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
			return "lists nested too deep", at
		}
	}
	return "", 0
}
func closer(next map[string]int, name string, none int) int {
	if i, ok := next[name]; ok {
		return i
	}
	return none
}
