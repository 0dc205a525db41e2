package render

import (
	"bytes"
	"strings"
	"unicode"

	"folio/pipeline"

	"golang.org/x/net/html"
)

// Fragments are Markdown rendered apart from the page's body but as part
// of its rendering: a figure's caption, a details summary, the text a
// template hands to markdownify or .Page.RenderString. A fragment has its
// own parse and heading ids; it shares the post's options, resolver and
// budgets, and its issues and lookups are the post's.

// sub returns a state for a fragment of st's post whose text starts at
// line.
func (st *state) sub(line int) *state {
	root := st.root()
	return &state{r: st.r, post: st.post, res: st.res, page: st.page, pageURL: st.pageURL,
		summaryEnd: -1, emailFailed: -1, atFrom: -1, atNext: -1, parent: root,
		lineCache: lineCache{mark: -1}}
}

// renderNodes renders body nodes as a fragment: its HTML and the Markdown
// the twin shows for it.
func (st *state) renderNodes(nodes []pipeline.Node, line int) (htm, md string) {
	sub := st.sub(line)
	sub.build(nodes)
	sub.expandCalls()
	doc := st.r.parse(sub, sub.src)
	sub.settleInserted(doc)
	sub.resolveLinks(doc)
	sub.headingIDs(doc)
	w := &htmlWriter{Buffer: new(bytes.Buffer), st: sub}
	sub.renderBlocks(w, doc)
	sub.replaceLeftovers(w)
	return w.String(), sub.markdown()
}

// renderMarkdown renders Markdown text without shortcode calls (calls in
// it are already rendered); inline drops the <p> of a single paragraph.
func (st *state) renderMarkdown(text string, inline bool) (htm, md string) {
	htm, md = st.renderNodes([]pipeline.Node{{Kind: pipeline.TextNode, Text: text, Line: st.root().lastLine}}, st.root().lastLine)
	if inline {
		htm = trimShortHTML(htm)
	}
	return htm, md
}

// renderString renders Markdown that may call shortcodes, as Hugo's
// .Page.RenderString does.
func (st *state) renderString(text string, inline bool) (string, error) {
	return st.renderStringAs(text, inline, isOrg(st.post))
}

// renderStringAs is renderString as Markdown, or as Org (org): Hugo's
// RenderString renders with the page's content format.
func (st *state) renderStringAs(text string, inline, org bool) (string, error) {
	nodes := []pipeline.Node{{Kind: pipeline.TextNode, Text: text, Line: st.root().lastLine}}
	if strings.Contains(text, "{{") {
		parsed, err := pipeline.ParseBody(text)
		if err != nil {
			return "", err
		}
		nodes = parsed
		shiftLines(nodes, st.root().lastLine-1)
	}
	var htm string
	if org {
		htm = st.renderOrgNodes(nodes, st.root().lastLine)
	} else {
		htm, _ = st.renderNodes(nodes, st.root().lastLine)
	}
	if inline {
		htm = trimShortHTML(htm)
	}
	return htm, nil
}

// shiftLines moves the lines of nodes parsed from a string to the line
// of the file the string came from.
func shiftLines(nodes []pipeline.Node, by int) {
	for i := range nodes {
		nodes[i].Line += by
		shiftLines(nodes[i].Inner, by)
	}
}

// markdownify is the template function: RenderString, inline, with the
// <p> of a short text dropped once more, always as Markdown (Hugo's
// renders with the home page). An error is the call's problem.
func (st *state) markdownify(s string, sc *shortcode) string {
	h, err := st.renderStringAs(s, true, false)
	if err != nil {
		st.callError(sc, err)
	}
	return trimShortHTML(h)
}

// twinOf is the Markdown twin of Markdown text written in the post (a
// caption, a call's inner content): its links made absolute.
func (st *state) twinOf(text string, line int) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	_, md := st.renderNodes([]pipeline.Node{{Kind: pipeline.TextNode, Text: text, Line: line}}, line)
	return md
}

// trimShortHTML drops the <p> around HTML that is one paragraph, as
// Hugo's TrimShortHTML.
func trimShortHTML(h string) string {
	if strings.Count(h, "<p>") != 1 {
		return h
	}
	t := strings.TrimSpace(h)
	if strings.HasPrefix(t, "<p>") && strings.HasSuffix(t, "</p>") {
		return strings.TrimSpace(t[len("<p>") : len(t)-len("</p>")])
	}
	return t
}

// plainify is Hugo's plainify: tags removed, paragraph ends and <br> as
// line breaks, runs of white space as one; entities are left as written.
func plainify(h string) string {
	if !strings.ContainsAny(h, "<>") {
		return h
	}
	h = strings.NewReplacer("\n", " ", "</p>", "\x00", "<br>", "\x00", "<br />", "\x00").Replace(h)
	h = strings.ReplaceAll(stripHTMLTags(h), "\x00", "\n")
	var b strings.Builder
	wasSpace := false
	for _, r := range h {
		isSpace := unicode.IsSpace(r)
		if !(isSpace && wasSpace) {
			b.WriteRune(r)
		}
		wasSpace = isSpace
	}
	return b.String()
}

// stripHTMLTags removes tags and comments from HTML, keeping the text as
// written (entities undecoded), as html/template's stripTags does.
func stripHTMLTags(h string) string {
	z := html.NewTokenizer(strings.NewReader(h))
	var b strings.Builder
	for {
		switch z.Next() {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			b.Write(z.Raw())
		}
	}
}
