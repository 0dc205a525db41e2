package server

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"time"

	"folio/agents"
	"folio/pipeline"
)

// The HTML pages: home, directory, article and 404. Each is rendered from
// the theme's templates once per snapshot (see state.memo) and served as
// a prepared representation. Memo keys start with "page:".

// homeLimit is how many of the newest posts the home page lists.
const homeLimit = 10

// A pageData is what every template gets: the site, the page's own head
// values, and the posts it shows.
type pageData struct {
	// Kind is the template: "home", "directory", "article" or "404".
	Kind string
	Site *pipeline.Config
	// Title and Description are the page's <title> and meta description.
	Title       string
	Description string
	// Canonical is the page's absolute URL; empty on the 404 page.
	Canonical string
	// Markdown is the absolute URL of the page's Markdown alternate, empty
	// when it has none.
	Markdown string
	// Dev is true under folio dev: the live-reload hook is included.
	Dev bool
	// OGType is the page's OpenGraph type: "article" or "website".
	OGType string
	// JSONLD is the page's structured data (schema.org), for a
	// <script type="application/ld+json"> element; empty when it has
	// none. Encoded so that no field can close the element.
	JSONLD template.JS

	// signals are the page's Content Signals (the Content-Signal header).
	signals agents.Signals

	Endpoints []endpoint // the API page's endpoints

	Post  *postView   // the article page's post
	Posts []*postView // the posts a list page shows
	Total int         // how many posts the site has

	// A list page (a section, taxonomy or term, or a further page of
	// any list): its kind, the pages of this page of it, its subsections
	// (on its first page), where it is among its pages, and its feed.
	ListKind string
	Items    []*itemView
	Sections []*itemView
	Pager    *pagerView
	Feed     string

	// Menu is the site's main menu (the config's and the pages' own
	// entries).
	Menu []termLink

	theme     *theme
	directory string
	site      string    // siteURL, what URL "" gives
	fragments *sync.Map // the state's, for Cached
}

// URL returns the absolute URL of a site-relative path ("" is the home
// page): every URL in a page is built from baseURL, never the Host header.
func (p *pageData) URL(path string) string {
	if path == "" && p.site != "" {
		return p.site
	}
	return p.Site.AbsURL(path)
}

// Asset returns the absolute URL of a static file, fingerprinted.
func (p *pageData) Asset(name string) string { return p.Site.AbsURL(p.theme.asset(name)) }

// Directory returns the absolute URL of the blog directory page.
func (p *pageData) Directory() string { return p.directory }

// Cached returns what the page's template name (a {{define}} of the
// theme) writes for v, made once per snapshot for each v and then reused
// by every page that asks: for a fragment many pages show alike, such as
// a list's item, which the section's, the home page's and each term's
// pagers all list. Like Hugo's partialCached, the output must depend on v
// alone, never on the page that asks (and $ inside name is v, as with
// {{template}}). A v that cannot be a key (not a pointer, string, integer
// or bool) is rendered every time.
//
// With a key, {{$.Cached "name" v key}}, the fragment is made once per
// key instead, as partialCached's variant: for a part of the layout that
// is the same on every page of the site, {{$.Cached "name" $ $.Site}}
// runs name with the page the first time and reuses what it wrote, so
// name may use only what every page shares.
//
// The fragment is written where the call stands as HTML, unescaped: call
// it where {{template name v}} would go, in the text of an element.
func (p *pageData) Cached(name string, v any, key ...any) (template.HTML, error) {
	t, ok := p.theme.pages[p.Kind]
	if !ok {
		return "", fmt.Errorf("no template for %s", p.Kind)
	}
	k := v
	switch len(key) {
	case 0:
	case 1:
		k = key[0]
	default:
		return "", fmt.Errorf("Cached %q: one key at most, got %d", name, len(key))
	}
	fk := fragmentKey{t, name, k}
	cacheable := p.fragments != nil && keyable(k)
	if cacheable {
		if out, ok := p.fragments.Load(fk); ok {
			return out.(template.HTML), nil
		}
	}
	buf := pageBufs.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= maxPooledBuf {
			pageBufs.Put(buf)
		}
	}()
	if err := t.ExecuteTemplate(buf, name, v); err != nil {
		return "", err
	}
	out := template.HTML(buf.String()) // kept at its size, not the buffer's
	if cacheable {
		p.fragments.Store(fk, out)
	}
	return out, nil
}

// A fragmentKey names one output of Cached: the page kind's template set,
// the template's name and the value (or the key it was given).
type fragmentKey struct {
	set  *template.Template
	name string
	v    any
}

// keyable reports whether v can be a map key without panicking and names
// one value: a pointer (what a list's items are), a string, an integer
// or a bool.
func keyable(v any) bool {
	if v == nil {
		return false
	}
	switch reflect.TypeOf(v).Kind() {
	case reflect.Pointer, reflect.String, reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// A postView is a post as the templates show it.
type postView struct {
	Slug, Title, Description, Category string
	Tags                               []string
	// Date and Updated are in the site's time zone; Updated is zero
	// when the post has no lastmod.
	Date, Updated    time.Time
	URL, MarkdownURL string
	// Status is "" for a published post, else "draft", "scheduled" or
	// "expired" (only folio dev --drafts shows those).
	Status string
	// Content is the rendered article body (article page only).
	Content template.HTML
	// TagLinks and CategoryLinks are the tags and categories with the
	// URL of their term's page, "" when the site has none.
	TagLinks, CategoryLinks []termLink
	// CategoryURL is the URL of Category's term page, "" for none.
	CategoryURL string
}

// A termLink is a term and the absolute URL of its page.
type termLink struct{ Name, URL string }

// termLinks links terms of a taxonomy to their pages.
func termLinks(st *state, lang, plural string, terms []string) []termLink {
	cfg := st.snap.Config()
	out := make([]termLink, 0, len(terms))
	for _, t := range terms {
		l := termLink{Name: t}
		if pg := st.snap.TermPage(lang, plural, t); pg != nil && pg.Path != "" && pg.Rendered {
			l.URL = cfg.AbsURL(strings.TrimPrefix(pipeline.EscapePath(pg.Path), "/"))
		}
		out = append(out, l)
	}
	return out
}

func newPostView(st *state, p *pipeline.Post) *postView {
	cfg := st.snap.Config()
	v := &postView{
		Slug:        p.Slug,
		Title:       p.Title,
		Description: p.Description,
		Category:    p.Category,
		Tags:        p.Tags,
		Date:        p.Date.In(cfg.Location),
		URL:         cfg.AbsURL(st.snap.URLOf(p)),
		MarkdownURL: cfg.AbsURL(st.snap.MarkdownURLOf(p)),
		Status:      status(cfg, p, st.snap.Now()),
	}
	v.TagLinks = termLinks(st, p.Lang, "tags", p.Tags)
	v.CategoryLinks = termLinks(st, p.Lang, "categories", p.Categories)
	if p.Category != "" {
		v.CategoryURL = termLinks(st, p.Lang, "categories", []string{p.Category})[0].URL
	}
	if !p.Lastmod.IsZero() {
		v.Updated = p.Lastmod.In(cfg.Location)
	}
	return v
}

// status names why p would not be published at now, "" when it is (a
// draft the config's buildDrafts publishes is published).
func status(cfg *pipeline.Config, p *pipeline.Post, now time.Time) string {
	switch {
	case cfg.Shows(p, now):
		return ""
	case p.Draft && !cfg.BuildDrafts:
		return "draft"
	case p.Date.After(now) && !cfg.BuildFuture:
		return "scheduled"
	case !p.Expiry.IsZero() && p.Expiry.Before(now) && !cfg.BuildExpired:
		return "expired"
	}
	return ""
}

// newPage starts the data of a page of kind for st.
func (s *Server) newPage(st *state, kind string) *pageData {
	cfg := st.snap.Config()
	return &pageData{
		Kind:        kind,
		Site:        cfg,
		Title:       cfg.Title,
		Description: cfg.Description,
		Dev:         s.opts.Dev,
		OGType:      "website",
		Total:       len(st.snap.Posts()),
		signals:     cfg.Agents.Signals,
		theme:       st.theme,
		directory:   directoryURL(st),
		site:        siteURL(st),
		Menu:        mainMenu(st),
		fragments:   &st.fragments,
	}
}

// mainMenu is the default language's main menu, each entry with its
// absolute URL.
func mainMenu(st *state) []termLink {
	cfg := st.snap.Config()
	return stateValue(st, "menu", func() []termLink {
		var out []termLink
		for _, e := range st.snap.Menu(cfg.DefaultLanguage, "main") {
			u := e.URL
			if !strings.Contains(u, "://") {
				u = cfg.AbsURL(strings.TrimPrefix(pipeline.EscapePath(u), "/"))
			}
			out = append(out, termLink{Name: e.Name, URL: u})
		}
		return out
	})
}

// views describes posts for a list page.
func views(st *state, posts []*pipeline.Post) []*postView {
	out := make([]*postView, len(posts))
	for i, p := range posts {
		out[i] = newPostView(st, p)
	}
	return out
}

// htmlRep renders pg with its template and prepares the answer: CSP on,
// and the Markdown alternate, when there is one, as a Link header too.
func htmlRep(st *state, pg *pageData, modified time.Time) (*rep, error) {
	body, err := st.theme.execute(pg.Kind, pg)
	if err != nil {
		return nil, err
	}
	if pg.Dev {
		body = liveInject(body, liveVersion(st)) // see live.go
	}
	rp := newRep(htmlType, body, latest(modified, st.theme.loaded))
	rp.csp = true
	if pg.Kind != "404" {
		rp.setAgentHeaders(pageLink(pg.Site, pg.Markdown), pg.signals.String(), "")
	}
	return rp, nil
}

// home answers / with the site's title, description and newest posts,
// or its Markdown (/index.md) when Accept prefers it.
func (s *Server) home(w http.ResponseWriter, r *http.Request, m match) {
	st := m.st
	if homeMoved(st) && m.route.Path == "/" {
		// The home page lives in the default language's folder
		// (defaultContentLanguageInSubdir): / sends there, as Hugo's does.
		page, _ := homeURLs(st)
		s.moved(w, m, page)
		return
	}
	s.negotiated(w, r, m,
		func() (*rep, error) { return s.homeRep(st) },
		func() (*rep, error) { return s.homeMarkdownRep(st) })
}

// homeMoved reports whether the site's home page lives elsewhere than /
// (the default language's folder), so that / answers 301 to it.
func homeMoved(st *state) bool {
	page, _ := homeURLs(st)
	return page != st.snap.Config().AbsURL("")
}

// homeTwinPath is the home page's Markdown twin, when the home is at /.
const homeTwinPath = "/index.md"

// rootEmpty reports whether Hugo writes nothing at /: the home page
// lives in the default language's folder (homeMoved) and the config turns
// Hugo's redirect there off (disableDefaultSiteRedirect), so Hugo writes
// nothing at / but the site's own static/index.html, if it has one. Serve
// and the export then answer / with that file (rootFile, elsewhere), or,
// where the site has none, with the 301 to the default language's home
// that they give with the redirect on: CONTRACT (Agents) wants the probes
// of / to pass on every site. The export's folder holds nothing at /
// (no page names it, as Hugo's); its nginx config and Worker answer the
// 301.
func rootEmpty(st *state) bool {
	return st.snap.Config().DisableDefaultSiteRedirect && homeMoved(st)
}

// rootFile reports whether the site's own static index.html answers at /
// where Hugo writes nothing there (rootEmpty).
func rootFile(st *state) bool {
	if !rootEmpty(st) {
		return false
	}
	_, ok := lookupSiteFile(st, "/")
	return ok
}

// siteURL is the URL folio's pages and agent files give for the site as
// a whole: /, or the default language's home when nothing answers at /
// (rootEmpty).
func siteURL(st *state) string {
	if rootEmpty(st) {
		page, _ := homeURLs(st)
		return page
	}
	return st.snap.Config().AbsURL("")
}

// homeURLs are the absolute URLs of the home page and its twin: "/" and
// "/index.md", or the default language's home ("/en/", "/en.md") when
// the site puts it in a subfolder.
func homeURLs(st *state) (page, twin string) {
	cfg := st.snap.Config()
	p := "/"
	if h := st.snap.Home(cfg.DefaultLanguage); h != nil {
		p = h.Path
	}
	rel := func(p string) string { return strings.TrimPrefix(pipeline.EscapePath(p), "/") }
	return cfg.AbsURL(rel(p)), cfg.AbsURL(rel(pipeline.TwinPath(p)))
}

// homeRep is the home page, made once per snapshot.
func (s *Server) homeRep(st *state) (*rep, error) {
	return st.memo("page:home", func() (*rep, error) {
		cfg := st.snap.Config()
		pg := s.newPage(st, "home")
		pg.Canonical, pg.Markdown = homeURLs(st)
		newestPosts := st.snap.Posts()[:min(homeLimit, len(st.snap.Posts()))]
		pg.Posts = views(st, newestPosts)
		pg.JSONLD = template.JS(agents.WebSiteAndBlog(agents.Site{
			Name: cfg.Title, Description: cfg.Description, URL: pg.Canonical, Language: cfg.Language,
			Author: cfg.Author, Directory: pg.Directory(),
		}))
		return htmlRep(st, pg, newest(st, newestPosts))
	})
}

// notFound answers 404 in the shape m's row says: problem+json for API
// clients, else the site's 404 page: its own static 404.html (GitHub
// Pages' convention, which Hugo publishes), else the theme's. Either way
// it is not stored by caches.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request, m match) {
	if m.route.Errors == ErrorsProblem {
		s.problem(w, r, m, http.StatusNotFound, "no such resource: "+r.URL.Path)
		return
	}
	st := m.st
	rp, err := st.memo("page:404", func() (*rep, error) {
		if own, ok := lookupSiteFile(st, NotFoundPath); ok {
			if rp, err := siteNotFound(st, own.File); err == nil {
				return rp, nil
			}
			// Gone since the snapshot, or too large to hold: the theme's.
		}
		pg := s.newPage(st, "404")
		pg.Title = "Page not found"
		pg.Description = ""
		return htmlRep(st, pg, time.Time{})
	})
	if err != nil {
		s.internalError(w, r, m, err)
		return
	}
	h := w.Header()
	body, _, hdr, _ := rp.form(r) // the page is over 1 KiB: compressed like any other
	if len(rp.encoded) > 0 {
		h["Vary"] = hdrVaryEncoding
	}
	if hdr.coding != nil {
		h["Content-Encoding"] = hdr.coding
	}
	h["Content-Type"] = hdr.ctype
	h.Set("Cache-Control", "no-store")
	if rp.csp {
		h.Set("Content-Security-Policy", s.csp())
	}
	h["Content-Length"] = hdr.length
	w.WriteHeader(http.StatusNotFound)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}
