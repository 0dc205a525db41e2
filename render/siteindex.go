package render

import (
	"net/url"
	"strings"

	"folio/pipeline"
)

// A SiteIndex resolves links and refs over a Hugo site's whole model:
// every page (regular pages of every section, sections and the home page,
// taxonomies and terms) by its Hugo path and name, each at its URL on the
// site. Posts are also found by file and slug, as Index finds them. Pages
// that are parsed but not published are known too, so a ref to one is
// reported as not published.
type SiteIndex struct {
	*Index
	base   string // the base URL, ending in "/"
	byPath map[string]Page
	byName map[string][]Page
	urls   map[*pipeline.Post]string
}

// NewSiteIndex indexes snap's pages.
func NewSiteIndex(snap *pipeline.Snapshot) *SiteIndex {
	base := snap.Config().BaseURL
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	six := &SiteIndex{Index: NewIndex(snap.AllPosts(), snap.Visible), base: base,
		byPath: map[string]Page{}, byName: map[string][]Page{}, urls: map[*pipeline.Post]string{}}
	add := func(key string, p Page, named bool) {
		if _, taken := six.byPath[key]; taken {
			return
		}
		six.byPath[key] = p
		if named {
			name := key[strings.LastIndexByte(key, '/')+1:]
			six.byName[name] = append(six.byName[name], p)
		}
	}
	for _, pg := range snap.Pages() {
		u := six.url(pg.Path)
		page := Page{URL: u, Title: pg.Title, Visible: pg.Rendered}
		if pg.Feed != "" {
			page.Outputs = []Output{{Name: "rss", URL: six.url(pg.Feed)}}
		}
		switch {
		case pg.Post != nil:
			page.File = pg.Post.File
			six.urls[pg.Post] = u
			add(pagePath(pg.Post), page, true)
		case pg.Kind == pipeline.KindHome:
			add("/", page, false)
		case pg.Kind == pipeline.KindSection:
			add(HugoPath(pg.Section+"/_index.md"), page, true)
		case pg.Kind == pipeline.KindTaxonomy:
			add("/"+strings.ToLower(pg.Taxonomy), page, true)
		case pg.Kind == pipeline.KindTerm:
			add("/"+strings.ToLower(pg.Taxonomy)+"/"+strings.ReplaceAll(strings.ToLower(pg.Term), " ", "-"), page, true)
		}
	}
	// What the site does not show is still a page a ref names.
	for _, p := range snap.AllPosts() {
		if _, shown := six.urls[p]; !shown {
			add(pagePath(p), Page{File: p.File, Title: p.Title}, true)
		}
	}
	return six
}

func (six *SiteIndex) url(p string) string {
	if p == "" {
		return ""
	}
	return six.base + strings.TrimPrefix((&url.URL{Path: p}).EscapedPath(), "/")
}

// PagePath implements PageResolver.
func (six *SiteIndex) PagePath(p string) (Page, bool) {
	pg, ok := six.byPath[p]
	return pg, ok
}

// PageName implements PageResolver.
func (six *SiteIndex) PageName(name string) (Page, bool, bool) {
	pages := six.byName[name]
	switch len(pages) {
	case 0:
		return Page{}, false, false
	case 1:
		return pages[0], true, false
	}
	return Page{}, true, true
}

// URL is a published post's URL on the site, "" for one the site does
// not show.
func (six *SiteIndex) URL(p *pipeline.Post) string { return six.urls[p] }
