package render

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
	"sync"
	"time"

	"folio/pipeline"

	"github.com/spf13/cast"
	"golang.org/x/text/collate"
	textlang "golang.org/x/text/language"
)

// siteLists is one language of a snapshot's site as templates list it,
// as Hugo 0.165 lists it: .Site.Pages and .Site.RegularPages, each
// list page's .Pages, .RegularPages and .Sections, .Site.Taxonomies, in
// Hugo's default order (weight, date newest first, link title by the
// language's collation, path), list pages dated by their newest page
// when they have no date of their own. It is made on first use, once
// per snapshot and language, and shared by every rendering of the
// snapshot: a site whose templates list nothing never pays for it.
type siteLists struct {
	six  *SiteIndex
	r    *Renderer // whose templates see the lists (their .Params)
	lang string
	tag  textlang.Tag

	paramsOnce sync.Once
	params     map[string]any // the site's, as .Site.Params

	once, globalOnce, kidsOnce, termsOnce sync.Once
	// pages are the language's pages of the model; wrap are them as
	// templates see them.
	pages []*pipeline.Page
	wrap  map[*pipeline.Page]*sitePage
	// sections are the home ("") and section pages by folder,
	// taxonomies the taxonomy pages by plural.
	sections   map[string]*pipeline.Page
	taxonomies map[string]*pipeline.Page
	// dates are the list pages' dates made of their pages'.
	dates map[*pipeline.Page]pageDates
	// all and regular are .Site.Pages and .Site.RegularPages.
	all, regular pageList
	// children are each list page's lists.
	children map[*pipeline.Page]*children
	// terms is .Site.Taxonomies.
	terms map[string]taxonomy
}

// children are a list page's .Pages, .RegularPages and .Sections.
type children struct {
	pages, regular, sections, recursive pageList
}

// pageDates are a page's .Date, .Lastmod and .PublishDate.
type pageDates struct{ date, lastmod, pub time.Time }

// listsKey names the lists of a language seen by a renderer's
// templates.
type listsKey struct {
	lang string
	r    *Renderer
}

// lists are the lists of a language of the index's snapshot, as r's
// templates see them.
func (six *SiteIndex) lists(lang string, r *Renderer) *siteLists {
	six.siteMu.Lock()
	defer six.siteMu.Unlock()
	k := listsKey{lang, r}
	if l := six.site[k]; l != nil {
		return l
	}
	if six.site == nil {
		six.site = map[listsKey]*siteLists{}
	}
	tag, err := textlang.Parse(lang)
	if err != nil {
		tag = textlang.English
	}
	l := &siteLists{six: six, r: r, lang: lang, tag: tag}
	six.site[k] = l
	return l
}

// siteParams are the site's params as templates see them.
func (l *siteLists) siteParams() map[string]any {
	l.paramsOnce.Do(func() {
		var params map[string]any
		if s := l.r.opts.Site; s != nil {
			params = s.Params
		}
		l.params = l.r.opts.Templates.aliasKeys(lowerKeys(params)).(map[string]any)
	})
	return l.params
}

// ready makes what every list needs, once: the pages of the language
// with their dates and sort keys. The lists themselves are made on
// first use each (global, kids, termLists), so that a template asking
// for .Site.RegularPages does not pay for every section's and term's.
func (l *siteLists) ready() *siteLists {
	l.once.Do(l.build)
	return l
}

// global makes .Site.Pages and .Site.RegularPages, once.
func (l *siteLists) global() *siteLists {
	l.ready().globalOnce.Do(func() {
		for _, pg := range l.pages {
			if listedGlobally(pg) {
				l.all = append(l.all, l.wrap[pg])
				if pg.Kind == pipeline.KindPage {
					l.regular = append(l.regular, l.wrap[pg])
				}
			}
		}
		sortPages(l.all, nil)
		sortPages(l.regular, nil)
	})
	return l
}

// kids makes every list page's lists, once.
func (l *siteLists) kids() *siteLists {
	l.ready().kidsOnce.Do(l.makeChildren)
	return l
}

// termLists makes .Site.Taxonomies, once.
func (l *siteLists) termLists() *siteLists {
	l.kids().termsOnce.Do(l.makeTaxonomies)
	return l
}

func (l *siteLists) build() {
	l.wrap = map[*pipeline.Page]*sitePage{}
	l.sections = map[string]*pipeline.Page{}
	l.taxonomies = map[string]*pipeline.Page{}
	for _, pg := range l.six.snap.Pages() {
		if pg.Lang != l.lang || pg.Hidden {
			continue
		}
		l.pages = append(l.pages, pg)
		l.wrap[pg] = &sitePage{l: l, pg: pg}
		switch pg.Kind {
		case pipeline.KindHome, pipeline.KindSection:
			l.sections[pg.Section] = pg
		case pipeline.KindTaxonomy:
			l.taxonomies[pg.Taxonomy] = pg
		}
	}
	l.makeDates(l.pages)
	l.makeKeys(l.pages)
}

// listedGlobally reports whether a page is in the site's own lists
// (build list "always"; "local" lists it in its section only).
func listedGlobally(pg *pipeline.Page) bool {
	return pg.Post == nil || pg.Post.Build.List == "" || pg.Post.Build.List == "always"
}

// listedLocally reports whether a page is in its section's lists.
func listedLocally(pg *pipeline.Page) bool {
	return pg.Post == nil || pg.Post.Build.Listed()
}

// makeChildren fills each list page's lists: a section's (and the home
// page's) regular pages and subsections, a taxonomy's terms, a term's
// pages.
func (l *siteLists) makeChildren() {
	l.children = map[*pipeline.Page]*children{}
	for _, pg := range l.pages {
		switch pg.Kind {
		case pipeline.KindHome, pipeline.KindSection, pipeline.KindTaxonomy, pipeline.KindTerm:
			l.children[pg] = &children{}
		}
	}
	for _, pg := range l.pages {
		if !listedLocally(pg) {
			continue
		}
		switch pg.Kind {
		case pipeline.KindPage:
			if sec := l.sections[pg.Section]; sec != nil {
				c := l.children[sec]
				c.pages = append(c.pages, l.wrap[pg])
				c.regular = append(c.regular, l.wrap[pg])
			}
			for dir := pg.Section; ; dir = parentDir(dir) {
				if sec := l.sections[dir]; sec != nil {
					l.children[sec].recursive = append(l.children[sec].recursive, l.wrap[pg])
				}
				if dir == "" {
					break
				}
			}
		case pipeline.KindSection:
			if parent := l.parentSection(pg.Section); parent != nil {
				c := l.children[parent]
				c.pages = append(c.pages, l.wrap[pg])
				c.sections = append(c.sections, l.wrap[pg])
			}
		case pipeline.KindTaxonomy:
			for _, term := range pg.Pages {
				l.children[pg].pages = append(l.children[pg].pages, l.wrap[term])
			}
		case pipeline.KindTerm:
			c := l.children[pg]
			for _, p := range pg.Pages {
				c.pages = append(c.pages, l.wrap[p])
			}
			c.regular = c.pages
		}
	}
	for pg, c := range l.children {
		var weight0 func(*sitePage) int
		if pg.Kind == pipeline.KindTerm {
			weight0 = func(p *sitePage) int { return termWeight(p.pg.Post, pg.Taxonomy) }
		}
		sortPages(c.pages, weight0)
		if pg.Kind != pipeline.KindTerm {
			sortPages(c.regular, nil)
		}
		sortPages(c.sections, nil)
		sortPages(c.recursive, nil)
	}
}

// parentSection is the list a section sits in: the nearest section
// above its folder, else the home page.
func (l *siteLists) parentSection(dir string) *pipeline.Page {
	if dir == "" {
		return nil
	}
	for d := parentDir(dir); ; d = parentDir(d) {
		if sec := l.sections[d]; sec != nil {
			return sec
		}
		if d == "" {
			return nil
		}
	}
}

func parentDir(d string) string {
	if i := strings.LastIndexByte(d, '/'); i >= 0 {
		return d[:i]
	}
	return ""
}

// makeDates dates the list pages that have no date of their own with
// their newest page's, as Hugo sends each page's dates up the content
// tree: the home page has every page's, a section those below it, a
// term its pages', a taxonomy its terms'.
func (l *siteLists) makeDates(pages []*pipeline.Page) {
	l.dates = map[*pipeline.Page]pageDates{}
	zero := map[*pipeline.Page]bool{}
	for _, pg := range pages {
		d := ownDates(pg)
		l.dates[pg] = d
		zero[pg] = pg.Kind != pipeline.KindPage && d == (pageDates{})
	}
	raise := func(pg *pipeline.Page, d pageDates) {
		if pg == nil || !zero[pg] {
			return
		}
		cur := l.dates[pg]
		cur.date, cur.lastmod, cur.pub = later(cur.date, d.date), later(cur.lastmod, d.lastmod), later(cur.pub, d.pub)
		l.dates[pg] = cur
	}
	for _, pg := range pages {
		if (pg.Kind != pipeline.KindPage && pg.Kind != pipeline.KindSection) || zero[pg] {
			continue
		}
		d := l.dates[pg]
		dir := pg.Section
		if pg.Kind == pipeline.KindSection {
			dir = parentDir(dir)
		}
		for ; ; dir = parentDir(dir) {
			raise(l.sections[dir], d)
			if dir == "" {
				break
			}
		}
	}
	for _, pg := range pages {
		if pg.Kind != pipeline.KindTerm {
			continue
		}
		for _, p := range pg.Pages {
			raise(pg, l.dates[p])
		}
		raise(l.taxonomies[pg.Taxonomy], l.dates[pg])
	}
}

// datesOf are a page's dates, once makeDates made the lists'.
func (l *siteLists) datesOf(pg *pipeline.Page) pageDates {
	if d, ok := l.dates[pg]; ok {
		return d
	}
	return ownDates(pg) // a page of another language
}

// ownDates are the dates a page's front matter gives: .Date is Hugo's
// date, .PublishDate the publish date (else the date), .Lastmod lastmod
// (else the date, else the publish date).
func ownDates(pg *pipeline.Page) pageDates {
	p := pg.Post
	if p == nil {
		return pageDates{}
	}
	d := pageDates{date: p.Created, pub: p.Date, lastmod: p.Lastmod}
	if d.date.IsZero() {
		d.date = p.Date
	}
	if d.lastmod.IsZero() {
		d.lastmod = d.date
	}
	return d
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// termWeight is a page's weight in a taxonomy: its front matter's
// <plural>_weight.
func termWeight(p *pipeline.Post, plural string) int {
	if p == nil {
		return 0
	}
	v, _ := p.Param(strings.ToLower(plural) + "_weight")
	return cast.ToInt(v)
}

// sortKey is what Hugo's default order compares of a page, made once:
// its weight, its date to the second, its link title's collation key
// and its path.
type sortKey struct {
	weight int
	date   int64
	title  []byte
	path   string
}

// makeKeys makes the pages' sort keys, their dates made. A link title's
// collation key (a few microseconds) is made only for the pages that
// share their weight and date with another, the only ones it orders.
func (l *siteLists) makeKeys(pages []*pipeline.Page) {
	type wd struct {
		weight int
		date   int64
	}
	shared := map[wd]int{}
	for _, pg := range pages {
		p := l.wrap[pg]
		p.key = sortKey{weight: p.Weight(), date: l.datesOf(pg).date.Unix(), path: p.path()}
		shared[wd{p.key.weight, p.key.date}]++
	}
	coll := collate.New(l.tag)
	var buf collate.Buffer
	for _, pg := range pages {
		p := l.wrap[pg]
		if shared[wd{p.key.weight, p.key.date}] > 1 {
			p.key.title = slices.Clone(coll.KeyFromString(&buf, p.LinkTitle()))
			buf.Reset()
		}
	}
}

// sortPages sorts pages of the lists in Hugo's default order; weight0,
// when given, is a term's weight of each page, which comes first.
func sortPages(pages pageList, weight0 func(*sitePage) int) {
	slices.SortFunc(pages, func(a, b *sitePage) int {
		if weight0 != nil {
			if wa, wb := weight0(a), weight0(b); wa != wb {
				return cmp.Compare(wa, wb)
			}
		}
		return compareKeys(&a.key, &b.key)
	})
}

// compareKeys is Hugo's DefaultPageSort: weight (none last), date newest
// first (to the second), link title by collation, path.
func compareKeys(a, b *sortKey) int {
	if a.weight != b.weight {
		switch {
		case a.weight == 0:
			return 1
		case b.weight == 0:
			return -1
		}
		return cmp.Compare(a.weight, b.weight)
	}
	if a.date != b.date {
		return cmp.Compare(b.date, a.date)
	}
	if c := bytes.Compare(a.title, b.title); c != 0 {
		return c
	}
	return strings.Compare(a.path, b.path)
}
