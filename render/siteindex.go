package render

import (
	"maps"
	"net/url"
	"slices"
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

	// snap is the ID of the snapshot indexed; claims counts the pages
	// and posts that asked for each key of byPath (the first holds it),
	// slugs the posts of each slug (the first visible holds it): Next
	// patches only what no two of them share.
	snap   uint64
	claims map[string]int
	slugs  map[string]int
}

// NewSiteIndex indexes snap's pages.
func NewSiteIndex(snap *pipeline.Snapshot) *SiteIndex {
	base := snap.Config().BaseURL
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	posts := snap.AllPosts()
	six := &SiteIndex{Index: newIndex(posts, snap.Visible, false), base: base,
		byPath: map[string]Page{}, byName: map[string][]Page{}, urls: map[*pipeline.Post]string{},
		snap: snap.ID(), claims: map[string]int{}, slugs: make(map[string]int, len(posts))}
	for _, p := range posts {
		six.slugs[p.Slug]++
	}
	for _, pg := range snap.Pages() {
		page := six.page(pg)
		switch {
		case pg.Post != nil:
			six.urls[pg.Post] = page.URL
			six.add(pagePath(pg.Post), page, true)
		case pg.Kind == pipeline.KindHome:
			six.add("/", page, false)
		case pg.Kind == pipeline.KindSection:
			six.add(HugoPath(pg.Section+"/_index.md"), page, true)
		case pg.Kind == pipeline.KindTaxonomy:
			six.add("/"+strings.ToLower(pg.Taxonomy), page, true)
		case pg.Kind == pipeline.KindTerm:
			six.add("/"+strings.ToLower(pg.Taxonomy)+"/"+strings.ReplaceAll(strings.ToLower(pg.Term), " ", "-"), page, true)
		}
	}
	// What the site does not show is still a page a ref names.
	for _, p := range posts {
		if _, shown := six.urls[p]; !shown {
			six.add(pagePath(p), Page{File: p.File, Title: p.Title}, true)
		}
	}
	return six
}

// add gives key to p unless a page has it already; a named key is also
// found by its last segment.
func (six *SiteIndex) add(key string, p Page, named bool) {
	six.claims[key]++
	if _, taken := six.byPath[key]; taken {
		return
	}
	six.byPath[key] = p
	if named {
		name := key[strings.LastIndexByte(key, '/')+1:]
		six.byName[name] = append(six.byName[name], p)
	}
}

// page is what a ref finds of a page of the site.
func (six *SiteIndex) page(pg *pipeline.Page) Page {
	page := Page{URL: six.url(pg.Path), Title: pg.Title, Visible: pg.Rendered}
	if pg.Feed != "" {
		page.Outputs = []Output{{Name: "rss", URL: six.url(pg.Feed)}}
	}
	if pg.Post != nil {
		page.File = pg.Post.File
	}
	return page
}

// Next is the index of snap, made from six by patching the posts that
// changed when snap was patched from six's snapshot (folio dev's save of
// a page: a millisecond, where NewSiteIndex takes tens at 10,000 pages),
// else from scratch. Either way it is what NewSiteIndex(snap) makes;
// TestSiteIndexNext holds them to it. six is not changed.
func (six *SiteIndex) Next(snap *pipeline.Snapshot) *SiteIndex {
	if n := six.patch(snap); n != nil {
		return n
	}
	return NewSiteIndex(snap)
}

// patch is Next's patch, nil when snap was not patched from six's
// snapshot or a change touches a key or slug another page or post has
// too (which of them holds it, only the full order says).
func (six *SiteIndex) patch(snap *pipeline.Snapshot) *SiteIndex {
	from, changes, ok := snap.PatchedFrom()
	base := snap.Config().BaseURL
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	if !ok || from != six.snap || base != six.base {
		return nil
	}
	for _, c := range changes {
		for _, p := range []*pipeline.Post{c.Old, c.New} {
			if p != nil && p.Kind != pipeline.KindPage && (six.urls[p] != "" || snap.PageOf(p) != nil || snap.Visible(p)) {
				return nil // a list's own file: only regular pages are patched
			}
		}
	}
	ix := &Index{byFile: maps.Clone(six.byFile), bySlug: maps.Clone(six.bySlug), visible: snap.Visible, url: six.Index.url}
	n := &SiteIndex{Index: ix, base: six.base, byPath: maps.Clone(six.byPath), byName: maps.Clone(six.byName),
		urls: maps.Clone(six.urls), snap: snap.ID(), claims: maps.Clone(six.claims), slugs: maps.Clone(six.slugs)}
	for _, c := range changes {
		if p := c.Old; p != nil {
			key := pagePath(p)
			if n.slugs[p.Slug] != 1 || n.claims[key] != 1 || n.bySlug[p.Slug] != p || n.byPath[key].File != p.File {
				return nil
			}
			delete(n.byFile, p.File)
			delete(n.bySlug, p.Slug)
			delete(n.slugs, p.Slug)
			delete(n.byPath, key)
			delete(n.claims, key)
			name := key[strings.LastIndexByte(key, '/')+1:]
			n.byName[name] = slices.DeleteFunc(slices.Clone(n.byName[name]), func(q Page) bool { return q.File == p.File })
			if len(n.byName[name]) == 0 {
				delete(n.byName, name)
			}
			delete(n.urls, p)
		}
	}
	for _, c := range changes {
		p := c.New
		if p == nil {
			continue
		}
		key := pagePath(p)
		if n.slugs[p.Slug] != 0 || n.claims[key] != 0 {
			return nil
		}
		if _, taken := n.byFile[p.File]; taken {
			return nil
		}
		n.byFile[p.File] = p
		n.bySlug[p.Slug] = p
		n.slugs[p.Slug] = 1
		page := Page{File: p.File, Title: p.Title}
		if pg := snap.PageOf(p); pg != nil {
			page = n.page(pg)
			n.urls[p] = page.URL
		}
		name := key[strings.LastIndexByte(key, '/')+1:]
		n.byName[name] = slices.Clip(n.byName[name]) // appended to a copy, never to six's
		n.add(key, page, true)
	}
	return n
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
