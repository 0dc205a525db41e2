package pipeline

import (
	"bytes"
	"cmp"
	"iter"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"folio/internal/layered"
)

// This file assembles the site model from the visible content pages: the
// sections, every page's URL, the lists (home, sections, taxonomies and
// terms) with their pagers and feeds, aliases, and the files published
// beside the pages. It follows Hugo 0.165: what it publishes, where.

// RouteKind tells the kinds of published paths apart.
type RouteKind uint8

const (
	// RoutePage is a page's HTML (the first page of a list).
	RoutePage RouteKind = iota
	// RoutePager is a further page of a list: /posts/page/2/.
	RoutePager
	// RouteFeed is a list's RSS feed: /posts/index.xml.
	RouteFeed
	// RouteAlias redirects to Target: a page's aliases, /page/1/, and
	// the language redirects of a multilingual site.
	RouteAlias
	// RouteFile is a file served as it is: a page resource, a static
	// file, an asset content refers to.
	RouteFile
)

func (k RouteKind) String() string {
	return [...]string{"page", "pager", "feed", "alias", "file"}[k]
}

// A Route is one path the site publishes and what answers it.
type Route struct {
	Path string // unescaped, from the site root: "/posts/hello/"
	Kind RouteKind
	// Page is the page of a page, pager or feed route.
	Page *Page
	// Pager is a pager route's number (2, 3, …).
	Pager int
	// Target is where an alias redirects, a site path.
	Target string
	// File is a file route's file in the site's FS.
	File string

	// owner is the page whose route this is (its page, pagers, feed,
	// aliases, resources and images); nil for static files and the
	// language redirects.
	owner *Page
}

// siteModel is the snapshot's model of the Hugo site: each language's
// pages and the routes of them all. It is never modified once built;
// sitepatch.go makes the next one from it, sharing what did not change.
type siteModel struct {
	langs  []*langModel
	routes layered.Map[string, Route]
	// pagers are the lists by pager key (pagerKey): their pagers are
	// answered by lookup.
	pagers map[string]*Page
	// contested are the paths more than one route wanted: the first
	// kept it. A patch touching one leaves the choice to a full build.
	contested map[string]bool
	// clashes are the pages that lost their path to an earlier page:
	// two content files claiming one URL.
	clashes []pageClash
	// hiddenAliases are the aliases at a path a page or file holds.
	hiddenAliases []aliasClash
	// staticTwins are the site's files at the path of a page's Markdown
	// twin, which they answer in place of the twin.
	staticTwins []aliasClash
	// ownFiles are the site's static files at a URL folio answers with
	// its own route (siteInput.own), which they do not get.
	ownFiles []Route
	// ownPagers is set once a patch has its own copy of pagers.
	ownPagers bool

	pagesOnce sync.Once
	pages     []*Page // made on first use

	// routes are the routes sorted by path (Snapshot.Routes), made on
	// first use, for the configuration routesFor.
	routesOnce   sync.Once
	sortedRoutes []Route
	routesFor    *Config
}

// siteInput is what the model is made of.
type siteInput struct {
	cfg *Config
	// posts are the visible content pages, every kind and language;
	// hidden the pages the site does not show (drafts, future, expired):
	// a hidden _index still makes its folder a section, as in Hugo
	// (hiddenSection), and a hidden page its top-level folder a shown one.
	posts, hidden []*Post
	// files are the content mounts' files that are not content, by path
	// in the site's FS; bundles the leaf bundles' folders and their files.
	files   []string
	bundles map[string][]string
	// static maps a static file's URL path to its file in the site's FS;
	// assets the files of the assets mounts by path inside them.
	static map[string]string
	assets map[string]string
	// own is Options.Own.
	own func(path string) bool
}

// buildSite makes the model.
func buildSite(in siteInput) *siteModel {
	// Made at about their size: at 100,000 pages growing them cost a
	// tenth of a second.
	m := &siteModel{routes: layered.New(make(map[string]Route, 2*len(in.posts)))}
	byLang, hiddenByLang := map[string][]*Post{}, map[string][]*Post{}
	for _, p := range in.posts {
		byLang[p.Lang] = append(byLang[p.Lang], p)
	}
	for _, p := range in.hidden {
		hiddenByLang[p.Lang] = append(hiddenByLang[p.Lang], p)
	}
	var byPath [][]*Page // each language's regular pages, by path
	for i := range in.cfg.Languages {
		lang := &in.cfg.Languages[i]
		b := &langModel{cfg: in.cfg, lang: lang, in: &in, m: m, posts: byLang[lang.Code], hidden: hiddenByLang[lang.Code]}
		byPath = append(byPath, b.build())
		b.in, b.m, b.posts, b.hidden = nil, nil, nil, nil // the model keeps no build input
		m.langs = append(m.langs, b)
	}
	// Pages, which every first render asks for (to index the site), is
	// made now from the regular pages sorted while the lists were made.
	m.pagesOnce.Do(func() {
		m.pages = nil
		for _, l := range m.langs {
			m.pages = l.appendListPages(m.pages)
		}
		slices.SortFunc(m.pages, comparePagePaths)
		for _, pages := range byPath {
			m.pages = mergeSorted(m.pages, pages, comparePagePaths)
		}
	})
	for u, f := range in.static {
		file := Route{Path: u, Kind: RouteFile, File: f}
		if dir, ok := strings.CutSuffix(u, "/index.html"); ok {
			switch old, taken := m.routes.Base()[dir+"/"]; {
			case taken && old.Kind == RouteAlias:
				// An alias at the folder's URL would write its redirect
				// page over the file: it never hides a file (add), which
				// is answered at the folder's URL as a static host does.
				delete(m.routes.Base(), dir+"/")
				m.contest(dir + "/")
				m.hiddenAliases = append(m.hiddenAliases, aliasClash{alias: old, by: file})
			case taken:
				// The page's own file. Hugo copies static files while it
				// renders, so which one it keeps is a race; folio keeps
				// the page, at both URLs. Contested, so that the page
				// moving away assembles the site and the file comes back.
				m.contest(dir + "/")
				continue
			}
		}
		if m.ownFile(file, in.own) {
			continue
		}
		m.add(file)
		m.staticTwin(file)
	}
	slices.SortFunc(m.ownFiles, func(a, b Route) int { return strings.Compare(a.Path, b.Path) })
	m.addLanguageRedirects(in.cfg)
	return m
}

// ownFile records a static file at one of folio's own URLs (own, from
// the server's route table: /openapi.json, /rss.xml, /api/posts.json,
// the home page's /index.md where the home is at /, …), which folio
// answers with its own, as CONTRACT fixes those routes: the file is not
// a route of the site (not at /api/index.html either, whose folder's
// URL is folio's API page), and the snapshot warns at it. The home's
// /index.md is the site's where the home lives in a language's folder
// (its twin is /en.md).
func (m *siteModel) ownFile(file Route, own func(string) bool) bool {
	if own == nil || !own(file.Path) {
		return false
	}
	if home, ok := m.routes.Base()["/"]; file.Path == "/index.md" && (!ok || home.Kind != RoutePage) {
		return false
	}
	m.ownFiles = append(m.ownFiles, file)
	return true
}

// staticTwin records a site file at the path of a page's Markdown twin
// (static/posts/a.md beside content/posts/a.md): Hugo publishes the
// file, which the author wrote, so it is what that path answers, and
// what the page's Markdown is (serve's Accept: text/markdown, the
// export); the page's path is contested, so that an update assembles
// the site again. The home page's /index.md is not one (its twin answers
// there).
func (m *siteModel) staticTwin(file Route) {
	base, ok := strings.CutSuffix(file.Path, ".md")
	if !ok || file.Path == "/index.md" {
		return
	}
	for _, page := range []string{base + "/", base + ".html"} {
		if r, ok := m.routes.Base()[page]; ok && r.Kind == RoutePage && TwinPath(page) == file.Path {
			m.contest(page)
			m.staticTwins = append(m.staticTwins, aliasClash{alias: r, by: file})
			return
		}
	}
}

// lang is the model of a language, nil when the site has none such.
func (m *siteModel) lang(code string) *langModel {
	for _, l := range m.langs {
		if l.lang.Code == code {
			return l
		}
	}
	return nil
}

// add records a route; the first one for a path keeps it, as the first
// file Hugo writes at a path is overwritten by no later one of folio's,
// except that an alias never hides a page or a file: Hugo writes both
// there, and which one it keeps depends on which of its writers ends
// last (it varies from build to build); folio keeps the page, and says
// so (aliasClash).
func (m *siteModel) add(r Route) {
	if r.Kind == RouteAlias && r.Path == notFoundPath {
		// The site's 404 page is there, in serve and in the export.
		m.contest(r.Path)
		m.hiddenAliases = append(m.hiddenAliases, aliasClash{alias: r, by: Route{Path: notFoundPath, Kind: RoutePage}})
		return
	}
	old, taken := m.routes.Base()[r.Path]
	if !taken {
		m.routes.Base()[r.Path] = r
		return
	}
	m.contest(r.Path)
	switch {
	case old.Kind == RouteAlias && r.Kind != RouteAlias:
		m.routes.Base()[r.Path] = r
		m.hiddenAliases = append(m.hiddenAliases, aliasClash{alias: old, by: r})
		return
	case r.Kind == RouteAlias && old.Kind != RouteAlias:
		m.hiddenAliases = append(m.hiddenAliases, aliasClash{alias: r, by: old})
		return
	}
	if r.Kind == RoutePage && old.Kind == RoutePage && r.Page.Post != nil && old.Page.Post != nil && r.Page.Post != old.Page.Post {
		m.clashes = append(m.clashes, pageClash{path: r.Path, loser: r.Page.Post, winner: old.Page.Post})
	}
}

// contest records that two routes claimed path.
func (m *siteModel) contest(path string) {
	if m.contested == nil {
		m.contested = map[string]bool{}
	}
	m.contested[path] = true
}

// notFoundPath is the site's 404 page (server.NotFoundPath), which no
// alias takes: Hugo writes both there, as at a page's URL.
const notFoundPath = "/404.html"

// A pageClash is a page whose path an earlier page holds.
type pageClash struct {
	path          string
	loser, winner *Post
}

// An aliasClash is an alias at a path a page or a file holds, which
// answers there instead.
type aliasClash struct {
	alias, by Route
}

// addLanguageRedirects adds Hugo's redirects to the default language's
// home page: / when it lives in /en/, /fr/ when French is the default
// at the root; none when the config turns them off.
func (m *siteModel) addLanguageRedirects(cfg *Config) {
	def := cfg.DefaultLanguage
	switch {
	case cfg.DisableDefaultSiteRedirect:
	case cfg.DefaultLanguageInSubdir:
		m.add(Route{Path: "/", Kind: RouteAlias, Target: "/" + def + "/"})
	case cfg.Multilingual():
		m.add(Route{Path: "/" + def + "/", Kind: RouteAlias, Target: "/"})
	}
}

// langModel is one language's pages.
type langModel struct {
	cfg    *Config
	lang   *Language
	prefix string // the URL prefix, "" for none
	// sections are the home ("") and section pages by content folder;
	// regular the regular pages by content file; terms the term pages
	// by taxonomy plural and term key; taxonomies the taxonomy pages.
	sections   map[string]*Page
	regular    layered.Map[*Post, *Page]
	terms      map[string]map[string]*Page
	taxonomies map[string]*Page
	// main are the main sections; counts the regular pages per top
	// section, from which main is chosen when none is configured.
	main   []string
	counts map[string]int
	// termRefs count the pages (listed or not) with each term, by
	// taxonomy plural and term key: a term with none goes.
	termRefs map[string]map[string]int
	// menuPages are the regular pages whose front matter has menu
	// entries, in no order: Menu looks at these, not at every page
	// (10 ms of each first render after a save at 100,000 posts).
	menuPages []*Page

	// While building: the input, the model the routes go to, and the
	// language's visible and hidden pages.
	in            *siteInput
	m             *siteModel
	posts, hidden []*Post
}

// build makes the language's model. It returns its regular pages sorted
// by path (comparePagePaths), for Pages: sorted beside the rest.
func (b *langModel) build() (byPath []*Page) {
	if b.lang.Code != b.cfg.DefaultLanguage || b.cfg.DefaultLanguageInSubdir {
		b.prefix = b.lang.Code
	}
	b.sections = map[string]*Page{}
	b.makeSections()
	regular := b.regularPages()
	var sorting sync.WaitGroup
	sorting.Go(func() {
		byPath = slices.Clone(regular)
		slices.SortFunc(byPath, comparePagePaths)
	})
	b.main = b.mainSections(regular)
	var withFile []*Page // the sections terms may list
	for _, sec := range b.sections {
		if sec.Post != nil {
			withFile = append(withFile, sec)
		}
	}
	order := newPageOrder(regular, withFile)
	// The sections' lists and the terms are made beside each other: each
	// writes pages the other only reads the content of.
	var wg sync.WaitGroup
	wg.Go(func() {
		byPost := make(map[*Post]*Page, len(regular))
		for _, pg := range regular {
			byPost[pg.Post] = pg
			if len(pg.Post.Menus) > 0 {
				b.menuPages = append(b.menuPages, pg)
			}
		}
		b.regular = layered.New(byPost)
		b.listSections(order)
	})
	b.makeTaxonomies(order)
	wg.Wait()
	b.publish(regular)
	sorting.Wait()
	return byPath
}

// regularPages makes the pages of the language's regular content pages,
// in the order of its posts, on every core.
func (b *langModel) regularPages() []*Page {
	var posts []*Post
	for _, p := range b.posts {
		if p.Kind == KindPage && !b.isTaxonomyFile(p) {
			posts = append(posts, p)
		}
	}
	regular := make([]*Page, len(posts))
	inParallel(len(posts), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			regular[i] = b.regularPage(posts[i])
		}
	})
	return regular
}

// isTaxonomyFile reports whether a content file is a taxonomy's or a
// term's _index (content/tags/_index.md, content/tags/go/_index.md).
// Other pages in a taxonomy's folder are pages like any.
func (b *langModel) isTaxonomyFile(p *Post) bool {
	if p.Kind == KindPage {
		return false
	}
	top, _, _ := strings.Cut(p.Dir, "/")
	for _, t := range b.lang.Taxonomies {
		if top == t.Plural {
			return true
		}
	}
	return false
}

// makeSections creates the home page and every section: each top-level
// folder with a page in it, each deeper folder with an _index.
func (b *langModel) makeSections() {
	index := map[string]*Post{}
	for _, p := range b.posts {
		if p.Kind != KindPage && !b.isTaxonomyFile(p) {
			index[p.Dir] = p
		}
	}
	b.sections[""] = b.listPage(KindHome, "", index[""])
	// A section the site does not show is still one: Hugo keeps its
	// page for the tree's shape with every build option off (never
	// rendered or listed, its files not published), so its pages and
	// files are not its parent's; a top-level one too, which
	// its pages do not make a shown section.
	for _, p := range b.hidden {
		if p.Dir != "" && p.Kind == KindSection && !b.isTaxonomyFile(p) && b.sections[p.Dir] == nil {
			b.sections[p.Dir] = b.hiddenSection(p.Dir)
		}
	}
	for _, p := range b.posts {
		if b.isTaxonomyFile(p) {
			continue
		}
		top, _, _ := strings.Cut(p.Dir, "/")
		if top != "" && b.sections[top] == nil && !b.isTaxonomyDir(top) {
			b.sections[top] = b.listPage(KindSection, top, index[top])
		}
	}
	// A top-level folder whose pages are all drafts, future or expired
	// is a section Hugo 0.165 publishes all the same, with no page listed.
	for _, p := range b.hidden {
		top, _, _ := strings.Cut(p.Dir, "/")
		if p.Kind == KindPage && top != "" && b.sections[top] == nil && !b.isTaxonomyDir(top) {
			b.sections[top] = b.listPage(KindSection, top, index[top])
		}
	}
	for dir, p := range index {
		if dir != "" && b.sections[dir] == nil {
			b.sections[dir] = b.listPage(KindSection, dir, p)
		}
	}
	// folio's own config names the posts' section: its page (the
	// directory of every post) is there before the first post is.
	if sec := b.cfg.Section; sec != "" && b.sections[sec] == nil && b.lang.Code == b.cfg.DefaultLanguage {
		b.sections[sec] = b.listPage(KindSection, sec, nil)
	}
}

// listPage makes a home or section page.
func (b *langModel) listPage(kind, dir string, p *Post) *Page {
	pg := &Page{Kind: kind, Lang: b.lang.Code, Section: dir, Post: p, Rendered: true}
	switch {
	case p != nil:
		pg.Title = p.TitleParam
		pg.Rendered = p.Build.Rendered()
	case kind == KindHome:
		pg.Title = b.lang.Title
	default:
		pg.Title = b.cfg.sectionTitle(path.Base(dir))
	}
	return pg
}

// hiddenSection is the page of a section whose _index the site does not
// show (hugolib's assembler disables its build options): never
// rendered nor listed, without the hidden file's content or title.
func (b *langModel) hiddenSection(dir string) *Page {
	return &Page{Kind: KindSection, Lang: b.lang.Code, Section: dir, Title: b.cfg.sectionTitle(path.Base(dir)), Hidden: true}
}

// currentSection is the section a page in folder dir belongs to: the
// deepest section at or above it.
func (b *langModel) currentSection(dir string) *Page {
	for d := dir; ; d = parentDir(d) {
		if s := b.sections[d]; s != nil {
			return s
		}
		if d == "" {
			return b.sections[""]
		}
	}
}

func parentDir(d string) string {
	if i := strings.LastIndexByte(d, '/'); i >= 0 {
		return d[:i]
	}
	return ""
}

// regularPage makes the page of a regular content page.
func (b *langModel) regularPage(p *Post) *Page {
	sec := b.currentSection(p.Dir)
	pg := &Page{Kind: KindPage, Lang: b.lang.Code, Post: p, Title: p.TitleParam, Section: sec.Section, Rendered: p.Build.Rendered()}
	if b.cfg.DisableKinds[KindPage] {
		pg.Rendered = false
	}
	pg.Path, pg.File = routeAndFile(b.cfg.targetFile(b.pageDesc(pg, "")))
	return pg
}

// pageDesc is where a page's HTML (or, with feed, its RSS) goes.
func (b *langModel) pageDesc(pg *Page, addends string) pathDesc {
	d := pathDesc{kind: pg.Kind, prefix: b.prefix, addends: addends}
	d.ugly = b.cfg.UglyURLs.For(b.uglySection(pg))
	pp := b.permaPage(pg)
	if pattern := permalinkRule(b.lang.Permalinks, pg.Kind, pp.path); pattern != "" {
		if exp, err := b.cfg.expandPermalink(pattern, pp); err == nil {
			d.permalink = cleanPermalink(exp)
		}
	}
	switch pg.Kind {
	case KindPage:
		p := pg.Post
		d.dir, d.base, d.url = b.pathCase(p.Dir), p.Base, p.URL
		if _, rest, ok := filenameDate(p.Base); ok && slices.Contains(b.cfg.Frontmatter.Date, ":filename") {
			d.base = rest
		}
		if !b.cfg.DisablePathToLower {
			d.base = normalizeName(d.base)
		}
		if p.SlugParam != "" {
			d.base = p.SlugParam
		}
	case KindSection:
		d.section = b.pathCase(pg.Section)
	case KindTaxonomy:
		d.section = pg.Taxonomy
	case KindTerm:
		d.section = pg.Taxonomy + "/" + b.termKey(pg.Term)
	}
	if pg.Post != nil && pg.Kind != KindPage {
		d.url = pg.Post.URL
	}
	return d
}

// pathCase is a content path as Hugo puts it in a URL: lower-cased, with
// hyphens for spaces, unless disablePathToLower.
func (b *langModel) pathCase(p string) string {
	if b.cfg.DisablePathToLower {
		return p
	}
	return normalizeName(p)
}

// normalizeName is Hugo's basic path normalisation: lower case, spaces
// as hyphens.
func normalizeName(s string) string {
	return strings.ReplaceAll(strings.ToLower(s), " ", "-")
}

// permaPage is what permalink tokens know of a page.
func (b *langModel) permaPage(pg *Page) permaPage {
	pp := permaPage{kind: pg.Kind, title: pg.Title}
	switch pg.Kind {
	case KindHome:
		pp.path = "/"
	case KindTaxonomy:
		pp.path = "/" + pg.Taxonomy
	case KindTerm:
		pp.path = "/" + pg.Taxonomy + "/" + normalizeName(pg.Term)
	case KindSection:
		pp.path = "/" + normalizeName(pg.Section)
	default:
		pp.path = "/" + normalizeName(path.Join(pg.Post.Dir, pg.Post.Base))
	}
	if p := pg.Post; p != nil {
		pp.date, pp.slug = p.Created, p.SlugParam
		if pg.Kind == KindPage {
			pp.file, pp.contentBase = p.Base, p.Base
		}
	}
	if pg.Section != "" {
		pp.sections = strings.Split(b.pathCase(pg.Section), "/")
		for i := range pp.sections {
			s := b.sections[strings.Join(strings.Split(pg.Section, "/")[:i+1], "/")]
			slug := ""
			if s != nil && s.Post != nil {
				slug = s.Post.SlugParam
			}
			if slug == "" && s != nil {
				slug = s.Title
			}
			pp.sectionSlugs = append(pp.sectionSlugs, slug)
		}
	}
	return pp
}

// mainSections are the language's main sections: configured, else the
// section with the most regular pages.
func (b *langModel) mainSections(regular []*Page) []string {
	if len(b.lang.MainSections) > 0 {
		return b.lang.MainSections
	}
	if b.cfg.Section != "" {
		return []string{b.cfg.Section}
	}
	b.counts = map[string]int{}
	for _, pg := range regular {
		if top, _, _ := strings.Cut(pg.Section, "/"); top != "" {
			b.counts[top]++
		}
	}
	return mostPages(b.counts)
}

// mostPages is the section with the most pages (the first by name of
// those with as many), as a main-sections list.
func mostPages(counts map[string]int) []string {
	best := ""
	for s, n := range counts {
		if n > counts[best] || (n == counts[best] && s < best) {
			best = s
		}
	}
	if best == "" {
		return nil
	}
	return []string{best}
}

// listSections fills the home and section lists: a section lists its
// regular pages (and its subsections beside them); the home page the
// regular pages of the main sections. Pages are taken in Hugo's order
// (order), so each list is in it.
func (b *langModel) listSections(order *pageOrder) {
	main := b.main
	home := b.sections[""]
	for _, pg := range order.sorted {
		if pg.Kind != KindPage || !pg.Post.Build.Listed() {
			continue
		}
		if pg.Section != "" {
			b.sections[pg.Section].Pages = append(b.sections[pg.Section].Pages, pg)
		}
		if top, _, _ := strings.Cut(pg.Section, "/"); top != "" && slices.Contains(main, top) {
			home.Pages = append(home.Pages, pg)
		}
	}
	for dir, sec := range b.sections {
		if dir == "" || !sec.Post.listed() || sec.Hidden {
			continue
		}
		if parent := b.currentSection(parentDir(dir)); parent.Kind == KindSection {
			parent.Sections = append(parent.Sections, sec)
		}
	}
	for _, sec := range b.sections {
		sortPages(sec.Sections)
	}
}

// listed reports whether a section's _index lets it be listed.
func (p *Post) listed() bool { return p == nil || p.Build.Listed() }

// makeTaxonomies creates the taxonomy and term pages of the language.
// A term is keyed by its name as Hugo puts it in a path (lower-cased,
// spaces as hyphens), so "Go" and "go" are one term. Hugo titles a term
// after one of its spellings, which one depending on a map's order;
// folio takes the first in file order and keeps every spelling.
func (b *langModel) makeTaxonomies(order *pageOrder) {
	b.terms = map[string]map[string]*Page{}
	b.termRefs = map[string]map[string]int{}
	index := map[string]*Post{} // taxonomy files by folder
	for _, p := range b.posts {
		if b.isTaxonomyFile(p) {
			index[p.Dir] = p
		}
	}
	// A term page's pages, by their ranks in order: sorted at the end.
	type listing struct {
		page  *Page
		ranks []int32
	}
	seen := termSet{} // a page's term keys so far
	for _, t := range b.lang.Taxonomies {
		byKey := map[string]*Page{}
		lists := map[string]*listing{}
		refs := map[string]int{}
		b.terms[t.Plural] = byKey
		b.termRefs[t.Plural] = refs
		for i, pg := range order.all { // in file order: the first spelling titles a term
			if pg.Post.Build.Render == "never" { // Hugo takes no terms from a page it does not link
				continue
			}
			terms := pg.Post.Terms[t.Plural]
			seen.reset(len(terms))
			for _, term := range terms {
				key := b.termKey(term)
				l := lists[key]
				if l == nil {
					tp := &Page{Kind: KindTerm, Lang: b.lang.Code, Taxonomy: t.Plural, Term: term, Rendered: true, firstFile: pg.Post.File}
					tp.Title = b.cfg.termTitle(term)
					l = &listing{page: tp}
					lists[key] = l
				}
				if !slices.Contains(l.page.Spellings, term) {
					l.page.Spellings = append(l.page.Spellings, term)
				}
				if !seen.add(key) {
					continue
				}
				refs[key]++
				if pg.Post.Build.Listed() {
					l.ranks = append(l.ranks, order.rank[i])
				}
			}
		}
		for key, l := range lists {
			if len(l.ranks) > 0 {
				l.page.Pages = order.pagesOfRanks(l.ranks)
			}
			byKey[key] = l.page
		}
		for dir, p := range index {
			plural, term, ok := strings.Cut(dir, "/")
			if plural != t.Plural || !ok {
				continue
			}
			key := b.termKey(term)
			tp := byKey[key]
			if tp == nil {
				tp = &Page{Kind: KindTerm, Lang: b.lang.Code, Taxonomy: t.Plural, Term: term, Title: b.cfg.termTitle(term), Rendered: true}
				byKey[key] = tp
			}
			tp.Post, tp.Title, tp.Rendered = p, p.TitleParam, p.Build.Rendered()
		}
	}
}

// A termSet is the term keys of one page: a few, looked through, or a
// map past termSetMax.
type termSet struct {
	few  []string
	many map[string]bool
}

const termSetMax = 16

// reset empties the set for a page of n terms.
func (s *termSet) reset(n int) {
	s.few, s.many = s.few[:0], nil
	if n > termSetMax {
		s.many = make(map[string]bool, n)
	}
}

// add adds key, reporting whether it was not there yet.
func (s *termSet) add(key string) bool {
	if s.many != nil {
		if s.many[key] {
			return false
		}
		s.many[key] = true
		return true
	}
	if slices.Contains(s.few, key) {
		return false
	}
	s.few = append(s.few, key)
	return true
}

// termKey is a term as Hugo keys it: its name as a path, lower-cased
// unless disablePathToLower, spaces as hyphens.
func (b *langModel) termKey(term string) string {
	return b.pathCase(term)
}

// publish gives every page its path, pagers and feed, and records the
// routes: pages, pagers, feeds, aliases and files.
func (b *langModel) publish(regular []*Page) {
	cfg := b.cfg
	for _, pg := range regular {
		b.publishPage(pg)
	}
	var lists []*Page
	if !cfg.DisableKinds[KindHome] {
		lists = append(lists, b.sections[""])
	}
	if !cfg.DisableKinds[KindSection] {
		for dir, sec := range b.sections {
			if dir != "" {
				lists = append(lists, sec)
			}
		}
	}
	b.taxonomies = map[string]*Page{}
	for _, t := range b.lang.Taxonomies {
		if !cfg.DisableKinds[KindTaxonomy] {
			tax := &Page{Kind: KindTaxonomy, Lang: b.lang.Code, Taxonomy: t.Plural, Rendered: true}
			b.taxonomies[t.Plural] = tax
			tax.Title = cfg.taxonomyTitle(t.Plural)
			if p := b.taxonomyIndex(t.Plural); p != nil {
				tax.Post, tax.Title, tax.Rendered = p, p.TitleParam, p.Build.Rendered()
			}
			for _, k := range sortedTermKeys(b.terms[t.Plural]) {
				tax.Pages = append(tax.Pages, b.terms[t.Plural][k])
			}
			lists = append(lists, tax)
		}
		if !cfg.DisableKinds[KindTerm] {
			for _, k := range sortedTermKeys(b.terms[t.Plural]) {
				lists = append(lists, b.terms[t.Plural][k]) // its pages in order (makeTaxonomies)
			}
		}
	}
	for _, l := range lists {
		b.publishList(l)
	}
	b.publishBranchFiles()
}

func sortedTermKeys(terms map[string]*Page) []string {
	keys := make([]string, 0, len(terms))
	for k := range terms {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// taxonomyIndex is the _index of a taxonomy's own folder, if any.
func (b *langModel) taxonomyIndex(plural string) *Post {
	for _, p := range b.posts {
		if p.Dir == plural && p.Kind != KindPage {
			return p
		}
	}
	return nil
}

// publishPage records a regular page's routes.
func (b *langModel) publishPage(pg *Page) {
	pg.Pagers = 1
	for _, r := range b.pageRoutes(pg) {
		b.m.add(r)
	}
}

// pageRoutes are a regular page's routes: the page and its aliases when
// it is rendered, its bundle's files, the assets its images name.
func (b *langModel) pageRoutes(pg *Page) []Route {
	var out []Route
	if pg.Rendered && b.hasOutput(pg, "html") {
		out = append(out, Route{Path: pg.Path, Kind: RoutePage, Page: pg, owner: pg})
		out = append(out, b.aliasRoutes(pg)...)
	}
	p := pg.Post
	if p.Bundle != "" && p.Build.PublishResources {
		base := resourceBase(pg.File)
		cm, _ := b.cfg.mountOfAs(p.File, false)
		for _, r := range b.in.bundles[p.Bundle] {
			if isContentFile(path.Base(r)) {
				continue
			}
			if lang, ok := b.cfg.fileLang(cm, r); !ok || lang != p.Lang {
				continue // another language's page publishes it, or none does
			}
			out = append(out, Route{Path: "/" + path.Join(base, r), Kind: RouteFile, File: p.Bundle + "/" + r, owner: pg})
		}
	}
	return append(out, b.imageRoutes(pg)...)
}

// imageRoutes are the files of assets/ that a page's images name, at
// their path: what Hugo's image hooks and figure publish.
func (b *langModel) imageRoutes(pg *Page) []Route {
	var out []Route
	p := pg.Post
	for _, src := range p.Images {
		u, err := urlPath(src)
		if err != nil || u == "" {
			continue
		}
		rel := strings.TrimPrefix(path.Clean("/"+u), "/")
		if f, ok := b.in.assets[rel]; ok {
			if p.Bundle != "" && slices.Contains(b.in.bundles[p.Bundle], strings.TrimPrefix(u, "./")) {
				continue // a page resource of the same name wins
			}
			out = append(out, Route{Path: "/" + rel, Kind: RouteFile, File: f, owner: pg})
		}
	}
	return out
}

// aliasRoutes are a page's aliases, where Hugo writes them (aliasPath).
func (b *langModel) aliasRoutes(pg *Page) []Route {
	if b.cfg.DisableAliases {
		return nil
	}
	ugly := b.cfg.UglyURLs.For(b.uglySection(pg))
	var out []Route
	for _, a := range pg.Post.Aliases {
		if p := aliasPath(a, b.prefix, resourceBase(pg.File), ugly); p != "" {
			out = append(out, Route{Path: p, Kind: RouteAlias, Target: pg.Path, owner: pg})
		}
	}
	return out
}

// aliasPath is where Hugo writes an alias (hugolib's Aliases and
// targetPathAlias): one that starts with a slash from the site root,
// below the language prefix; any other beside the page, from the folder
// its own folder is in (base, its resources' folder: "post/hello" for
// post/hello/index.html). A folder unless it ends in .html (an ugly
// section's alias gets .html). "" for one Hugo refuses: the site root,
// or above it.
func aliasPath(a, prefix, base string, ugly bool) string {
	a = strings.TrimSpace(a)
	if a == "" || strings.Contains(a, "://") {
		return ""
	}
	dir := "/" + prefix
	if !strings.HasPrefix(a, "/") {
		if base == "" {
			return "" // Hugo: "traverses outside the website root directory"
		}
		dir = path.Join("/"+base, "..")
	}
	a = path.Join(dir, a)
	if a == "/" || strings.HasPrefix(a, "/..") {
		return ""
	}
	isHTML := strings.HasSuffix(a, ".html") || strings.HasSuffix(a, ".htm")
	if ugly && !isHTML {
		a, isHTML = a+".html", true
	}
	if isHTML {
		return a
	}
	return a + "/"
}

// uglySection is the section whose uglyURLs setting applies to a page:
// its top-level section, or its taxonomy.
func (b *langModel) uglySection(pg *Page) string {
	if pg.Kind == KindTaxonomy || pg.Kind == KindTerm {
		return pg.Taxonomy
	}
	top, _, _ := strings.Cut(pg.Section, "/")
	return top
}

// publishList records a list page with its pagers, the /page/1/ alias
// and its feed.
func (b *langModel) publishList(pg *Page) {
	cfg := b.cfg
	pg.Path, pg.File = routeAndFile(cfg.targetFile(b.pageDesc(pg, "")))
	pg.Pagers = b.pagers(pg)
	if !pg.Rendered {
		return
	}
	pg.pagerKey = pagerKey(b.pagerPath(pg, 2))
	if !cfg.DisableKinds["rss"] && b.hasOutput(pg, "rss") {
		d := b.pageDesc(pg, "")
		d.feed = true
		pg.Feed = routeOf(cfg.targetFile(d))
	}
	for _, r := range b.listRoutes(pg) {
		b.m.add(r)
	}
	if b.hasOutput(pg, "html") {
		b.m.addPagers(pg)
	}
}

// listRoutes are a rendered list page's routes but its pagers: the page,
// its aliases, its feed.
func (b *langModel) listRoutes(pg *Page) []Route {
	var out []Route
	if b.hasOutput(pg, "html") {
		out = append(out, Route{Path: pg.Path, Kind: RoutePage, Page: pg, owner: pg})
		if pg.Post != nil {
			out = append(out, b.aliasRoutes(pg)...)
		}
	}
	if pg.Feed != "" {
		out = append(out, Route{Path: pg.Feed, Kind: RouteFeed, Page: pg, owner: pg})
	}
	return out
}

// pagerKey is a list's pagers' path with the number taken out, from its
// second page's ("/posts/page/2/" is "/posts/page/\x00/"): every pager
// path of the list is that with its number in.
func pagerKey(second string) string {
	i := strings.LastIndex(second, "2")
	return second[:i] + "\x00" + second[i+1:]
}

// splitPager takes the number out of a path that may be a pager's: its
// last segment (or file name, before .html). ok is false when that is not
// a number.
func splitPager(p string) (key string, n int, ok bool) {
	rest, suffix := p, ""
	switch {
	case strings.HasSuffix(rest, "/"):
		rest, suffix = rest[:len(rest)-1], "/"
	case strings.HasSuffix(rest, ".html"):
		rest, suffix = strings.TrimSuffix(rest, ".html"), ".html"
	default:
		return "", 0, false
	}
	i := strings.LastIndexByte(rest, '/')
	n, err := strconv.Atoi(rest[i+1:])
	if err != nil || n < 1 || strconv.Itoa(n) != rest[i+1:] {
		return "", 0, false
	}
	return rest[:i+1] + "\x00" + suffix, n, true
}

// addPagers records a list's pagers, answered by lookup (pagerRoute)
// rather than one route each: a list of thousands of pages has hundreds.
func (m *siteModel) addPagers(pg *Page) {
	if m.pagers == nil {
		m.pagers = map[string]*Page{}
	}
	if _, taken := m.pagers[pg.pagerKey]; !taken {
		m.pagers[pg.pagerKey] = pg
	}
}

// pagerRoute answers a pager path: the nth page of a list, or the first
// page's alias.
func (m *siteModel) pagerRoute(cfg *Config, p string) (Route, bool) {
	key, n, ok := splitPager(p)
	if !ok {
		return Route{}, false
	}
	pg := m.pagers[key]
	switch {
	case pg == nil || n > pg.Pagers:
		return Route{}, false
	case n == 1 && cfg.Pagination.DisableAliases:
		return Route{}, false
	case n == 1:
		return Route{Path: p, Kind: RouteAlias, Target: pg.Path, owner: pg}, true
	}
	return Route{Path: p, Kind: RoutePager, Page: pg, Pager: n, owner: pg}, true
}

// pagerPaths are the paths of a list's pagers, the first page's alias
// included (when there is one).
func (cfg *Config) pagerPaths(pg *Page) []string {
	var out []string
	from := 2
	if !cfg.Pagination.DisableAliases {
		from = 1
	}
	for n := from; n <= pg.Pagers; n++ {
		out = append(out, strings.Replace(pg.pagerKey, "\x00", strconv.Itoa(n), 1))
	}
	return out
}

// hasOutput reports whether a page has an output format: its front
// matter's outputs, else its kind's.
func (b *langModel) hasOutput(pg *Page, format string) bool {
	if pg.Post != nil && pg.Post.Outputs != nil {
		return slices.Contains(pg.Post.Outputs, format)
	}
	return b.cfg.HasOutput(pg.Kind, format)
}

// pagers is how many pages a list is cut into.
func (b *langModel) pagers(pg *Page) int {
	size := b.cfg.Pagination.PagerSize
	return max(1, (len(pg.Pages)+size-1)/size)
}

// pagerPath is the path of a list's nth page.
func (b *langModel) pagerPath(pg *Page, n int) string {
	return routeOf(b.cfg.targetFile(b.pageDesc(pg, b.cfg.Pagination.Path+"/"+strconv.Itoa(n))))
}

// publishBranchFiles publishes the files of the content folders that are
// not content and not in a leaf bundle: each belongs to the deepest
// section (or the home page) above it and is written below its URL.
func (b *langModel) publishBranchFiles() {
	for _, f := range b.in.files {
		if otherFormat(path.Base(f)) != "" {
			continue // a page to Hugo, which folio cannot render (a warning)
		}
		cm, ok := b.cfg.mountOfAs(f, false) // a file, whatever its name
		if !ok {
			continue
		}
		if lang, ok := b.cfg.fileLang(cm, f); !ok || lang != b.lang.Code {
			continue // published once, by its own language
		}
		owner, rel := b.fileOwner(cm.rel)
		if owner == nil || !owner.Rendered {
			continue
		}
		b.m.add(Route{Path: "/" + path.Join(resourceBase(owner.File), rel), Kind: RouteFile, File: f, owner: owner})
	}
}

// isTaxonomyDir reports whether a top-level content folder is a
// taxonomy's.
func (b *langModel) isTaxonomyDir(name string) bool {
	for _, t := range b.lang.Taxonomies {
		if t.Plural == name {
			return true
		}
	}
	return false
}

// fileOwner is the list page a content folder's file (not in a leaf
// bundle) belongs to, and its path below that page: the deepest section
// above it, or in a taxonomy's folder its term (or the taxonomy).
func (b *langModel) fileOwner(rel string) (*Page, string) {
	dir := parentDir(rel)
	top, below, _ := strings.Cut(rel, "/")
	for _, t := range b.lang.Taxonomies {
		if top != t.Plural {
			continue
		}
		if term, rest, ok := strings.Cut(below, "/"); ok {
			if tp := b.terms[t.Plural][b.termKey(term)]; tp != nil && tp.File != "" {
				return tp, rest
			}
		}
		if tax := b.taxonomies[t.Plural]; tax != nil {
			return tax, below
		}
		return nil, ""
	}
	sec := b.currentSection(dir)
	return sec, strings.TrimPrefix(strings.TrimPrefix(rel, sec.Section), "/")
}

// sortPages sorts as Hugo's default: weight (none last), date newest
// first, link title, path; pages equal in all four keep their order.
//
// The weight and date of each page are copied beside it first, so that
// most comparisons read one array instead of two pointers away; and it
// is pdqsort with the position as the last key, instead of a stable
// sort, whose merging moves each page O(log² n) times. A section of
// 100,000 posts took 0.55 s of CPU to sort in serve's start-up;
// BenchmarkSortPages went from about 200 ms of CPU a sort to about 35 ms.
func sortPages(pages []*Page) {
	if len(pages) < 2 {
		return
	}
	keys := make([]pageKey, len(pages))
	for i, p := range pages {
		keys[i] = keyOf(p, i)
	}
	slices.SortFunc(keys, comparePageKeys)
	for i, k := range keys {
		pages[i] = k.page
	}
}

// comparePages is Hugo's default order of pages.
func comparePages(a, b *Page) int {
	if c := compareWeights(pageWeight(a), pageWeight(b)); c != 0 {
		return c
	}
	if c := pageDate(b).Compare(pageDate(a)); c != 0 {
		return c
	}
	return compareTitlePath(a, b)
}

// compareWeights orders weights ascending, with 0 (no weight) last.
func compareWeights(wa, wb int) int {
	switch {
	case wa == wb:
		return 0
	case wa == 0:
		return 1
	case wb == 0:
		return -1
	}
	return cmp.Compare(wa, wb)
}

// compareTitlePath is the order of pages of the same weight and date.
func compareTitlePath(a, b *Page) int {
	if c := strings.Compare(strings.ToLower(linkTitle(a)), strings.ToLower(linkTitle(b))); c != 0 {
		return c
	}
	return strings.Compare(a.Path, b.Path)
}

func pageWeight(p *Page) int {
	if p.Post == nil {
		return 0
	}
	return p.Post.Weight
}

func pageDate(p *Page) time.Time {
	if p.Post != nil {
		return p.Post.Created
	}
	return time.Time{}
}

func linkTitle(p *Page) string {
	if p.Post != nil && p.Post.LinkTitle != "" {
		return p.Post.LinkTitle
	}
	return p.Title
}

// Routes are every path the site publishes, sorted by path: its pages,
// list pagers, feeds, aliases and files.
//
// They are made once (a build asks for them some eight times: 29,000
// routes at 10,000 posts, made and sorted each time, took a build after
// a one-post edit 0.09 s); each caller gets its own copy.
func (s *Snapshot) Routes() []Route {
	m := s.site
	m.routesOnce.Do(func() { m.sortedRoutes, m.routesFor = s.makeRoutes(), s.config })
	if m.routesFor != s.config {
		return s.makeRoutes() // a model shared with another configuration's snapshot
	}
	return slices.Clone(m.sortedRoutes)
}

// EachRoute yields Routes, in their order, without the copy Routes
// makes for its caller: for one that only reads them (a build over its
// previous output walks them some six times, 2.3 MB each at 10,000
// posts).
func (s *Snapshot) EachRoute() iter.Seq[Route] {
	m := s.site
	m.routesOnce.Do(func() { m.sortedRoutes, m.routesFor = s.makeRoutes(), s.config })
	if m.routesFor != s.config {
		return slices.Values(s.makeRoutes())
	}
	return slices.Values(m.sortedRoutes)
}

// makeRoutes makes Routes.
func (s *Snapshot) makeRoutes() []Route {
	out := make([]Route, 0, s.site.routes.Len())
	for _, r := range s.site.routes.All {
		out = append(out, r)
	}
	for _, pg := range s.site.pagers {
		for _, p := range s.config.pagerPaths(pg) {
			if r, ok := s.Route(p); ok && r.owner == pg {
				out = append(out, r)
			}
		}
	}
	slices.SortFunc(out, func(a, b Route) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// Route looks up what answers a path (unescaped, from the site root).
func (s *Snapshot) Route(p string) (Route, bool) {
	if r, ok := s.site.routes.Get(p); ok {
		return r, true
	}
	return s.site.pagerRoute(s.config, p)
}

// Pages are the site's pages, rendered or not, sorted by path (pages not
// rendered have none and come first).
func (s *Snapshot) Pages() []*Page {
	m := s.site
	m.pagesOnce.Do(func() {
		for _, l := range m.langs {
			m.pages = append(m.pages, l.allPages()...)
		}
		slices.SortFunc(m.pages, comparePagePaths)
	})
	return m.pages
}

// ListPages are the pages that are no regular page (home and section
// pages, taxonomies, terms), in every language, in Pages' order: a few
// hundred where Pages has every post.
func (s *Snapshot) ListPages() []*Page {
	var out []*Page
	for _, l := range s.site.langs {
		out = l.appendListPages(out)
	}
	slices.SortFunc(out, comparePagePaths)
	return out
}

// comparePagePaths orders pages by path, then kind, language and file.
// The rest is compared only for pages of one path (cmp.Or would compare
// it for every pair: two thirds of Pages' sort at 100,000 pages).
func comparePagePaths(a, b *Page) int {
	if c := strings.Compare(a.Path, b.Path); c != 0 {
		return c
	}
	return cmp.Or(strings.Compare(a.Kind, b.Kind), strings.Compare(a.Lang, b.Lang), strings.Compare(pageFile(a), pageFile(b)))
}

func pageFile(p *Page) string {
	if p.Post != nil {
		return p.Post.File
	}
	return p.Term
}

// appendListPages appends the language's home and section pages,
// taxonomies and terms to out.
func (l *langModel) appendListPages(out []*Page) []*Page {
	for _, pg := range l.sections {
		out = append(out, pg)
	}
	for _, pg := range l.taxonomies {
		out = append(out, pg)
	}
	for _, terms := range l.terms {
		for _, pg := range terms {
			out = append(out, pg)
		}
	}
	return out
}

// allPages are the language's pages.
func (l *langModel) allPages() []*Page {
	var out []*Page
	for _, pg := range l.regular.All {
		out = append(out, pg)
	}
	out = l.appendListPages(out)
	return out
}

// MainSections are the main sections of a language: configured, else the
// section with the most pages.
func (s *Snapshot) MainSections(lang string) []string {
	if l := s.site.lang(lang); l != nil {
		return l.main
	}
	return nil
}

// PageOf is the page of a visible content file, nil for one the
// snapshot does not show (or a taxonomy's _index, which is no page of its
// own kind).
func (s *Snapshot) PageOf(p *Post) *Page {
	l := s.site.lang(p.Lang)
	if l == nil {
		return nil
	}
	switch p.Kind {
	case KindPage:
		pg, _ := l.regular.Get(p)
		return pg
	case KindHome, KindSection:
		if sec := l.sections[p.Dir]; sec != nil && sec.Post == p {
			return sec
		}
	}
	return nil
}

// URLOf is where a post's page is served, escaped and site-relative, as
// Config.AbsURL takes it ("2024/01/hello/"): its Hugo permalink. A post
// the snapshot does not show has none; it gets the path it would have
// under the section (for messages about links to it).
func (s *Snapshot) URLOf(p *Post) string {
	if pg := s.PageOf(p); pg != nil && pg.Path != "" {
		return strings.TrimPrefix(EscapePath(pg.Path), "/")
	}
	return p.Path(s.config.Section)
}

// MarkdownURLOf is where a post's Markdown twin is served, escaped and
// site-relative ("2024/01/hello.md").
func (s *Snapshot) MarkdownURLOf(p *Post) string {
	if pg := s.PageOf(p); pg != nil && pg.Path != "" {
		return strings.TrimPrefix(EscapePath(TwinPath(pg.Path)), "/")
	}
	return p.MarkdownPath(s.config.Section)
}

// AliasSource is the content file whose front matter declares the alias
// route r (a page's, or a list's _index.md's), nil for the other aliases:
// a list's /page/1/ and a language's redirect.
func (s *Snapshot) AliasSource(r Route) *Post {
	if r.Kind != RouteAlias || r.owner == nil || r.owner.Post == nil {
		return nil
	}
	if key, n, ok := splitPager(r.Path); ok && n == 1 && s.site.pagers[key] == r.owner {
		return nil
	}
	return r.owner.Post
}

// TwinPath is the path of a page's Markdown twin: the page's path
// without its final slash (or .html) and with .md; the home page's is
// /index.md.
func TwinPath(page string) string {
	switch {
	case page == "/":
		return "/index.md"
	case strings.HasSuffix(page, "/"):
		return strings.TrimSuffix(page, "/") + ".md"
	case strings.HasSuffix(page, ".html"):
		return strings.TrimSuffix(page, ".html") + ".md"
	}
	return page + ".md"
}

// TwinOf finds the page (or pager) whose Markdown twin is at path p.
// The candidates' paths are made in a buffer and looked up without
// making strings: a twin is asked for on every request for a post's
// Markdown.
func (s *Snapshot) TwinOf(p string) (Route, bool) {
	base, ok := strings.CutSuffix(p, ".md")
	if !ok || !strings.HasPrefix(p, "/") {
		return Route{}, false
	}
	if p == "/index.md" {
		base = ""
	}
	var buf [128]byte
	for _, ext := range [...]string{"/", ".html"} {
		cand := append(append(buf[:0], base...), ext...)
		if r, ok := s.routeOfBytes(cand); ok && (r.Kind == RoutePage || r.Kind == RoutePager) && isTwinPath(cand, p) {
			return r, true
		}
	}
	return Route{}, false
}

// routeOfBytes is Route of the path in p, which it does not keep.
func (s *Snapshot) routeOfBytes(p []byte) (Route, bool) {
	if r, ok := layered.GetBytes(s.site.routes, p); ok {
		return r, true
	}
	if !bytes.HasSuffix(p, []byte("/")) && !bytes.HasSuffix(p, []byte(".html")) {
		return Route{}, false // no pager's path (splitPager)
	}
	return s.site.pagerRoute(s.config, string(p))
}

// isTwinPath reports whether TwinPath(page) is twin, without making it.
func isTwinPath(page []byte, twin string) bool {
	switch {
	case string(page) == "/":
		return twin == "/index.md"
	case bytes.HasSuffix(page, []byte("/")):
		page = page[:len(page)-1]
	case bytes.HasSuffix(page, []byte(".html")):
		page = page[:len(page)-len(".html")]
	}
	return len(twin) == len(page)+len(".md") && twin[:len(page)] == string(page) && strings.HasSuffix(twin, ".md")
}

// EscapePath escapes a site path for a URL, segment by segment, as the
// site's links are written ("/tags/été/" is "/tags/%C3%A9t%C3%A9/").
//
// A path of letters, digits, "-_.~" and slashes alone, as most are, is
// its own escape, and is returned without a segment split off (a build
// escapes some 60,000 paths).
func EscapePath(p string) string {
	plain := true
	for i := 0; i < len(p) && plain; i++ {
		plain = pathSafe[p[i]]
	}
	if plain {
		return p
	}
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		segs[i] = url.PathEscape(seg)
	}
	return strings.Join(segs, "/")
}

// pathSafe are the bytes url.PathEscape leaves as they are in a
// segment that EscapePath may pass through whole: letters, digits,
// "-_.~", and the slash between segments.
var pathSafe = func() (safe [256]bool) {
	for c := range 256 {
		safe[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.~/", byte(c)) >= 0
	}
	return safe
}()

// Directory is the page of the first main section in the default
// language, where folio's directory of every post is; nil when there is
// none.
func (s *Snapshot) Directory() *Page {
	l := s.site.lang(s.config.DefaultLanguage)
	if l == nil || len(l.main) == 0 {
		return nil
	}
	return l.sections[l.main[0]]
}

// Home is the home page of a language.
func (s *Snapshot) Home(lang string) *Page {
	if l := s.site.lang(lang); l != nil {
		return l.sections[""]
	}
	return nil
}

// PagerPath is the path of a list's nth page (n ≥ 2); its first page's
// path is the list's own.
func (s *Snapshot) PagerPath(pg *Page, n int) string {
	if n <= 1 || pg.pagerKey == "" {
		return pg.Path
	}
	return strings.Replace(pg.pagerKey, "\x00", strconv.Itoa(n), 1)
}

// Menu is a menu of a language: its entries from the config and from the
// front matter of its pages, in Hugo's order (weight, name). A page's
// entry (and a config entry's pageRef) has the page's path as its URL,
// and the page's link title, else title, as its name when it gives none.
// Entries are a new slice; the snapshot's pages are shared.
func (s *Snapshot) Menu(lang, name string) []MenuEntry {
	l := s.site.lang(lang)
	if l == nil {
		return nil
	}
	var out []MenuEntry
	for _, e := range l.lang.Menus[name] {
		if e.PageRef != "" {
			if pg := l.pageByRef(e.PageRef); pg != nil {
				e.URL = pg.Path
				if e.Name == "" {
					e.Name = pg.Title
				}
			}
		}
		out = append(out, e)
	}
	for _, pg := range l.appendListPages(slices.Clone(l.menuPages)) {
		if pg.Post == nil || !pg.Rendered {
			continue
		}
		for _, e := range pg.Post.Menus {
			if e.Menu != name {
				continue
			}
			e.URL, e.Page = pg.Path, pg.Post.File
			if e.Name == "" {
				e.Name = cmp.Or(pg.Post.LinkTitle, pg.Title)
			}
			if e.Identifier == "" {
				e.Identifier = pg.Path
			}
			out = append(out, e)
		}
	}
	SortMenu(out)
	return out
}

// pageByRef finds a page by a menu's pageRef: its content path ("/docs",
// "/posts/hello", "about.md") or its URL path.
func (l *langModel) pageByRef(ref string) *Page {
	ref = strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(ref, "/"), "/"), path.Ext(ref))
	ref = strings.ToLower(ref)
	if sec := l.sections[ref]; sec != nil {
		return sec
	}
	for _, pg := range l.regular.All {
		if strings.ToLower(path.Join(pg.Post.Dir, pg.Post.Base)) == ref {
			return pg
		}
	}
	for plural, tax := range l.taxonomies {
		if plural == ref {
			return tax
		}
	}
	return nil
}

// TermPage is the page of a term of a taxonomy (by plural) in a
// language, nil when the site has none.
func (s *Snapshot) TermPage(lang, plural, term string) *Page {
	l := s.site.lang(lang)
	if l == nil {
		return nil
	}
	return l.terms[plural][l.termKey(term)]
}
