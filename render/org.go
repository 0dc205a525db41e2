package render

import (
	"bytes"
	"html"
	"html/template"
	"io"
	"log"
	"net/url"
	"path"
	"regexp"
	"strings"
	"sync/atomic"

	"folio/pipeline"

	"github.com/niklasfasching/go-org/org"
)

// Org-mode content (a .org file) renders as Hugo 0.165 renders it: with
// go-org, the renderer Hugo uses (at the version Hugo pins), its code
// blocks highlighted by the site's highlighter. The body after the front
// matter is one Org document, its shortcode calls standing in it as
// placeholders whose output replaces them in the HTML, as in Hugo. Then,
// as for Markdown, every relative href and src is made absolute against
// the page's URL.
//
// The Markdown twin of an Org post is Markdown made from that document
// (htmlToMarkdown over go-org's HTML with plain code blocks): the
// contract's twin is the article as Markdown, and an agent asking for
// text/markdown must get Markdown, not Org syntax. Headings, lists,
// emphasis, links, code blocks with their language and tables keep their
// form; the shortcodes stand as their Markdown, as in a Markdown post's
// twin.

// isOrg reports whether a post is an Org-mode file: Hugo picks a
// content file's format by its extension.
func isOrg(p *pipeline.Post) bool {
	return strings.EqualFold(path.Ext(p.File), ".org")
}

// renderOrg is Render for an Org-mode post. go-org parses the document
// once; its HTML and, unless only the HTML is wanted (a description),
// the plain HTML the twin is made from are written from that parse.
func (st *state) renderOrg(p *pipeline.Post, twin bool) Result {
	st.buildOrg(p.Body)
	st.expandCalls()
	var out Result
	htm, plain := st.orgBodies(twin)
	body, summary := st.orgDivider(htm)
	out.HTML = template.HTML(st.orgCalls(body, false))
	if summary >= 0 {
		out.Summary = template.HTML(st.orgCalls(body[:summary], false))
	}
	if twin {
		plain, _ = st.orgDivider(plain)
		if md := htmlToMarkdown(plain); md != "" {
			out.Markdown = st.orgCalls(md, true) + "\n"
		}
	}
	out.Issues, out.Refs = st.sortedIssues(), st.refs
	return out
}

// renderOrgNodes renders body nodes as an Org fragment (what a template
// hands to .Page.RenderString on an Org page): its HTML.
func (st *state) renderOrgNodes(nodes []pipeline.Node, line int) string {
	sub := st.sub(line)
	sub.buildOrg(nodes)
	sub.expandCalls()
	htm, _ := sub.orgBodies(false)
	return sub.orgCalls(htm, false)
}

// orgBodies is the document's HTML as Hugo makes its content: go-org's,
// the table of contents go-org writes first taken out (Hugo offers it as
// .TableOfContents, not in .Content), relative URLs made absolute; and,
// when plain, the same with plain code blocks, else "".
func (st *state) orgBodies(plain bool) (string, string) {
	htm, txt := st.orgHTML(plain)
	htm = absoluteURLs(extractTOC(htm), st.page)
	if plain {
		txt = absoluteURLs(extractTOC(txt), st.page)
	}
	return htm, txt
}

// extractTOC takes go-org's table of contents (a <nav> whose list links
// to the headings) out of its HTML, as Hugo does.
func extractTOC(h string) string {
	const first, last = "<nav>\n<ul>", "</ul>\n</nav>"
	start := strings.Index(h, first)
	if start < 0 || !strings.Contains(h[start:min(len(h), start+70)], `<li><a href="#`) {
		return h
	}
	end := strings.Index(h[start:], last)
	if end < 0 {
		return h
	}
	return h[:start] + h[start+end+len(last):]
}

// buildOrg writes src from the body nodes: the text as written (line
// ends made "\n"), a placeholder for each shortcode call and for the
// summary divider, alone on its line.
func (st *state) buildOrg(body []pipeline.Node) {
	st.prefix = placeholderPrefix(body)
	st.src = nil
	for i := range body {
		n := &body[i]
		st.marks = append(st.marks, mark{len(st.src), n.Line})
		switch n.Kind {
		case pipeline.TextNode:
			st.src = append(st.src, normalizeNewlines(n.Text)...)
		case pipeline.MoreNode:
			if len(st.src) > 0 && st.src[len(st.src)-1] != '\n' {
				st.src = append(st.src, '\n')
			}
			st.src = append(st.src, '\n')
			st.placeholder(&call{kind: callMore, line: n.Line})
			st.src = append(st.src, "\n\n"...)
		default:
			if _, _, found := st.lookupShortcode(n.Name, n.Markup); !found {
				st.warn(n.Line, "shortcode %q: no template for it in the site or its theme (layouts/_shortcodes/%s.html); its inner text is kept", n.Name, n.Name)
				st.ordinal++
				for _, in := range n.Inner {
					st.src = append(st.src, normalizeNewlines(in.Text)...)
				}
				continue
			}
			st.orgCall(n)
		}
	}
}

// orgCall renders a shortcode call in an Org document: its output
// replaces its placeholder in the HTML, whichever its notation ({{% %}}
// output is HTML or text to Hugo's Org renderer too, which it passes
// through as it does the rest).
func (st *state) orgCall(n *pipeline.Node) {
	ordinal := st.ordinal
	st.ordinal++
	exp := st.expandCall(n, nil, 0, ordinal)
	st.placeholder(&call{kind: callShortcode, node: n, line: n.Line, html: exp.out, md: exp.md, url: exp.url, dropped: exp.dropped, mdBlock: exp.block})
}

// orgQuiet is go-org's logger: what it would warn of is not the author's
// to fix in folio's terms (Hugo logs it nowhere useful either).
var orgQuiet = log.New(io.Discard, "", 0)

// orgHTML renders src with go-org, code blocks highlighted as Hugo's
// highlight function does, and, when plain, writes the same parse again
// with plain <pre><code class="language-…"> blocks, which the twin is
// made from ("" when !plain).
func (st *state) orgHTML(plain bool) (string, string) {
	asWritten := func() (string, string) {
		pre := "<pre>" + template.HTMLEscapeString(string(st.src)) + "</pre>\n"
		if !plain {
			return pre, ""
		}
		return pre, pre
	}
	if why, at := orgTooDense(st.src); why != "" {
		// A warning: Hugo renders the post, in seconds or minutes (the
		// contract: what Hugo publishes is never a problem).
		st.warn(st.line(at), "org: %s for folio to render (go-org, Hugo's Org renderer, would take seconds or minutes); the text is shown as written", why)
		return asWritten()
	}
	cfg := org.New()
	cfg.Log = orgQuiet
	cfg.ReadFile = func(string) ([]byte, error) {
		// #+INCLUDE and #+SETUPFILE read nothing: what a page shows
		// would depend on a file that is not the page's, which a save
		// of that file would not render again (Hugo inserts it).
		return nil, errOrgInclude
	}
	orgParses.Add(1)
	doc := cfg.Parse(bytes.NewReader(st.src), st.post.File)
	st.warnOrgIncludes()
	out, err := doc.Write(st.orgWriter(true))
	var txt string
	if err == nil && plain {
		txt, err = doc.Write(st.orgWriter(false))
	}
	if err != nil {
		// As Hugo: the source as it is, after a problem.
		st.issue(max(st.post.BodyLine, 1), "org: %v; the text is shown as written", err)
		return asWritten()
	}
	return out, txt
}

// orgParses counts go-org's parses, for the tests.
var orgParses atomic.Int64

// orgWriter is a go-org HTML writer whose code blocks are highlighted
// as Hugo's highlight function does, or, when !highlight, written as
// plain <pre><code class="language-…"> blocks.
func (st *state) orgWriter(highlight bool) *org.HTMLWriter {
	w := org.NewHTMLWriter()
	w.HighlightCodeBlock = func(source, lang string, _ bool, _ map[string]string) string {
		var b strings.Builder
		if highlight {
			st.highlight(&b, source, lang, st.r.markup.Highlight)
		} else {
			b.WriteString(`<pre><code class="language-` + template.HTMLEscapeString(lang) + `">`)
			template.HTMLEscape(&b, []byte(source))
			b.WriteString("</code></pre>")
		}
		return b.String()
	}
	return w
}

// orgReadKeyword is an #+INCLUDE or #+SETUPFILE keyword line, as
// go-org reads a keyword (any case, a space or the line's end after the
// colon).
var orgReadKeyword = regexp.MustCompile(`(?i)^[ \t]*#\+(?:include|setupfile):(?:\s|$)`)

// warnOrgIncludes warns at every #+INCLUDE and #+SETUPFILE line of src
// outside a block, whatever its form: folio inserts no file, where Hugo
// inserts the three-word form (#+INCLUDE: "f.org" src org) and logs and
// drops the others.
func (st *state) warnOrgIncludes() {
	if !bytes.Contains(bytes.ToLower(st.src), []byte("#+include:")) && !bytes.Contains(bytes.ToLower(st.src), []byte("#+setupfile:")) {
		return
	}
	lines := strings.SplitAfter(string(st.src), "\n")
	off := 0
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if m := orgBeginBlock.FindStringSubmatch(l); m != nil {
			// A block's lines are its text, if the block is closed.
			end := i + 1
			for end < len(lines) && !orgEndsBlock(lines[end], m[1]) {
				end++
			}
			if end < len(lines) {
				for ; i < end; i++ {
					off += len(lines[i])
				}
				l = lines[i]
			}
		} else if orgReadKeyword.MatchString(l) {
			st.warn(st.line(off), "org: #+INCLUDE and #+SETUPFILE are not supported: folio leaves the file out, where Hugo inserts it (the form #+INCLUDE: \"file\" src|example|export lang) or drops it")
		}
		off += len(l)
	}
}

// orgEndsBlock reports whether l ends the block named name.
func orgEndsBlock(l, name string) bool {
	m := orgEndBlock.FindStringSubmatch(l)
	return m != nil && strings.EqualFold(m[1], name)
}

type orgError string

func (e orgError) Error() string { return string(e) }

const errOrgInclude = orgError("#+INCLUDE is not supported")

// orgDivider takes the divider's placeholder out of the HTML (with the
// paragraph go-org made of it) and returns where the summary ends, -1
// when the post has no divider.
func (st *state) orgDivider(h string) (string, int) {
	for _, c := range st.calls {
		if c.kind != callMore {
			continue
		}
		mark := string(st.src[c.off:c.end])
		i := strings.Index(h, mark)
		if i < 0 {
			return h, -1
		}
		from, to := i, i+len(mark)
		if p := strings.LastIndex(h[:from], "<p>"); p >= 0 && strings.TrimSpace(h[p+3:from]) == "" {
			if e := strings.Index(h[to:], "</p>"); e >= 0 && strings.TrimSpace(h[to:to+e]) == "" {
				from, to = p, to+e+len("</p>")
				if to < len(h) && h[to] == '\n' {
					to++
				}
			}
		}
		// As Hugo, a content with a divider is trimmed of white space,
		// and so is its summary.
		return strings.TrimSpace(h[:from] + h[to:]), len(strings.TrimSpace(h[:from]))
	}
	return h, -1
}

// orgCalls replaces the shortcodes' placeholders in out by their HTML,
// or by their Markdown (md).
func (st *state) orgCalls(out string, md bool) string {
	if len(st.calls) == 0 || !strings.Contains(out, string(st.prefix)) {
		return out
	}
	in := []byte(out)
	var b strings.Builder
	pos := 0
	for {
		i := bytes.Index(in[pos:], st.prefix)
		if i < 0 {
			break
		}
		c, n := st.callAt(in[pos+i:])
		if c == nil {
			b.Write(in[pos : pos+i+1])
			pos += i + 1
			continue
		}
		b.Write(in[pos : pos+i])
		if md {
			b.WriteString(c.md)
		} else {
			b.WriteString(c.html)
		}
		pos += i + n
	}
	b.Write(in[pos:])
	return b.String()
}

var orgURLAttr = regexp.MustCompile(`(\s(?:href|src))="([^"]*)"`)

// absoluteURLs resolves every relative href and src of h against the
// page's URL: every URL folio writes is absolute.
func absoluteURLs(h string, page *url.URL) string {
	return orgURLAttr.ReplaceAllStringFunc(h, func(m string) string {
		sub := orgURLAttr.FindStringSubmatch(m)
		v := html.UnescapeString(sub[2])
		if v == "" || strings.HasPrefix(v, "#") {
			return m
		}
		u, err := url.Parse(v)
		if err != nil || u.IsAbs() || u.Host != "" {
			return m
		}
		return sub[1] + `="` + html.EscapeString(page.ResolveReference(u).String()) + `"`
	})
}
