package render

import (
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"

	"folio/pipeline"
)

// # Alias templates
//
// Hugo writes the page at each alias (a front matter alias, a list's
// /page/1/) by running the site's alias template, layouts/alias.html or
// layouts/_default/alias.html, the site's own before its themes', with
// .Permalink the URL the alias leads to and the page's methods (.Title,
// .Params, .Site…, .Content and what is made of it) beside it, and the
// page as .Page; without one, its own. folio build writes
// that page in its export for a static host that cannot answer the 301
// that serve, the nginx config and the Worker answer (the contract's
// rule for aliases); LoadTemplates loads the template and AliasPage runs
// it, within the bounds of any site template.

// aliasNames are where an alias template may be, below a layouts folder,
// in the order Hugo looks.
var aliasNames = []string{"alias.html", "_default/alias.html"}

// loadAlias parses the first alias template of the roots (layouts
// folders, the site's first). One that does not parse is a warning, and
// folio's own page stands at the aliases.
func (t *Templates) loadAlias(fsys fs.FS, roots []string) {
	for _, root := range roots {
		for _, name := range aliasNames {
			p := path.Join(root, name)
			if _, err := fs.Stat(fsys, p); err != nil {
				continue
			}
			data, err := t.read(fsys, p)
			if err == nil {
				_, err = t.master.New(p).Parse(string(data))
			}
			if err != nil {
				pr := templateProblem(p, err)
				pr.Severity, pr.Message = pipeline.Warning, pr.Message+" (folio build writes its own page at each alias)"
				t.problems = append(t.problems, pr)
				t.aliasFailed = true
				return
			}
			t.alias = p
			return
		}
	}
}

// HasAlias reports whether the site has an alias template that parsed.
func (t *Templates) HasAlias() bool { return t != nil && t.alias != "" }

// HasAliasTemplate reports whether the renderer's site has an alias
// template that parsed (AliasPage writes pages).
func (r *Renderer) HasAliasTemplate() bool { return r.opts.Templates.HasAlias() }

// AliasFile is the alias template's file ("layouts/alias.html"), "" when
// the site has none that parsed.
func (t *Templates) AliasFile() string {
	if t == nil {
		return ""
	}
	return t.alias
}

// aliasData is what the alias template sees, Hugo's {Permalink,
// page.Page}: .Permalink, the URL the alias leads to, beside the page's
// own methods, and .Page, the page itself.
type aliasData struct {
	*aliasPage
	Permalink string
	Page      *aliasPage
}

// An aliasPage is the page an alias leads to, as a layout sees it: the
// page's methods with its rendered content (.Content, .Summary, .Plain,
// .Truncated, .TableOfContents), which a shortcode cannot have.
type aliasPage struct {
	*page
	body Result
}

// Content is the page's rendered content; Hugo trims the end of one
// with a <!--more--> divider.
func (a *aliasPage) Content() template.HTML {
	if hasDivider(a.post().Body) {
		return template.HTML(strings.TrimSpace(string(a.body.HTML)))
	}
	return a.body.HTML
}

// RelPermalink is the path of the page's URL, as Hugo gives it.
func (a *aliasPage) RelPermalink() string {
	if u, err := url.Parse(a.Permalink()); err == nil && u.Path != "" {
		return u.EscapedPath()
	}
	return a.Permalink()
}

// Summary is Hugo 0.165's .Summary: the front matter's summary rendered
// inline, else the content before <!--more-->, else the automatic
// summary (the content up to the end of the paragraph in which the
// summaryLength-th word falls).
func (a *aliasPage) Summary() (template.HTML, error) {
	s, _, err := a.summary()
	return s, err
}

// Truncated reports whether the summary leaves content out: text after
// <!--more-->, or an automatic summary shorter than the content; a front
// matter summary truncates nothing.
func (a *aliasPage) Truncated() (bool, error) {
	_, t, err := a.summary()
	return t, err
}

func (a *aliasPage) summary() (template.HTML, bool, error) {
	if s, ok := a.Params()["summary"].(string); ok && s != "" {
		h, err := a.st.renderString(s, true)
		return template.HTML(h), false, err
	}
	content := string(a.Content())
	if hasDivider(a.post().Body) {
		sum := strings.TrimSpace(string(a.body.Summary))
		return template.HTML(sum), strings.TrimSpace(content[min(len(sum), len(content)):]) != "", nil
	}
	sum := autoSummary(content, a.st.r.summaryLength())
	return template.HTML(sum), len(sum) < len(strings.TrimSpace(content)), nil
}

// Plain is the content without its tags: Hugo's plainify, entities as
// written.
func (a *aliasPage) Plain() string { return plainify(string(a.Content())) }

// TableOfContents is Hugo's table of contents of the content's headings
// (markup.tableOfContents): a Markdown body's headings as its tree has
// them (toc.go); an Org body's, as its HTML shows them.
func (a *aliasPage) TableOfContents() template.HTML {
	m := a.st.r.markup
	hs := a.body.Headings
	if isOrg(a.post()) {
		hs = htmlHeadings(string(a.body.HTML))
	}
	return template.HTML(tableOfContents(hs, m.TOCStart, m.TOCEnd, m.TOCOrdered))
}

// WordCount is Hugo's: the words of the plain content.
func (a *aliasPage) WordCount() int { return len(a.PlainWords()) }

// PlainWords are the words of the plain content.
func (a *aliasPage) PlainWords() []string { return strings.Fields(a.Plain()) }

// FuzzyWordCount is the word count rounded up to the next hundred.
func (a *aliasPage) FuzzyWordCount() int { return (a.WordCount() + 100) / 100 * 100 }

// ReadingTime is Hugo's minutes at 213 words a minute.
func (a *aliasPage) ReadingTime() int { return (a.WordCount() + 212) / 213 }

// Len is the length of the content, in bytes.
func (a *aliasPage) Len() int { return len(a.Content()) }

// An outputFormat is one of a page's formats, as .OutputFormats lists
// them: Hugo's page has HTML, and a list its RSS feed beside it.
type outputFormat struct {
	Rel, Name, Permalink, RelPermalink string
	MediaType                          mediaType
}

// OutputFormats are the page's formats: its HTML page, and a list's
// feed (index.xml beside it).
func (a *aliasPage) OutputFormats() []outputFormat {
	out := []outputFormat{{Rel: "canonical", Name: "html", Permalink: a.Permalink(), RelPermalink: a.RelPermalink(),
		MediaType: mediaType("text/html")}}
	if a.Kind() != pipeline.KindPage {
		out = append(out, outputFormat{Rel: "alternate", Name: "rss", Permalink: a.Permalink() + "index.xml",
			RelPermalink: a.RelPermalink() + "index.xml", MediaType: mediaType("application/rss+xml")})
	}
	return out
}

// tocHeading is a heading of a table of contents, with those below it.
type tocHeading struct {
	id, title string
	kids      []*tocHeading
}

// tocHeadingRE finds the headings of rendered content.
var tocHeadingRE = regexp.MustCompile(`(?s)<h([1-6])(?: id="([^"]*)")?[^>]*>(.*?)</h[1-6]>`)

// htmlHeadings are the headings of rendered content.
func htmlHeadings(content string) []Heading {
	var hs []Heading
	for _, m := range tocHeadingRE.FindAllStringSubmatch(content, -1) {
		hs = append(hs, Heading{Level: int(m[1][0] - '0'), ID: m[2], Title: m[3]})
	}
	return hs
}

// tableOfContents is Hugo's table of contents of the headings hs of
// levels start to end (-1: no end): each heading nested below the last
// heading of the level above it (an empty one when there is none),
// written as Hugo 0.165 writes it.
func tableOfContents(hs []Heading, start, end int, ordered bool) string {
	var roots []*tocHeading
	for _, m := range hs {
		level := m.Level
		h := &tocHeading{id: m.ID, title: m.Title}
		if level == 1 {
			roots = append(roots, h)
			continue
		}
		if len(roots) == 0 {
			roots = append(roots, &tocHeading{})
		}
		parent := roots[len(roots)-1]
		for i := 2; i < level; i++ {
			if len(parent.kids) == 0 {
				parent.kids = append(parent.kids, &tocHeading{})
			}
			parent = parent.kids[len(parent.kids)-1]
		}
		parent.kids = append(parent.kids, h)
	}
	list := "ul"
	if ordered {
		list = "ol"
	}
	var b strings.Builder
	indent := func(n int) { b.WriteString(strings.Repeat("  ", n)) }
	var headings func(level, in int, hs []*tocHeading)
	heading := func(level, in int, h *tocHeading) {
		indent(in)
		b.WriteString("<li>")
		if h.id != "" || h.title != "" {
			b.WriteString(`<a href="#` + h.id + `">` + h.title + "</a>")
		}
		headings(level, in, h.kids)
		if len(h.kids) > 0 && (end == -1 || level <= end) {
			indent(in)
		}
		b.WriteString("</li>\n")
	}
	headings = func(level, in int, hs []*tocHeading) {
		if level < start {
			for _, h := range hs {
				headings(level+1, in, h.kids)
			}
			return
		}
		if end != -1 && level > end || len(hs) == 0 {
			return
		}
		b.WriteString("\n")
		indent(in + 1)
		b.WriteString("<" + list + ">\n")
		for _, h := range hs {
			heading(level+1, in+2, h)
		}
		indent(in + 1)
		b.WriteString("</" + list + ">\n")
	}
	b.WriteString(`<nav id="TableOfContents">`)
	headings(1, 0, roots)
	b.WriteString("</nav>")
	return b.String()
}

// An AliasLang is the language of the page an alias leads to, which is
// site.Language in the template, as in Hugo's site of that language.
type AliasLang struct {
	Code, Locale string
}

// AliasPage runs the site's alias template for an alias of the page of
// post p (nil for a page without a content file, a list without an
// _index) that leads to permalink, an absolute URL, in lang (its Code
// "" for the site's). It is nil when the site has no alias template, or
// when the template fails, which the problem (a warning at the
// template's line) says; the export then writes folio's own page.
//
// body is the page's rendering (Render's Result), what .Content and
// the methods made of it give.
func (r *Renderer) AliasPage(p *pipeline.Post, permalink string, lang AliasLang, res Resolver, body Result) (out []byte, problem *pipeline.Problem) {
	tpls := r.opts.Templates
	if !tpls.HasAlias() {
		return nil, nil
	}
	fail := func(err error) ([]byte, *pipeline.Problem) {
		pr := pipeline.Problem{Path: tpls.alias, Line: 1, Severity: pipeline.Warning, Message: err.Error()}
		if m := aliasErrAt.FindStringSubmatch(pr.Message); m != nil {
			pr.Line, _ = strconv.Atoi(m[1])
			pr.Message = "template: " + pr.Message[len(m[0]):]
		}
		pr.Message += " (folio build writes its own page at this alias)"
		return nil, &pr
	}
	if p == nil {
		p = &pipeline.Post{PageMeta: &pipeline.PageMeta{}}
	}
	if res == nil {
		res = noPosts{}
	}
	st := r.newState(p, res)
	st.pageURL = permalink
	if s := r.opts.Site; lang.Code != "" && (s == nil || s.Language != lang.Code) {
		in := Site{}
		if s != nil {
			in = *s
		}
		in.Language, in.LanguageCode = lang.Code, lang.Locale
		st.siteView = &site{st: st, opts: &in}
	}
	defer func() {
		if v := recover(); v != nil {
			out, problem = fail(fmt.Errorf("internal error: %v", v))
		}
	}()
	c, err := tpls.get()
	if err != nil {
		return fail(err)
	}
	defer tpls.put(c)
	c.env.bindHook(st, 1, "alias template")
	w := &limitedWriter{max: maxCallOutput}
	if err := c.set.ExecuteTemplate(w, tpls.alias, newAliasData(st.pageView(), body, permalink)); err != nil {
		var te *templateError
		if m := execPrefix.FindStringSubmatch(err.Error()); m != nil && m[1] == tpls.alias && errors.As(err, &te) {
			// errorf's message alone (execError), at the line of the
			// template, or of its call of the partial that failed.
			out, pr := fail(te)
			pr.Line, _ = strconv.Atoi(m[2])
			return out, pr
		}
		return fail(execError(err))
	}
	if len(st.issues) > 0 {
		return fail(errors.New(st.issues[0].Message))
	}
	return []byte(w.String()), nil
}

func newAliasData(p *page, body Result, permalink string) aliasData {
	a := &aliasPage{page: p, body: body}
	return aliasData{aliasPage: a, Permalink: permalink, Page: a}
}

// aliasErrAt is the place execError puts first: "template FILE:LINE: ".
var aliasErrAt = regexp.MustCompile(`^template [^:]*:(\d+): `)
