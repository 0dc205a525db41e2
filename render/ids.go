package render

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	hugotext "github.com/gohugoio/hugo/common/text"
	"github.com/gohugoio/hugo/markup/blackfriday"

	"github.com/yuin/goldmark/ast"
)

// headingIDs gives every heading without an explicit {#id} the id Hugo
// gives it, by default in the "github" style: its plain text lower-cased,
// spaces and hyphens as "-", other punctuation dropped, letters of every
// script kept (goldmark's own generator drops non-ASCII ones). A repeated
// id gets "-1", "-2", … as in Hugo. markup's autoHeadingID turns ids off;
// its autoHeadingIDType picks "github-ascii" or "blackfriday" instead.
func (st *state) headingIDs(doc ast.Node) {
	idType := st.r.markup.AutoIDType
	auto := st.r.markup.AutoHeadingID
	seen, next := map[string]bool{}, map[string]int{}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Type() == ast.TypeInline {
			return ast.WalkSkipChildren, nil
		}
		h, ok := n.(*ast.Heading)
		if !ok {
			return ast.WalkContinue, nil
		}
		if v, ok := h.AttributeString("id"); ok {
			if id, ok := v.([]byte); ok {
				seen[string(id)] = true
			}
			return ast.WalkSkipChildren, nil
		}
		if !auto {
			return ast.WalkSkipChildren, nil
		}
		text := plainText(h, st.src)
		if len(st.calls) > 0 {
			text = st.replacePlaceholders(text, func(*call) string { return "" })
		}
		if text == "" {
			return ast.WalkSkipChildren, nil // Hugo gives an empty heading no id
		}
		if h.Lines().Len() > 1 {
			// A setext heading over several lines: Hugo uses the last.
			text = text[strings.LastIndexByte(text, '\n')+1:]
		}
		h.SetAttributeString("id", []byte(uniqueID(anchorName(text, idType), seen, next)))
		return ast.WalkSkipChildren, nil
	})
}

// anchorName is Hugo's sanitizeAnchorName for an id type: "github"
// (also ""), "github-ascii" or "blackfriday".
func anchorName(s, idType string) string {
	if idType == "blackfriday" {
		if id := blackfriday.SanitizedAnchorName(s); id != "" {
			return id
		}
		return "heading"
	}
	ascii := idType == "github-ascii"
	if ascii {
		s = string(hugotext.RemoveAccents([]byte(s)))
	}
	var b strings.Builder
	for _, r := range strings.TrimSpace(s) {
		switch {
		case ascii && r >= utf8.RuneSelf:
		case r == '-' || r == ' ':
			b.WriteByte('-')
		case r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		}
	}
	if b.Len() == 0 {
		return "heading"
	}
	return b.String()
}

// uniqueID appends -1, -2, … to an id already taken. next remembers the
// last number tried for each id, so that a thousand equal headings cost a
// thousand lookups, not half a million.
func uniqueID(id string, seen map[string]bool, next map[string]int) string {
	if seen[id] {
		for i := next[id] + 1; ; i++ {
			if c := id + "-" + strconv.Itoa(i); !seen[c] {
				next[id] = i
				id = c
				break
			}
		}
	}
	seen[id] = true
	return id
}
