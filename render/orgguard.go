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

// maxOrgScan is the most lines go-org may scan for openers' ends: a
// post of 20,000 lines with 50 open blocks (a few milliseconds).
// maxOrgHeadlines bounds the headlines, each of which go-org writes as
// some 100 bytes of nested sections and outline, in time that grows
// faster than their number: 20,000 took 0.65 s and wrote 2 MB.
const (
	maxOrgScan      = 1 << 20
	maxOrgHeadlines = 20_000
)

var (
	orgBeginBlock = regexp.MustCompile(`(?i)^\s*#\+BEGIN_(\w+)`)
	orgEndBlock   = regexp.MustCompile(`(?i)^\s*#\+END_(\w+)`)
	orgBeginLatex = regexp.MustCompile(`(?i)^\s*\\begin{([^}]+)}\s*$`)
	orgEndLatex   = regexp.MustCompile(`(?i)^\s*\\end{([^}]+)}\s*$`)
	orgDrawer     = regexp.MustCompile(`^\s*:\S+:\s*$`)
	orgDrawerEnd  = regexp.MustCompile(`(?i)^\s*:END:\s*$`)
	orgHeadline   = regexp.MustCompile(`^\*+\s`)
)

// orgTooDense reports whether go-org would scan more than maxOrgScan
// lines of src for the ends of its openers, or meet more than
// maxOrgHeadlines headlines, and the offset of the first opener left
// open (0 for the headlines), for the line.
func orgTooDense(src []byte) (bool, int) {
	if !bytes.Contains(src, []byte("#+")) && !bytes.Contains(src, []byte(`\begin{`)) && !bytes.Contains(src, []byte(":")) &&
		bytes.Count(src, []byte("\n*")) < maxOrgHeadlines {
		return false, 0
	}
	lines := strings.Split(string(src), "\n")
	headlines := 0
	// next closers, seen from the end: per block name, per environment,
	// and :END:.
	nextBlock, nextLatex := map[string]int{}, map[string]int{}
	nextDrawer := len(lines)
	cost, open := 0, -1
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if strings.HasPrefix(l, "*") && orgHeadline.MatchString(l) {
			if headlines++; headlines > maxOrgHeadlines {
				return true, 0
			}
		}
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
		return false, 0
	}
	off := 0
	for _, l := range lines[:max(open, 0)] {
		off += len(l) + 1
	}
	return true, off
}

func closer(next map[string]int, name string, none int) int {
	if i, ok := next[name]; ok {
		return i
	}
	return none
}
