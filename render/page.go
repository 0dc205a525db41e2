package render

import (
	"cmp"
	"errors"
	"fmt"
	"html/template"
	"path"
	"strings"
	"sync"
	"time"

	"folio/pipeline"
	"folio/render/funcs"
)

// Site is what shortcode templates see of the site as .Site, from the
// site's Hugo configuration; the config loader fills it. BaseURL is
// Options.BaseURL.
type Site struct {
	// Title is the site's title.
	Title string
	// LanguageCode is languageCode or locale ("en-us").
	LanguageCode string
	// Language is the content language's key ("en"), LanguageName its
	// name ("English").
	Language     string
	LanguageName string
	// LanguageDirection is the language's direction ("rtl"), "" when
	// the configuration does not say.
	LanguageDirection string
	// Weight is the language's weight; Languages are every language's
	// site in Hugo's order (.Site.Languages), nil for a site of one.
	Weight    int
	Languages []*Site
	// Copyright is the copyright line.
	Copyright string
	// Params are the site's params, keys lower-cased as Hugo has them.
	Params map[string]any
}

// page is a post as templates see it: .Page, Hugo's page.Page, with the
// methods shortcodes use.
type page struct {
	st *state // the rendering of the post

	paramsOnce sync.Once
	params     map[string]any
	store      *funcs.Scratch
	// nodeVal is the page in the site's model (node), once nodeDone.
	nodeVal  *sitePage
	nodeDone bool
}

func (st *state) pageView() *page {
	root := st.root()
	if root.pg == nil {
		root.pg = &page{st: root}
	}
	return root.pg
}

func (p *page) post() *pipeline.Post { return p.st.post }

// Title, Description, Slug and Draft are the front matter's.
func (p *page) Title() string       { return p.post().Title }
func (p *page) LinkTitle() string   { return cmp.Or(p.post().LinkTitle, p.post().Title) }
func (p *page) Description() string { return p.post().Description }
func (p *page) Slug() string        { return p.post().Slug }
func (p *page) Draft() bool         { return p.post().Draft }

// Date is Hugo's .Date, PublishDate the publish date; a list page's
// without any are its newest page's, as Hugo dates it.
func (p *page) Date() time.Time {
	if n := p.node(); n != nil {
		return n.Date()
	}
	return cmp.Or(p.post().Created, p.post().Date)
}
func (p *page) PublishDate() time.Time {
	if n := p.node(); n != nil {
		return n.PublishDate()
	}
	return p.post().Date
}
func (p *page) Lastmod() time.Time {
	if n := p.node(); n != nil {
		return n.Lastmod()
	}
	return cmp.Or(p.post().Lastmod, p.Date())
}
func (p *page) ExpiryDate() time.Time { return p.post().Expiry }
func (p *page) Aliases() []string     { return p.post().Aliases }
func (p *page) Weight() int           { return p.post().Weight }

// node is the page in the site's model, when the rendering has one and
// the site shows the post: where the page sits and what it lists.
func (p *page) node() *sitePage {
	if p.nodeDone {
		return p.nodeVal
	}
	p.nodeDone = true
	if l := p.st.lists(); l != nil {
		if pg := l.six.snap.PageOf(p.post()); pg != nil {
			p.nodeVal = l.page(pg)
		}
	}
	return p.nodeVal
}

// Kind, Type and Section say where the page sits: in a site's model as
// Hugo says, else a regular page of the posts section.
func (p *page) Kind() string {
	if n := p.node(); n != nil {
		return n.Kind()
	}
	return cmp.Or(p.post().Kind, "page")
}
func (p *page) Type() string {
	if n := p.node(); n != nil {
		return n.Type()
	}
	return p.st.r.opts.Section
}
func (p *page) Section() string {
	if n := p.node(); n != nil {
		return n.Section()
	}
	return p.st.r.opts.Section
}
func (p *page) IsPage() bool    { return p.Kind() == pipeline.KindPage }
func (p *page) IsHome() bool    { return p.Kind() == pipeline.KindHome }
func (p *page) IsSection() bool { return p.Kind() == pipeline.KindSection }
func (p *page) IsNode() bool    { return p.Kind() != pipeline.KindPage }

// IsTranslated, Translations, AllTranslations and TranslationKey are the
// page's translations (translations.go); a page outside a site's model
// has none.
func (p *page) IsTranslated() bool {
	n := p.node()
	return n != nil && n.IsTranslated()
}
func (p *page) Translations() pageList    { return p.nodeList((*sitePage).Translations) }
func (p *page) AllTranslations() pageList { return p.nodeList((*sitePage).AllTranslations) }
func (p *page) TranslationKey() string {
	if n := p.node(); n != nil {
		return n.TranslationKey()
	}
	return cmp.Or(p.post().TranslationKey, pagePath(p.post()))
}

// Pages, RegularPages, RegularPagesRecursive and Sections are what the
// page lists (a section's pages, the home page's sections…); Parent,
// CurrentSection and FirstSection the lists it is in; GetTerms its term
// pages. A page outside a site's model lists nothing and is in nothing.
func (p *page) Pages() pageList                 { return p.nodeList((*sitePage).Pages) }
func (p *page) RegularPages() pageList          { return p.nodeList((*sitePage).RegularPages) }
func (p *page) RegularPagesRecursive() pageList { return p.nodeList((*sitePage).RegularPagesRecursive) }
func (p *page) Sections() pageList              { return p.nodeList((*sitePage).Sections) }
func (p *page) Parent() *sitePage               { return p.nodePage((*sitePage).Parent) }
func (p *page) CurrentSection() *sitePage       { return p.nodePage((*sitePage).CurrentSection) }
func (p *page) FirstSection() *sitePage         { return p.nodePage((*sitePage).FirstSection) }
func (p *page) GetTerms(taxonomy string) pageList {
	if l := p.st.lists(); l != nil {
		return getTerms(l, p.post(), taxonomy)
	}
	return pageList{}
}

// Data is the page's .Data: a list's pages.
func (p *page) Data() map[string]any {
	if n := p.node(); n != nil {
		return n.Data()
	}
	return map[string]any{}
}

// Eq reports whether other is this page.
func (p *page) Eq(other any) bool {
	if o, ok := other.(*page); ok {
		return o.st.root() == p.st.root()
	}
	if n := p.node(); n != nil {
		return samePage(n.pg, other)
	}
	return false
}

func (p *page) nodeList(f func(*sitePage) pageList) pageList {
	if n := p.node(); n != nil {
		return f(n)
	}
	return pageList{}
}

func (p *page) nodePage(f func(*sitePage) *sitePage) *sitePage {
	if n := p.node(); n != nil {
		return f(n)
	}
	return nil
}

// Permalink and RelPermalink are the page's absolute URL: folio writes
// every URL of a body absolute, a template's included.
func (p *page) Permalink() string    { return p.st.pageURL }
func (p *page) RelPermalink() string { return p.st.pageURL }

// Params are the front matter's keys, lower-cased at every depth, with
// the entries of a "params" table over them, as Hugo 0.165 merges them.
func (p *page) Params() map[string]any {
	p.paramsOnce.Do(func() { p.params = pageParams(p.post(), p.st.r.opts.Templates) })
	return p.params
}

// pageParams are a post's params as templates see them (.Params).
func pageParams(post *pipeline.Post, t *Templates) map[string]any {
	fm := lowerKeys(post.FrontMatter()).(map[string]any)
	if m, ok := fm["params"].(map[string]any); ok {
		for k, v := range m {
			fm[k] = v
		}
	}
	return t.aliasKeys(fm).(map[string]any)
}

// Param looks key up in the page's params, then the site's; a dotted key
// walks into tables.
func (p *page) Param(key any) (any, error) { return lookupParam(p.Params(), p.Site().Params(), key) }

// lookupParam is .Param: key in a page's params, then the site's.
func lookupParam(page, site map[string]any, key any) (any, error) {
	k, ok := key.(string)
	if !ok {
		return nil, fmt.Errorf("Param: want a string key, got %T", key)
	}
	k = strings.ToLower(k)
	if v := lookupPath(page, k); v != nil {
		return v, nil
	}
	return lookupPath(site, k), nil
}

// lookupPath finds a dotted key in nested maps.
func lookupPath(m map[string]any, key string) any {
	var cur any = m
	for _, part := range strings.Split(key, ".") {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		if cur, ok = mm[part]; !ok {
			return nil
		}
	}
	return cur
}

// lowerKeys copies maps with their keys lower-cased, at every depth; a
// nil map is an empty one.
func lowerKeys(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[strings.ToLower(k)] = lowerKeys(e)
		}
		return out
	case nil:
		return map[string]any{}
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = lowerKeys(e)
		}
		return out
	}
	return v
}

// Site is the page's site.
func (p *page) Site() *site { return p.st.site() }

// File is the page's content file.
func (p *page) File() *file { return &file{path: p.st.contentPath(p.post().File)} }

// Language is the site's language.
func (p *page) Language() *language { return p.Site().Language() }
func (p *page) Lang() string        { return p.Site().Language().Lang() }

// Resources are the page bundle's files.
func (p *page) Resources() resources { return p.st.resources() }

// Scratch and Store are the page's scratch pad, shared by every call in
// the page.
func (p *page) Scratch() *funcs.Scratch { return p.Store() }
func (p *page) Store() *funcs.Scratch {
	if p.store == nil {
		p.store = p.st.newScratch()
	}
	return p.store
}

// RenderString renders Markdown (shortcodes included) as the page's
// content is rendered: with one argument, or an options map first
// (display "inline", the default, or "block"). Inline output of a single
// paragraph loses its <p>.
func (p *page) RenderString(args ...any) (template.HTML, error) {
	opts, text, err := renderStringArgs(args)
	if err != nil {
		return "", err
	}
	h, err := p.st.renderString(text, opts != "block")
	return template.HTML(h), err
}

func renderStringArgs(args []any) (display, text string, err error) {
	display = "inline"
	switch len(args) {
	case 1:
	case 2:
		m, ok := args[0].(map[string]any)
		if !ok {
			return "", "", errors.New("RenderString: the first of two arguments must be a map of options")
		}
		if d, ok := m["display"].(string); ok {
			display = d
		}
		args = args[1:]
	default:
		return "", "", errors.New("RenderString: want 1 or 2 arguments")
	}
	text, err = toString(args[0])
	return display, text, err
}

// Content is not available to the page's own shortcodes: the content is
// being made.
func (p *page) Content() (template.HTML, error) {
	return "", errors.New(".Page.Content: a shortcode cannot include the content of the page it is part of")
}

// WordCount and ReadingTime are computed from the page's text as
// written (its rendering is not done yet).
func (p *page) WordCount() int   { return wordCount(p.post()) }
func (p *page) ReadingTime() int { return (p.WordCount() + 212) / 213 }

// HasShortcode reports whether the page calls the shortcode name.
func (p *page) HasShortcode(name string) bool {
	found := false
	var walk func([]pipeline.Node)
	walk = func(nodes []pipeline.Node) {
		for i := range nodes {
			if nodes[i].Kind == pipeline.ShortcodeNode && nodes[i].Name == name {
				found = true
			}
			walk(nodes[i].Inner)
		}
	}
	walk(p.post().Body)
	return found
}

// Ref and RelRef resolve a reference from this page: a path, or a map
// with path, lang and outputFormat. Both give absolute URLs in folio.
func (p *page) Ref(args any) (string, error)    { return p.st.refFunc(args, p.st.lastLine) }
func (p *page) RelRef(args any) (string, error) { return p.st.refFunc(args, p.st.lastLine) }

// GetPage finds another page by the path a ref takes, relative to this
// one; nil when none.
func (p *page) GetPage(ref string) (any, error) { return p.st.getPage(ref, pageGetLookup) }

// pageRef is another page, found by GetPage: its title and URLs.
type pageRef struct{ t Page }

func (r *pageRef) Title() string        { return r.t.Title }
func (r *pageRef) LinkTitle() string    { return r.t.Title }
func (r *pageRef) Permalink() string    { return r.t.URL }
func (r *pageRef) RelPermalink() string { return r.t.URL }

// file is a page's content file, as .File.
type file struct{ path string }

func (f *file) Path() string         { return f.path }
func (f *file) Filename() string     { return f.path }
func (f *file) LogicalName() string  { return path.Base(f.path) }
func (f *file) Dir() string          { return path.Dir(f.path) + "/" }
func (f *file) Ext() string          { return strings.TrimPrefix(path.Ext(f.path), ".") }
func (f *file) BaseFileName() string { return strings.TrimSuffix(path.Base(f.path), path.Ext(f.path)) }
func (f *file) TranslationBaseName() string {
	return f.BaseFileName()
}
func (f *file) ContentBaseName() string {
	if name := f.BaseFileName(); name != "index" && name != "_index" {
		return name
	}
	return path.Base(path.Dir(f.path))
}
func (f *file) String() string { return f.path }
