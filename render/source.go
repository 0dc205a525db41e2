package render

import (
	"bytes"
	"fmt"
	"html/template"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"folio/pipeline"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
)

// stateKey carries the *state of one rendering through goldmark's parser
// context to the link parser.
var stateKey = parser.NewContextKey()

// state is everything one Render call works on.
type state struct {
	r       *Renderer
	post    *pipeline.Post
	res     Resolver
	page    *url.URL // the post's absolute URL
	pageURL string

	// src is the Markdown goldmark parses: the body's text with every
	// shortcode and <!--more--> replaced by a placeholder (prefix, the
	// call's index, "E"). prefix occurs nowhere in the body, so a
	// placeholder cannot be forged by the author.
	src       []byte
	prefix    []byte
	calls     []*call
	marks     []mark // where each body node starts in src, for line numbers
	lineCache lineCache

	links []*linkSpan // every link and image the parser made
	edits []edit      // the changes that turn src into the Markdown alternate
	// rawCuts are the parts of raw HTML left out of the page too: URL
	// attributes naming unpublished posts (rawurls.go), in source order.
	rawCuts []edit

	summaryEnd int  // offset in the HTML where the summary ends, -1 if none
	moreInline bool // a <!--more--> was met inside a paragraph

	// linkifyGuard's memory of the last run of e-mail address characters.
	emailFrom, emailEnd, emailFailed int
	atFrom, atNext, atStop           int
	defused                          bool // defuse changed what some text shows
	// highlightBudget is what is left of maxHighlightPost.
	highlightBudget highlightBudget
	// markupBudget is what is left of maxPostMarkup.
	markupBudget int

	// ordinal counts the top-level calls, for .Ordinal.
	ordinal int
	// headings are the Markdown's headings, as the table of contents
	// lists them (root state only); tocAt is where the text of the
	// heading being rendered starts in the writer.
	headings []Heading
	tocAt    int
	// inlines are the page's inline shortcodes defined so far, by name:
	// their template text (root state only).
	inlines map[string]string
	// inserted are the {{% %}} calls whose output is in src.
	inserted []*call

	// What templates see, made on first use (root state only).
	pg       *page
	siteView *site
	resList  resources
	// depth is how deep calls are nested now; lastLine the line of the
	// call being rendered, for what its template renders.
	depth, lastLine int
	// limits is the budget of the page's templates.
	limits       limits
	warnedImages bool
	// ordinals count the elements rendered, by kind, for Hugo's
	// .Ordinal and a code block's line anchors; hookPos are where the
	// elements a hook renders started in the output (hooks.go).
	ordinals map[ast.NodeKind]int
	hookPos  []int
	// tables are the tables being rendered, innermost last: the cells
	// a render-table hook gets, nil for a table goldmark renders.
	tables []*tableHook
	// hookWritten are the link and image destinations as written (refs
	// substituted), which hooks get as Hugo gives them; only with hooks.
	hookWritten map[ast.Node]string
	// hookDepth counts the render hooks running (root state only).
	hookDepth int
	// goatUsed counts the goat diagrams' cells (goat.go).
	goatUsed int

	issues []Issue
	refs   []Ref
	looked map[[5]string]bool // lookups already in refs, by (file, slug, path, name, site)

	// parent is the state of the post when this one renders a fragment of
	// it (a figure caption); issues and refs go to the post's state.
	parent *state
}

func (st *state) root() *state {
	for st.parent != nil {
		st = st.parent
	}
	return st
}

// mark says that src from off on came from the file at line.
type mark struct{ off, line int }

func (r *Renderer) newState(p *pipeline.Post, res Resolver) *state {
	st := &state{r: r, post: p, res: res, summaryEnd: -1, emailFailed: -1, atFrom: -1, atNext: -1, highlightBudget: highlightBudget{bytes: maxHighlightPost}, markupBudget: maxPostMarkup,
		lineCache: lineCache{mark: -1}}
	st.pageURL = st.postURL(p)
	page, err := url.Parse(st.pageURL)
	if err != nil {
		page = r.base
	}
	st.page = page
	return st
}

// postURL is the absolute URL of a post, as the rest of folio writes it:
// its URL on the site when the resolver knows the site's URLs
// (SiteIndex), else <base><section>/<slug>/.
func (st *state) postURL(p *pipeline.Post) string {
	if u, ok := st.res.(interface{ URL(*pipeline.Post) string }); ok {
		if s := u.URL(p); s != "" {
			return s
		}
	}
	return st.r.postURL(p)
}

func (r *Renderer) postURL(p *pipeline.Post) string {
	return r.baseURL + p.Path(r.opts.Section)
}

// build writes src from the body nodes.
func (st *state) build(body []pipeline.Node) {
	st.prefix = placeholderPrefix(body)
	size := 0
	walkText(body, func(s string) { size += len(s) })
	if buf := *srcPool.Get().(*[]byte); cap(buf) >= size+size/8+16 {
		st.src = buf[:0]
	} else {
		st.src = make([]byte, 0, size+size/8+16)
	}
	st.appendNodes(body)
}

func (st *state) appendNodes(nodes []pipeline.Node) {
	for i := range nodes {
		n := &nodes[i]
		st.marks = append(st.marks, mark{len(st.src), n.Line})
		switch {
		case n.Kind == pipeline.TextNode:
			st.appendText(n.Text, n.Line)
		case n.Kind == pipeline.MoreNode:
			st.more(n.Line)
		default:
			if _, _, found := st.lookupShortcode(n.Name, n.Markup); !found {
				// No template anywhere: the inner text is kept, as
				// Markdown, nested calls rendered.
				st.warn(n.Line, "shortcode %q: no template for it in the site or its theme (layouts/_shortcodes/%s.html); its inner text is kept", n.Name, n.Name)
				st.ordinal++
				st.appendNodes(n.Inner)
				continue
			}
			st.shortcodeCall(n)
		}
	}
}

// more appends the divider's placeholder as a paragraph of its own, which
// the HTML renderer drops. Hugo's lexer swallows the white space after
// the divider, line breaks and the next line's indentation included; the
// block after it starts on a line of its own. Inside a paragraph the
// divider ends it, as it does in Hugo.
func (st *state) more(line int) {
	lineStart := bytes.LastIndexByte(st.src, '\n') + 1
	indent := st.src[lineStart:]
	switch {
	case len(bytes.TrimLeft(indent, " \t")) != 0:
		st.src = append(st.src, "\n\n"...)
	case lineStart > 0 && !blankLineBefore(st.src, lineStart):
		indent = bytes.Clone(indent)
		st.src = append(st.src, '\n')
		st.src = append(st.src, indent...)
	}
	st.placeholder(&call{kind: callMore, line: line})
	// The next line's indentation is lost: whether it was a paragraph of
	// the same list item or a new item cannot be told; column 0 is the
	// common case of a divider at the top level.
	st.src = append(st.src, "\n\n"...)
}

// blankLineBefore reports whether the line that ends at src[end-1] is
// blank.
func blankLineBefore(src []byte, end int) bool {
	prev := src[:end-1]
	return len(bytes.TrimSpace(prev[bytes.LastIndexByte(prev, '\n')+1:])) == 0
}

// appendText appends Markdown text with line endings made "\n", which is
// all goldmark and the line counting need to know, and pathological
// nesting and link runs defused (see guard.go).
func (st *state) appendText(s string, line int) {
	s = normalizeNewlines(s)
	pieces, shown := defuse(s, &st.root().markupBudget, st.r.guard)
	if shown >= 0 && !st.defused {
		st.defused = true
		st.warn(line+shown, "Markdown too deeply nested or too dense to render; part of it is shown as plain text")
	}
	if pieces == nil {
		st.src = append(st.src, s...)
		return
	}
	for _, p := range pieces {
		if p.plain {
			st.plain(p.text, line+p.line)
		} else {
			st.src = append(st.src, p.text...)
		}
	}
}

// plain stands a placeholder for a paragraph shown as plain text,
// followed by its line breaks, so that the lines after it keep their
// numbers.
func (st *state) plain(text string, line int) {
	c := &call{kind: callPlain, line: line, md: text}
	c.html = "<p>" + template.HTMLEscapeString(strings.TrimSpace(text)) + "</p>\n"
	st.placeholder(c)
	for range strings.Count(text, "\n") {
		st.src = append(st.src, '\n')
	}
	c.end = len(st.src)
}

func (st *state) placeholder(c *call) {
	c.index = len(st.calls)
	c.off = len(st.src)
	st.src = append(st.src, st.prefix...)
	st.src = strconv.AppendInt(st.src, int64(c.index), 10)
	st.src = append(st.src, 'E')
	c.end = len(st.src)
	st.calls = append(st.calls, c)
}

// placeholderPrefix returns "FOLIOSC", with as many "X" appended as it
// takes not to occur in any string of the body. The prefix has no border
// (no proper suffix equal to a prefix of it), so text next to a
// placeholder cannot make a false match either.
func placeholderPrefix(body []pipeline.Node) []byte {
	prefix := []byte("FOLIOSC")
	for {
		found := false
		walkStrings(body, func(s string) {
			if !found && strings.Contains(s, string(prefix)) {
				found = true
			}
		})
		if !found {
			return prefix
		}
		prefix = append(prefix, 'X')
	}
}

// walkText calls f with the Markdown text of every text node, in order.
func walkText(nodes []pipeline.Node, f func(string)) {
	for i := range nodes {
		f(nodes[i].Text)
		walkText(nodes[i].Inner, f)
	}
}

// walkStrings calls f with every string of the body, shortcode names and
// arguments included.
func walkStrings(nodes []pipeline.Node, f func(string)) {
	for i := range nodes {
		n := &nodes[i]
		f(n.Text)
		f(n.Name)
		for _, s := range n.Positional {
			f(s)
		}
		for k, v := range n.Named {
			f(k)
			f(v)
		}
		walkStrings(n.Inner, f)
	}
}

// callAt parses the placeholder at the start of b, returning the call and
// the placeholder's length, or nil.
func (st *state) callAt(b []byte) (*call, int) {
	if !bytes.HasPrefix(b, st.prefix) {
		return nil, 0
	}
	i, n := len(st.prefix), 0
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9' && i < len(st.prefix)+9; i++ {
		n = n*10 + int(b[i]-'0')
	}
	if i == len(st.prefix) || i >= len(b) || b[i] != 'E' || n >= len(st.calls) {
		return nil, 0
	}
	return st.calls[n], i + 1
}

// line returns the file line of offset off in src. It counts on from its
// last answer when it can: links are looked up in order, and counting
// from the start of a long text node for each would be quadratic.
func (st *state) line(off int) int {
	// The last mark at or before off: several nodes can start at one
	// offset (an unknown shortcode and its inner text).
	i := sort.Search(len(st.marks), func(i int) bool { return st.marks[i].off > off }) - 1
	if i < 0 {
		return max(st.post.BodyLine, 1)
	}
	m := st.marks[i]
	off = min(off, len(st.src))
	from, line := m.off, max(m.line, 1)
	if c := st.lineCache; c.mark == i && c.off >= m.off && c.off <= off {
		from, line = c.off, c.line
	}
	line += bytes.Count(st.src[from:off], []byte{'\n'})
	st.lineCache = lineCache{mark: i, off: off, line: line}
	return line
}

// lineCache is line's last answer.
type lineCache struct{ mark, off, line int }

func (st *state) issue(line int, format string, args ...any) {
	root := st.root()
	root.issues = append(root.issues, Issue{Line: line, Message: fmt.Sprintf(format, args...)})
}

// sortedIssues returns the issues in file order, each once.
func (st *state) sortedIssues() []Issue {
	slices.SortStableFunc(st.issues, func(a, b Issue) int { return a.Line - b.Line })
	return slices.Compact(st.issues)
}
