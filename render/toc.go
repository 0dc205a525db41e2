package render

import (
	"regexp"

	"github.com/yuin/goldmark/ast"
)

// # The table of contents
//
// Hugo 0.165 builds .TableOfContents from the Markdown's tree while it
// renders it: every heading of the tree, in blockquotes and lists too
// (and those a {{% %}} call writes as Markdown), none that raw HTML or a
// {{< >}} call writes; each with its id and its text as rendered,
// emphasis, code and images kept, a link as its text.

// tocHeading notes the heading n, whose content rendered as text, for
// the table of contents. Only the page's own tree counts, not Markdown a
// shortcode renders on its own.
func (st *state) tocHeading(n *ast.Heading, text string) {
	if st.root() != st {
		return
	}
	id := ""
	if v, ok := n.AttributeString("id"); ok {
		if b, ok := v.([]byte); ok {
			id = string(b)
		}
	}
	st.headings = append(st.headings, Heading{Level: n.Level, ID: id, Title: text})
}

// tocHeadings are the headings noted, with the shortcode calls in their
// text as their output and links as their text.
func (st *state) tocHeadings() []Heading {
	for i := range st.headings {
		h := &st.headings[i]
		if len(st.calls) > 0 {
			h.Title = st.replacePlaceholders(h.Title, func(c *call) string { return c.html })
		}
		h.Title = linkTags.ReplaceAllString(h.Title, "")
	}
	return st.headings
}

// linkTags are the tags of a link: <a …> and </a>.
var linkTags = regexp.MustCompile(`</?a(?:\s[^>]*)?>`)
