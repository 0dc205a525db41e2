package render

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// resolveHidden settles what resolveLinks does not see and what would
// still name an unpublished post in the Markdown alternate once its links
// are dropped (issue 15, findings 4 and 5):
//
//   - link reference definitions ("[r]: ../draft/"): the links that use
//     them are dropped, but the definition is text of the alternate, and
//     one that no link uses is there too; a definition whose destination
//     is not to be linked (as a link or as an image) is removed;
//   - autolinks ("<https://…/blog/draft/>") and linkified bare URLs, whose
//     text is the URL itself: one naming a hidden post is removed from
//     both outputs and reported, as a link is;
//   - raw HTML while Options.Unsafe is off: the HTML omits it, so the
//     alternate does too; while it is on, the URL attributes of its tags
//     (<a href>, <img src>, srcset…) naming a hidden post are cut from
//     both and reported (rawurls.go).
func (st *state) resolveHidden(doc ast.Node) {
	var autolinks []*ast.AutoLink
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.LinkReferenceDefinition:
			st.definition(n)
		case *ast.AutoLink:
			autolinks = append(autolinks, n)
		case *ast.RawHTML:
			if st.r.opts.Unsafe {
				segs := make([]text.Segment, n.Segments.Len())
				for i := range segs {
					segs[i] = n.Segments.At(i)
				}
				st.rawHidden(segs)
			} else {
				for i := range n.Segments.Len() {
					if s := n.Segments.At(i); !st.holdsCall(s.Start, s.Stop) {
						st.edits = append(st.edits, edit{s.Start, s.Stop, ""})
					}
				}
			}
		case *ast.HTMLBlock:
			if st.r.opts.Unsafe {
				segs := make([]text.Segment, 0, n.Lines().Len()+1)
				for i := range n.Lines().Len() {
					segs = append(segs, n.Lines().At(i))
				}
				if n.HasClosure() {
					segs = append(segs, n.ClosureLine)
				}
				st.rawHidden(segs)
			} else {
				st.removeLines(n.Lines(), n.HasClosure(), n.ClosureLine)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, n := range autolinks { // removed after the walk, not during it
		st.autoLink(n)
	}
}

// definition removes a link reference definition from the alternate when
// a link or an image to its destination would be dropped. The links
// using it were reported where they stand; an unused one shows nowhere.
func (st *state) definition(n *ast.LinkReferenceDefinition) {
	dest := string(util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(n.Destination))))
	dest, dropped := st.substituteRefs(dest)
	issues := len(st.root().issues)
	dropped = dropped || st.resolveDest(dest, false, 0).drop || st.resolveDest(dest, true, 0).drop
	st.root().issues = st.root().issues[:issues]
	if dropped {
		st.removeLines(n.Lines(), false, text.Segment{})
	}
}

// autoLink drops an autolink to a hidden post: its text is its URL, so
// nothing of it is kept.
func (st *state) autoLink(n *ast.AutoLink) {
	if n.AutoLinkType != ast.AutoLinkURL {
		return
	}
	u := string(n.URL(st.src))
	line := st.line(n.Pos())
	if t := st.resolveDest(u, false, line); !t.drop {
		return
	}
	if p := n.Parent(); p != nil {
		p.RemoveChild(p, n)
	}
	label := n.Label(st.src)
	start := aliasOffset(st.src, label)
	if start < 0 {
		return
	}
	stop := start + len(label)
	if start > 0 && stop < len(st.src) && st.src[start-1] == '<' && st.src[stop] == '>' {
		start, stop = start-1, stop+1
	}
	st.edits = append(st.edits, edit{start, stop, ""})
}

// removeLines removes the source lines of a block (and its closing line)
// from the alternate, each with its newline.
func (st *state) removeLines(lines *text.Segments, closure bool, closing text.Segment) {
	if lines.Len() == 0 {
		return
	}
	start, stop := lines.At(0).Start, lines.At(lines.Len()-1).Stop
	if closure {
		stop = max(stop, closing.Stop)
	}
	if st.holdsCall(start, stop) {
		return // a shortcode's output, which has its own Markdown
	}
	if stop < len(st.src) && st.src[stop] == '\n' {
		stop++
	}
	st.edits = append(st.edits, edit{start, stop, ""})
}

// holdsCall reports whether src[start:stop] holds a shortcode's
// placeholder, or overlaps the output of a {{% %}} call: the call has
// its own Markdown, and its HTML is the shortcode's, not the author's.
func (st *state) holdsCall(start, stop int) bool {
	for _, c := range st.inserted {
		if c.off < stop && start < c.end {
			return true
		}
	}
	return len(st.prefix) > 0 && start < stop && stop <= len(st.src) && bytes.Contains(st.src[start:stop], st.prefix)
}
