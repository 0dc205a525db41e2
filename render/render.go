package render

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"net/url"
	"strings"
	"sync"
	"time"

	"folio/pipeline"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
)

// Options are the site settings a rendering depends on.
type Options struct {
	// BaseURL is the site's absolute base URL, ending in "/".
	BaseURL string
	// Section is the folder and URL segment posts live under ("blog").
	Section string
	// Unsafe passes raw HTML in posts through; otherwise it is replaced by
	// <!-- raw HTML omitted -->, as Hugo does
	// (markup.goldmark.renderer.unsafe).
	Unsafe bool
	// Markup is the rest of the site's markup configuration; nil means
	// Hugo's defaults (DefaultMarkup).
	Markup *Markup
	// Site is what shortcode templates see as .Site; nil means a site
	// with nothing but its base URL.
	Site *Site
	// LangSites are what a page of another language than Site's sees as
	// .Site (a multilingual site's other languages), by language code:
	// each of Hugo's sites is one language's, with its title and params.
	LangSites map[string]*Site
	// Content is the content folder, for the text and size of page
	// bundle files that templates ask for; nil means they have none.
	Content fs.FS
	// Templates are the site's own shortcode and partial templates
	// (LoadTemplates); nil means none.
	Templates *Templates
	// Now is the instant the templates' now function gives; zero means
	// the clock.
	Now time.Time
	// SummaryLength is the words of an automatic summary (Hugo's
	// summaryLength); 0 means Hugo's 70.
	SummaryLength int
	// RefLinksNotFoundURL is what a ref to no page gives (Hugo's
	// refLinksNotFoundURL), RefLinksWarning makes such a ref a warning
	// rather than an error (refLinksErrorLevel "warning").
	RefLinksNotFoundURL string
	RefLinksWarning     bool
	// InlineShortcodes runs content's inline shortcodes (Hugo's
	// enableInlineShortcodes); otherwise they show nothing, with a
	// warning.
	InlineShortcodes bool
}

// An Issue is a content problem found while rendering one post: a link or
// ref to a post that is not visible, a shortcode missing its argument. The
// caller reports it with the post's file; Line is a line of that file.
// Severity tells what Hugo would refuse (pipeline.Error) from what it
// accepts (pipeline.Warning).
type Issue struct {
	Line     int
	Message  string
	Severity pipeline.Severity
}

// A Result is one post rendered.
type Result struct {
	// HTML is the article body.
	HTML template.HTML
	// Summary is the HTML before <!--more--> (Hugo's manual summary), empty
	// when the post has no divider.
	Summary template.HTML
	// Markdown is the article body of the Markdown alternate: what follows
	// "# Title\n\n" (see MarkdownDocument). It ends in one newline unless
	// it is empty.
	Markdown string
	// Issues are the problems found, in the order of the file.
	Issues []Issue
	// Refs are the lookups the rendering made, with their answers.
	Refs []Ref
	// Headings are the headings of a Markdown body, in order, as Hugo's
	// table of contents lists them (nil for Org).
	Headings []Heading
}

// A Heading is a heading of the content's Markdown: its level, its id
// and its text as the table of contents shows it (HTML).
type Heading struct {
	Level     int
	ID, Title string
}

// Current reports whether every lookup behind r still gets the same answer
// from res, so that r can be reused for the same *pipeline.Post under a new
// snapshot (with the same Options).
func (r *Result) Current(res Resolver) bool {
	for _, ref := range r.Refs {
		if !ref.answers(res) {
			return false
		}
	}
	return true
}

// A Renderer turns post bodies into HTML and Markdown. It is configured
// once and safe for concurrent use.
type Renderer struct {
	opts    Options
	markup  Markup
	baseURL string // opts.BaseURL ending in "/"
	base    *url.URL
	parser  parser.Parser
	html    renderer.Renderer
	guard   *extensionGuard // what defuse knows of the extensions
}

// New returns a Renderer for a site. A BaseURL that does not parse is
// treated as "/", so rendering never fails; the configuration is validated
// elsewhere.
func New(opts Options) *Renderer {
	baseURL := opts.BaseURL
	if !strings.HasSuffix(baseURL, "/") {
		baseURL += "/"
	}
	base, err := url.Parse(baseURL)
	if err != nil {
		base = &url.URL{Path: "/"}
	}
	r := &Renderer{opts: opts, baseURL: baseURL, base: base, markup: DefaultMarkup()}
	if opts.Markup != nil {
		r.markup = *opts.Markup
	}
	r.parser, r.html = newGoldmark(&r.markup, opts.Unsafe)
	r.guard = newExtensionGuard(&r.markup)
	return r
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Render renders a post's body. res answers the lookups of links and ref
// shortcodes to other posts; nil means no other post is known. Render
// never fails: what it could not render as asked is in Result.Issues.
func (r *Renderer) Render(p *pipeline.Post, res Resolver) Result {
	return r.render(p, res, true)
}

// render is Render; an Org post's twin is made only when twin is set (a
// description needs the HTML alone).
func (r *Renderer) render(p *pipeline.Post, res Resolver, twin bool) (out Result) {
	if p == nil {
		return Result{}
	}
	if res == nil {
		res = noPosts{}
	}
	if ix, ok := res.(*Index); ok && ix.url == nil {
		res = ix.WithURLs(r.postURL)
	}
	st := r.newState(p, res)
	defer func() {
		// A panic here is a bug in folio or a library; the page still
		// shows its text and the problem is reported.
		if v := recover(); v != nil {
			out = st.fallback(fmt.Sprint(v))
		}
	}()
	if isOrg(p) {
		return st.renderOrg(p, twin)
	}
	st.build(p.Body)
	st.expandCalls()
	doc := r.parse(st, st.src)
	st.settleInserted(doc)
	st.resolveLinks(doc)
	st.resolveHidden(doc)
	st.headingIDs(doc)

	w := &htmlWriter{Buffer: bufPool.Get().(*bytes.Buffer), st: st}
	w.Reset()
	defer func() {
		if w.Cap() <= 1<<20 { // a huge post's buffer is not kept
			bufPool.Put(w.Buffer)
		}
	}()
	st.renderBlocks(w, doc)
	st.replaceLeftovers(w)
	out.HTML = template.HTML(w.String())
	if st.summaryEnd >= 0 {
		out.Summary = template.HTML(w.Bytes()[:st.summaryEnd])
	}
	out.Markdown = st.markdown()
	out.Headings = st.tocHeadings()
	out.Issues, out.Refs = st.sortedIssues(), st.refs
	if cap(st.src) <= 1<<20 {
		buf := st.src[:0] // nothing points into it any more
		srcPool.Put(&buf)
	}
	return out
}

// srcPool keeps the buffers the Markdown source is written into.
var srcPool = sync.Pool{New: func() any { return new([]byte) }}

// parse runs goldmark over src with a fresh parser context that carries st
// to the link parser.
func (r *Renderer) parse(st *state, src []byte) ast.Node {
	pc := parser.NewContext()
	pc.Set(stateKey, st)
	return r.parser.Parse(text.NewReader(src), parser.WithContext(pc))
}

// renderBlocks renders the document one top-level block at a time, so that
// the summary can end after the block holding an inline <!--more-->.
func (st *state) renderBlocks(w *htmlWriter, doc ast.Node) {
	for c := doc.FirstChild(); c != nil; c = c.NextSibling() {
		if err := st.r.html.Render(w, st.src, c); err != nil {
			panic(err) // writes to a bytes.Buffer do not fail
		}
		if st.moreInline && st.summaryEnd < 0 {
			st.summaryEnd = w.Len()
		}
	}
}

// fallback is the result when rendering failed: the body's text, escaped,
// and an issue.
func (st *state) fallback(msg string) Result {
	var b strings.Builder
	b.WriteString("<pre>")
	var md strings.Builder
	var walk func([]pipeline.Node)
	walk = func(nodes []pipeline.Node) {
		for _, n := range nodes {
			md.WriteString(n.Text)
			walk(n.Inner)
		}
	}
	walk(st.post.Body)
	template.HTMLEscape(&b, []byte(md.String()))
	b.WriteString("</pre>\n")
	return Result{
		HTML:     template.HTML(b.String()),
		Markdown: md.String(),
		Issues:   []Issue{{Line: max(st.post.BodyLine, 1), Message: "render: internal error: " + msg}},
	}
}
