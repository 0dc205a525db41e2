package render

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"folio/pipeline"

	"golang.org/x/text/collate"
)

// sitePage is a page of the site as templates see it from another page
// (site.GetPage, .Site.Pages, a section's .Pages, a term's pages): Hugo's
// page.Page with the methods templates use to list and link pages. The
// values are shared by every rendering of a snapshot, so a sitePage has
// nothing of the rendering that holds it; what needs one (.Content,
// .Summary, .Resources of another page) is not there, and a template
// asking for it fails with Hugo's "can't evaluate field" naming it.
type sitePage struct {
	l  *siteLists
	pg *pipeline.Page
	// key orders it among the language's pages (made with the lists;
	// the zero key for a page made outside them).
	key sortKey

	paramsOnce sync.Once
	params     map[string]any
}

// page is the sitePage of a page of the model; nil for nil. It makes the
// lists first (ready): a rendering may ask for its own page before any
// list, while another rendering of the snapshot is making them.
func (l *siteLists) page(pg *pipeline.Page) *sitePage {
	if pg == nil {
		return nil
	}
	if p := l.ready().wrap[pg]; p != nil {
		return p
	}
	return &sitePage{l: l, pg: pg}
}

func (p *sitePage) post() *pipeline.Post { return p.pg.Post }

// Title is Hugo's: the front matter's, a list's made from its folder or
// term.
func (p *sitePage) Title() string { return p.pg.Title }

// LinkTitle is linkTitle, else the title.
func (p *sitePage) LinkTitle() string {
	if p.post() != nil && p.post().LinkTitle != "" {
		return p.post().LinkTitle
	}
	return p.pg.Title
}

func (p *sitePage) Kind() string    { return p.pg.Kind }
func (p *sitePage) IsPage() bool    { return p.pg.Kind == pipeline.KindPage }
func (p *sitePage) IsSection() bool { return p.pg.Kind == pipeline.KindSection }
func (p *sitePage) IsHome() bool    { return p.pg.Kind == pipeline.KindHome }
func (p *sitePage) IsNode() bool    { return p.pg.Kind != pipeline.KindPage }
func (p *sitePage) Lang() string    { return p.pg.Lang }

// Section is the first folder of the page's section; a taxonomy's or a
// term's is the taxonomy.
func (p *sitePage) Section() string {
	if p.pg.Taxonomy != "" {
		return p.pg.Taxonomy
	}
	top, _, _ := strings.Cut(p.pg.Section, "/")
	return top
}

// Type is the front matter's type, else the section, else "page".
func (p *sitePage) Type() string {
	if p.post() != nil {
		v, _ := p.post().Param("type")
		if t, _ := v.(string); t != "" {
			return t
		}
	}
	return cmp.Or(p.Section(), "page")
}

// Permalink and RelPermalink are the page's absolute URL (folio writes
// every URL of a body absolute); "" for a page not rendered.
func (p *sitePage) Permalink() string {
	if !p.pg.Rendered {
		return ""
	}
	return p.l.six.url(p.pg.Path)
}
func (p *sitePage) RelPermalink() string { return p.Permalink() }

// Date, Lastmod and PublishDate are the front matter's; a list's
// without any are its newest page's (siteLists.makeDates).
func (p *sitePage) Date() time.Time        { return p.dates().date }
func (p *sitePage) Lastmod() time.Time     { return p.dates().lastmod }
func (p *sitePage) PublishDate() time.Time { return p.dates().pub }
func (p *sitePage) ExpiryDate() time.Time {
	if p.post() == nil {
		return time.Time{}
	}
	return p.post().Expiry
}

func (p *sitePage) dates() pageDates { return p.l.ready().datesOf(p.pg) }

// Weight is the front matter's weight.
func (p *sitePage) Weight() int {
	if p.post() == nil {
		return 0
	}
	return p.post().Weight
}

func (p *sitePage) Draft() bool { return p.post() != nil && p.post().Draft }
func (p *sitePage) Slug() string {
	if p.post() == nil {
		return ""
	}
	return p.post().SlugParam
}
func (p *sitePage) Aliases() []string {
	if p.post() == nil {
		return nil
	}
	return p.post().Aliases
}

// Params are the front matter's keys as .Page.Params has them; a list
// without a content file has none.
func (p *sitePage) Params() map[string]any {
	p.paramsOnce.Do(func() {
		p.params = map[string]any{}
		if p.post() != nil {
			p.params = pageParams(p.post(), p.l.r.opts.Templates)
		}
	})
	return p.params
}

// Param looks key up in the page's params, then the site's.
func (p *sitePage) Param(key any) (any, error) { return lookupParam(p.Params(), p.l.siteParams(), key) }

// Description is the front matter's description.
func (p *sitePage) Description() string {
	if p.post() == nil {
		return ""
	}
	v, _ := p.post().Param("description")
	s, _ := toString(v)
	return s
}

// File is the page's content file; nil for a list without one.
func (p *sitePage) File() *file {
	if p.post() == nil {
		return nil
	}
	return &file{path: p.l.six.snap.Config().ContentPath(p.post().File)}
}

// WordCount and ReadingTime are counted in the page's text as written.
func (p *sitePage) WordCount() int {
	if p.post() == nil {
		return 0
	}
	return wordCount(p.post())
}
func (p *sitePage) ReadingTime() int { return (p.WordCount() + 212) / 213 }

// Pages are what a list page lists: a section's (or the home page's)
// regular pages and sections, a taxonomy's terms, a term's pages; a
// regular page has none.
func (p *sitePage) Pages() pageList { return p.children().pages }

// RegularPages are the regular pages among Pages; a term's are its
// pages.
func (p *sitePage) RegularPages() pageList { return p.children().regular }

// RegularPagesRecursive are every regular page below a section.
func (p *sitePage) RegularPagesRecursive() pageList { return p.children().recursive }

// Sections are a section's (or the home page's) sections.
func (p *sitePage) Sections() pageList { return p.children().sections }

func (p *sitePage) children() *children { return p.l.kids().childrenOf(p.pg) }

// childrenOf are a page's lists, empty for a page that lists nothing.
func (l *siteLists) childrenOf(pg *pipeline.Page) *children {
	if c := l.children[pg]; c != nil {
		return c
	}
	return &children{pages: pageList{}, regular: pageList{}, sections: pageList{}, recursive: pageList{}}
}

// Parent is the list the page is in: a page's section, a section's
// parent section (else the home page), a term's taxonomy, a taxonomy's
// home page; the home page has none.
func (p *sitePage) Parent() *sitePage {
	l := p.l.ready()
	switch p.pg.Kind {
	case pipeline.KindHome:
		return nil
	case pipeline.KindSection:
		return l.page(l.parentSection(p.pg.Section))
	case pipeline.KindTerm:
		return l.page(l.taxonomies[p.pg.Taxonomy])
	case pipeline.KindTaxonomy:
		return l.page(l.sections[""])
	}
	return l.page(l.sections[p.pg.Section])
}

// CurrentSection is the page itself for a section or the home page,
// else its Parent.
func (p *sitePage) CurrentSection() *sitePage {
	if p.pg.Kind == pipeline.KindHome || p.pg.Kind == pipeline.KindSection {
		return p
	}
	return p.Parent()
}

// FirstSection is the top section the page is in, the home page for a
// page at the top.
func (p *sitePage) FirstSection() *sitePage {
	l := p.l.ready()
	top, _, _ := strings.Cut(p.pg.Section, "/")
	if p.pg.Kind == pipeline.KindHome || top == "" {
		return l.page(l.sections[""])
	}
	return l.page(l.sections[top])
}

// GetTerms are the term pages of the page's terms in a taxonomy, in the
// order the front matter gives them.
func (p *sitePage) GetTerms(taxonomy string) pageList {
	return getTerms(p.l, p.post(), taxonomy)
}

func getTerms(l *siteLists, post *pipeline.Post, taxonomy string) pageList {
	out := pageList{}
	if post == nil {
		return out
	}
	taxonomy = strings.ToLower(taxonomy)
	for _, term := range post.Terms[taxonomy] {
		pg := l.six.snap.TermPage(l.lang, taxonomy, term)
		if pg == nil {
			continue
		}
		tp := l.page(pg)
		if !slices.ContainsFunc(out, func(q *sitePage) bool { return q.pg == pg }) {
			out = append(out, tp)
		}
	}
	return out
}

// Data is a list page's .Data: its Pages; a taxonomy's Terms, Singular
// and Plural; a term's Term, Singular and Plural.
func (p *sitePage) Data() map[string]any {
	d := map[string]any{}
	if p.pg.Kind == pipeline.KindPage {
		return d
	}
	d["Pages"] = p.Pages()
	if p.pg.Taxonomy != "" {
		d["Plural"] = p.pg.Taxonomy
		d["Singular"] = p.l.singular(p.pg.Taxonomy)
		if p.pg.Kind == pipeline.KindTaxonomy {
			d["Terms"] = p.l.termLists().terms[p.pg.Taxonomy]
		} else {
			d["Term"] = p.pg.Term
		}
	}
	return d
}

// Eq reports whether other is the same page.
func (p *sitePage) Eq(other any) bool { return samePage(p.pg, other) }

// String is Hugo's: the page's content path.
func (p *sitePage) String() string { return "Page(" + p.path() + ")" }

// path is the page's path in the content as Hugo orders pages by it:
// its file's, lower-cased, else its list's.
func (p *sitePage) path() string {
	if p.post() != nil {
		return "/" + strings.ToLower(p.post().File)
	}
	if k := listKey(p.pg); k != "" {
		return k
	}
	return p.pg.Path
}

// samePage reports whether a template value is the page pg.
func samePage(pg *pipeline.Page, other any) bool {
	switch o := other.(type) {
	case *sitePage:
		return o != nil && o.pg == pg
	case weightedPage:
		return o.sitePage != nil && o.pg == pg
	case *page:
		if n := o.node(); n != nil {
			return n.pg == pg
		}
	}
	return false
}

// wordCount counts the words of a post's text as written.
func wordCount(p *pipeline.Post) int {
	n := 0
	walkText(p.Body, func(s string) { n += len(strings.FieldsFunc(s, unicode.IsSpace)) })
	return n
}

// pageList is a list of pages, with Hugo's Pages methods.
type pageList []*sitePage

// Len is the number of pages.
func (ps pageList) Len() int { return len(ps) }

// ByWeight is Hugo's default order.
func (ps pageList) ByWeight() pageList {
	if len(ps) == 0 {
		return ps
	}
	l := ps[0].l.ready()
	out := make(pageList, len(ps))
	for i, p := range ps {
		out[i] = l.page(p.pg) // the lists' own, with its key
	}
	sortPages(out, nil)
	return out
}

// ByDate, ByPublishDate, ByLastmod and ByExpiryDate sort oldest first,
// stably; ByTitle and ByLinkTitle by the language's collation.
func (ps pageList) ByDate() pageList { return ps.byTime((*sitePage).Date) }
func (ps pageList) ByPublishDate() pageList {
	return ps.byTime((*sitePage).PublishDate)
}
func (ps pageList) ByLastmod() pageList    { return ps.byTime((*sitePage).Lastmod) }
func (ps pageList) ByExpiryDate() pageList { return ps.byTime((*sitePage).ExpiryDate) }
func (ps pageList) ByTitle() pageList      { return ps.byText((*sitePage).Title) }
func (ps pageList) ByLinkTitle() pageList  { return ps.byText((*sitePage).LinkTitle) }

func (ps pageList) byTime(t func(*sitePage) time.Time) pageList {
	out := slices.Clone(ps)
	slices.SortStableFunc(out, func(a, b *sitePage) int { return cmp.Compare(t(a).Unix(), t(b).Unix()) })
	return out
}

func (ps pageList) byText(s func(*sitePage) string) pageList {
	if len(ps) == 0 {
		return slices.Clone(ps)
	}
	coll := collate.New(ps[0].l.tag)
	var buf collate.Buffer
	type keyed struct {
		p   *sitePage
		key []byte
	}
	ks := make([]keyed, len(ps))
	for i, p := range ps {
		ks[i] = keyed{p, slices.Clone(coll.KeyFromString(&buf, s(p)))}
		buf.Reset()
	}
	slices.SortStableFunc(ks, func(a, b keyed) int { return bytes.Compare(a.key, b.key) })
	out := make(pageList, len(ks))
	for i, k := range ks {
		out[i] = k.p
	}
	return out
}

// Reverse is the list in reverse order.
func (ps pageList) Reverse() pageList {
	out := slices.Clone(ps)
	slices.Reverse(out)
	return out
}

// Limit is the first n pages.
func (ps pageList) Limit(n int) pageList { return ps[:max(0, min(n, len(ps)))] }

// singular is a taxonomy's singular name.
func (l *siteLists) singular(plural string) string {
	for _, lang := range l.six.snap.Config().Languages {
		if lang.Code != l.lang {
			continue
		}
		for _, t := range lang.Taxonomies {
			if t.Plural == plural {
				return t.Singular
			}
		}
	}
	return strings.TrimSuffix(plural, "s")
}
