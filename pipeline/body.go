package pipeline

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/gohugoio/hugo/parser/pageparser"
)

// noInner lists the shortcodes that never take a closing tag, so a later
// {{< /name >}} cannot be mistaken for theirs.
var noInner = map[string]bool{"figure": true, "youtube": true, "ref": true, "relref": true}

// bodyParser turns pageparser's flat item list into a tree of Nodes.
type bodyParser struct {
	src []byte
	// str is src as a string, sharing its bytes: a text node is a part
	// of it, not a copy (450 MB of copies at 100,000 posts).
	str   string
	items pageparser.Items
	i     int
	lines *lineCounter
	// lastClose is the item index of each name's last closing tag.
	lastClose map[string]int
}

// The text nodes share src's bytes, which must not change after.
func parseBody(src []byte, items pageparser.Items, lines *lineCounter) ([]Node, error) {
	p := &bodyParser{src: src, str: unsafe.String(unsafe.SliceData(src), len(src)), items: items, lines: lines, lastClose: map[string]int{}}
	for j := 0; j+2 < len(items); j++ {
		if items[j].IsLeftShortcodeDelim() && items[j+1].IsShortcodeClose() {
			p.lastClose[strings.TrimSpace(string(items[j+2].Val(src)))] = j
		}
	}
	nodes, _, err := p.nodes("")
	return nodes, err
}

// nodes reads until EOF or the closing tag of the shortcode named closing.
func (p *bodyParser) nodes(closing string) ([]Node, bool, error) {
	var out []Node
	from := p.i // the run of text items not yet in out
	flush := func() {
		if from < p.i {
			out = append(out, p.text(p.items[from:p.i]))
		}
	}
	for p.i < len(p.items) {
		it := p.items[p.i]
		if !it.IsEOF() && !it.IsError() && it.Type != pageparser.TypeLeadSummaryDivider && !it.IsLeftShortcodeDelim() {
			p.i++
			continue
		}
		flush()
		switch {
		case it.IsEOF():
			return out, false, nil
		case it.IsError():
			return nil, false, errorAt(p.lines.at(it.Pos()), "%v", it.Err)
		case it.Type == pageparser.TypeLeadSummaryDivider:
			p.i++
			out = append(out, Node{Kind: MoreNode, Line: p.lines.at(it.Pos())})
		default: // a shortcode's left delimiter
			indent := ""
			if p.i > 0 && p.items[p.i-1].IsIndentation() {
				indent = string(p.items[p.i-1].Val(p.src))
			}
			n, closed, err := p.shortcode()
			n.Indent = indent
			if err != nil {
				return nil, false, err
			}
			if closed != "" {
				if closed == closing {
					return out, true, nil
				}
				return nil, false, errorAt(n.Line, "shortcode: unexpected closing tag {{< /%s >}}", closed)
			}
			out = append(out, n)
		}
		from = p.i
	}
	flush()
	return out, false, nil
}

// text joins a run of text items into one node with a single copy: the
// pieces can be many, and concatenating them one by one would copy the
// body again for each.
func (p *bodyParser) text(run pageparser.Items) Node {
	n := Node{Kind: TextNode, Line: p.lines.at(run[0].Pos())}
	if lo, hi, ok := p.span(run); ok {
		n.Text = p.str[lo:hi]
		return n
	}
	size := 0
	for _, it := range run {
		size += len(it.Val(p.src))
	}
	var b strings.Builder
	b.Grow(size)
	for _, it := range run {
		b.Write(it.Val(p.src))
	}
	n.Text = b.String()
	return n
}

// span is where the items of run lie in src, when they follow each
// other there (an item of several segments is a copy, not a part).
func (p *bodyParser) span(run pageparser.Items) (lo, hi int, ok bool) {
	lo, hi = run[0].Pos(), run[0].Pos()
	for _, it := range run {
		v := it.Val(p.src)
		if it.Pos() != hi || hi+len(v) > len(p.src) || (len(v) > 0 && unsafe.SliceData(v) != unsafe.SliceData(p.src[hi:])) {
			return 0, 0, false
		}
		hi += len(v)
	}
	return lo, hi, true
}

// shortcode reads one {{< … >}} call starting at its left delimiter. For a
// closing tag it returns the name in closed.
func (p *bodyParser) shortcode() (n Node, closed string, err error) {
	open := p.items[p.i]
	n = Node{Kind: ShortcodeNode, Line: p.lines.at(open.Pos()), Markup: string(open.Val(p.src)) == "{{%"}
	p.i++
	isClose, selfClose := false, false
	for ; p.i < len(p.items); p.i++ {
		it := p.items[p.i]
		switch {
		case it.IsError():
			// The lexer stops where it gave up, often at the end of the
			// file for an unclosed call; the call's own line is the useful one.
			return n, "", errorAt(n.Line, "shortcode: %v", it.Err)
		case it.IsEOF():
			return n, "", errorAt(n.Line, "shortcode: unterminated call")
		case it.IsRightShortcodeDelim():
			p.i++
			if isClose {
				return n, n.Name, nil
			}
			if !selfClose && !noInner[n.Name] && p.hasClosing(n.Name) {
				return p.inner(n)
			}
			return n, "", nil
		case it.IsShortcodeClose():
			if n.Name == "" {
				isClose = true
			} else {
				selfClose = true
			}
		case it.IsShortcodeName(), it.IsInlineShortcodeName():
			n.Name = string(it.Val(p.src))
		case it.IsShortcodeParam():
			if p.i+1 < len(p.items) && p.items[p.i+1].IsShortcodeParamVal() {
				val := p.items[p.i+1]
				if n.Named == nil {
					n.Named = map[string]string{}
				}
				n.Named[string(it.Val(p.src))] = string(val.Val(p.src))
				n.addParam(string(it.Val(p.src)), val.ValTyped(p.src))
				p.i++
			} else {
				n.Positional = append(n.Positional, string(it.Val(p.src)))
				n.addParam("", it.ValTyped(p.src))
			}
		case it.IsShortcodeParamVal():
			n.Positional = append(n.Positional, string(it.Val(p.src)))
			n.addParam("", it.ValTyped(p.src))
		}
	}
	return n, "", errorAt(n.Line, "shortcode: unterminated call")
}

func (p *bodyParser) inner(n Node) (Node, string, error) {
	inner, ok, err := p.nodes(n.Name)
	if err != nil {
		return n, "", err
	}
	if !ok {
		return n, "", errorAt(n.Line, "shortcode: {{< %s >}} is never closed", n.Name)
	}
	n.Inner, n.HasInner = inner, true
	return n, "", nil
}

// hasClosing tells whether {{< /name >}} comes later: whether a shortcode
// takes inner content depends on its template in Hugo; here, on whether it
// is closed.
func (p *bodyParser) hasClosing(name string) bool {
	j, ok := p.lastClose[name]
	return ok && j >= p.i
}

// addParam adds an argument to Params in Hugo's shape: named arguments in
// a map, positional ones in a list. A call mixing both is refused by the
// lexer before this.
func (n *Node) addParam(name string, v any) {
	if name == "" {
		list, _ := n.Params.([]any)
		n.Params = append(list, v)
		return
	}
	m, ok := n.Params.(map[string]any)
	if !ok {
		m = map[string]any{}
		n.Params = m
	}
	m[name] = v
}

// ParseBody splits Markdown text without front matter (a string a
// template renders, say) into text and shortcode calls, as a post's body
// is split; <!--more--> is text there. Lines count from 1. The error
// names the line.
func ParseBody(src string) ([]Node, error) {
	b := []byte(src)
	items, err := pageparser.ParseBytes(b, pageparser.Config{NoFrontMatter: true, NoSummaryDivider: true})
	if err != nil {
		return nil, err
	}
	nodes, err := parseBody(b, items, newLineCounter(b))
	if ce, ok := err.(*contentError); ok {
		return nil, fmt.Errorf("line %d: %s", ce.line, ce.msg)
	}
	return nodes, err
}
