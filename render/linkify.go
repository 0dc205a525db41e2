package render

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
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
	if len(b) < 4 || (b[0] != 'h' && b[0] != 'f' && b[0] != 'w') {
		return false // nearly every word
	}
	s := string(b[:min(len(b), 6)]) // does not allocate
	return strings.HasPrefix(s, "http:") || strings.HasPrefix(s, "https:") ||
		strings.HasPrefix(s, "ftp:") || strings.HasPrefix(s, "www.")
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
