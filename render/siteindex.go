package render

import (
	"net/url"
	"slices"
	"strings"
	"sync"

	"folio/internal/layered"
	"folio/pipeline"
)

// A SiteIndex resolves links and refs over a Hugo site's whole model:
// every page (regular pages of every section, sections and the home page,
// taxonomies and terms) by its Hugo path and name, each at its URL on the
// site. Each language's pages are found by path and name among their
// own language's, as each of Hugo's sites finds its own (langKey). Posts
// are also found by file and slug, as Index finds them. Pages
// that are parsed but not published are known too, so a ref to one is
// reported as not published. It also gives templates the site's lists
// (.Site.Pages, .Site.Taxonomies, a section's .Pages: sitelists.go),
// made on first use and shared by every rendering of the snapshot.
//
// Indexing 10,000 pages takes tens of milliseconds of CPU, which folio
// dev would pay on every save: Next makes the index of a snapshot
// patched from another (pipeline.Snapshot.PatchedFrom) from that one's,
// looking again only at the posts that changed and at the list pages.
// Its lookups are layered maps (internal/layered), so that the next
// index shares the previous one's instead of copying them.
type SiteIndex struct {
	snap   *pipeline.Snapshot
	base   string // the base URL, ending in "/"
	byFile layered.Map[string, *pipeline.Post]
	bySlug layered.Map[string, *pipeline.Post]
	byPath layered.Map[string, Page]
	names  layered.Map[string, string] // a name's keys in byPath, in order (nameKeys)
	urls   layered.Map[*pipeline.Post, string]
	// listPages are the list pages without a content file (home,
	// sections, taxonomies, terms) by their key in byPath (with one, a
	// list is its post's entry); listURLs every list page by its URL.
	listPages map[string]*pipeline.Page
	listURLs  map[string]*pipeline.Page
	// dup are the slugs ("s:" and the slug) and keys of byPath ("p:" and
	// the key) more than one page claims (the first holds it): an update
	// that touches one indexes the site again.
	dup map[string]bool
	// building is set while NewSiteIndex fills the maps' bases.
	building bool
	// shared are, while building, the keys of each name more than one
	// page has, in order: joined once at the end (names), not again at
	// each page, which a site of many pages of one name would pay for
	// with every key before it.
	shared map[string][]string

	// trans are the pages of each translation key (translationsOf),
	// made on first use.
	transOnce sync.Once
	trans     map[string][]*pipeline.Page

	// site are the lists templates see, by language, made on first use.
	siteMu sync.Mutex
	site   map[listsKey]*siteLists
}

// NewSiteIndex indexes snap's pages.
func NewSiteIndex(snap *pipeline.Snapshot) *SiteIndex {
	base := snap.Config().BaseURL
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	// The maps are made at their size: growing them was a fifth of the
	// index's time at 100,000 pages. The posts by file and slug are
	// indexed beside the pages (a third of the index's time, which the
	// first article of a start waits for): apart from the slugs more than
	// one post claims, noted in a set of their own, they share nothing.
	pages := snap.Pages()
	six := &SiteIndex{snap: snap, base: base, listPages: map[string]*pipeline.Page{}, listURLs: map[string]*pipeline.Page{}, dup: map[string]bool{},
		byPath: layered.New(make(map[string]Page, len(pages))), names: layered.New(make(map[string]string, len(pages))),
		urls: layered.New(make(map[*pipeline.Post]string, len(pages))), building: true}
	defer func() { six.building = false }()
	var all []*pipeline.Post
	var byFile, bySlug map[string]*pipeline.Post
	slugDup := map[string]bool{}
	var posts sync.WaitGroup
	posts.Go(func() {
		all = snap.AllPosts()
		byFile, bySlug = make(map[string]*pipeline.Post, len(all)), make(map[string]*pipeline.Post, len(all))
		for _, p := range all {
			byFile[p.File] = p
			old, taken := bySlug[p.Slug]
			if taken {
				slugDup["s:"+p.Slug] = true
			}
			if !taken || (!snap.Visible(old) && snap.Visible(p)) {
				bySlug[p.Slug] = p
			}
		}
	})
	for _, pg := range pages {
		if pg.Hidden {
			continue // its _index is indexed with what the site does not show
		}
		page := six.page(pg)
		if pg.Kind != pipeline.KindPage && page.URL != "" {
			six.listURLs[page.URL] = pg
		}
		if pg.Post != nil {
			six.urls.Base()[pg.Post] = page.URL
			six.add(six.langKey(pg.Lang, sharedKey(pagePath(pg.Post), pg.Path)), page)
			continue
		}
		if key := six.listKey(pg); key != "" && six.add(key, page) {
			six.listPages[key] = pg
		}
	}
	posts.Wait()
	six.byFile, six.bySlug = layered.New(byFile), layered.New(bySlug)
	for k := range slugDup {
		six.dup[k] = true
	}
	// What the site does not show is still a page a ref names.
	for _, p := range all {
		if _, shown := six.urls.Get(p); !shown {
			six.add(six.postKey(p), Page{File: p.File, Title: p.Title})
		}
	}
	for name, keys := range six.shared {
		six.names.Base()[name] = strings.Join(keys, nameSep)
	}
	six.shared = nil
	return six
}

// Next is the index of snap made from six, the index of the snapshot
// snap was patched from (pipeline.Snapshot.PatchedFrom, folio dev's save
// of a page): six's lookups with the changed posts' entries replaced and
// the list pages' entries made again, a few hundredths of a millisecond
// where NewSiteIndex takes tens at 10,000 pages. When snap was not
// patched from six's snapshot, or the change touches a slug or path two
// pages claim, a list's own file (a section's _index), or a list page
// comes or goes (a new term, a new section), it indexes snap afresh.
// Either way it is what NewSiteIndex(snap) makes; TestSiteIndexNext
// holds them to it. six is not changed.
func (six *SiteIndex) Next(snap *pipeline.Snapshot) *SiteIndex {
	if six.snap == snap {
		return six.again() // the same snapshot (a new theme)
	}
	if n := six.patch(snap); n != nil {
		return n
	}
	return NewSiteIndex(snap)
}

// again is an index of the same snapshot sharing six's lookups, which
// are never changed once made, with no lists yet: those of a new
// renderer (a new theme) go with it, and six's with six.
func (six *SiteIndex) again() *SiteIndex {
	return &SiteIndex{snap: six.snap, base: six.base, byFile: six.byFile, bySlug: six.bySlug, byPath: six.byPath,
		names: six.names, urls: six.urls, listPages: six.listPages, listURLs: six.listURLs, dup: six.dup}
}

// patch is Next's patch, nil when only a new index can settle the
// change.
func (prev *SiteIndex) patch(snap *pipeline.Snapshot) *SiteIndex {
	from, changes, ok := snap.PatchedFrom()
	if !ok || from != prev.snap.ID() || snap.Config().BaseURL != prev.snap.Config().BaseURL {
		return nil
	}
	for _, c := range changes {
		for _, p := range []*pipeline.Post{c.Old, c.New} {
			if p == nil {
				continue
			}
			if p.Kind != pipeline.KindPage && (prev.URL(p) != "" || snap.PageOf(p) != nil || snap.Visible(p)) {
				return nil // a list's own file: only regular pages (and hidden files) are patched
			}
			if prev.dup["s:"+p.Slug] || prev.dup["p:"+prev.postKey(p)] {
				return nil
			}
		}
	}
	six := &SiteIndex{snap: snap, base: prev.base, listPages: map[string]*pipeline.Page{}, listURLs: map[string]*pipeline.Page{}, dup: prev.dup,
		byFile: prev.byFile.Next(), bySlug: prev.bySlug.Next(), byPath: prev.byPath.Next(),
		names: prev.names.Next(), urls: prev.urls.Next()}
	for _, c := range changes {
		if p := c.Old; p != nil {
			six.byFile.Del(p.File)
			six.bySlug.Del(p.Slug)
			six.urls.Del(p)
			six.remove(six.postKey(p))
		}
	}
	for _, c := range changes {
		p := c.New
		if p == nil {
			continue
		}
		key := six.postKey(p)
		_, slugTaken := six.bySlug.Get(p.Slug)
		_, pathTaken := six.byPath.Get(key)
		if slugTaken || pathTaken {
			return nil // it now shares a slug or path with another page
		}
		page := Page{File: p.File, Title: p.Title}
		if pg := snap.PageOf(p); pg != nil {
			page = six.page(pg)
			six.urls.Set(p, page.URL)
		}
		six.byFile.Set(p.File, p)
		six.bySlug.Set(p.Slug, p)
		six.add(key, page)
	}
	for _, pg := range snap.ListPages() {
		if pg.Hidden {
			continue
		}
		page := six.page(pg)
		if page.URL != "" {
			six.listURLs[page.URL] = pg
		}
		key := six.listKey(pg)
		if key == "" || pg.Post != nil {
			continue // a list with an _index is its post's entry
		}
		if prev.listPages[key] == nil || prev.dup["p:"+key] {
			return nil // a list came, or lists share a path
		}
		six.listPages[key] = pg
		if !page.equal(six.pagePath(key)) {
			six.byPath.Set(key, page) // its title or feed moved
		}
	}
	if len(six.listPages) != len(prev.listPages) {
		return nil // a list went
	}
	return six
}

// sharedKey is key, as a part of the page's path when that begins with
// it (a page served at its content path, the common case): the index
// keeps a key per page for its life, and a string of its own is one
// more object for the collector to mark in every cycle.
func sharedKey(key, path string) string {
	if strings.HasPrefix(path, key) {
		return path[:len(key)]
	}
	return key
}

// listKey is where a list page is in byPath; "" for none.
func (six *SiteIndex) listKey(pg *pipeline.Page) string {
	if key := listKey(pg); key != "" {
		return six.langKey(pg.Lang, key)
	}
	return ""
}

// listKey is a list page's Hugo path; "" for none.
func listKey(pg *pipeline.Page) string {
	switch pg.Kind {
	case pipeline.KindHome:
		return "/"
	case pipeline.KindSection:
		return HugoPath(pg.Section + "/_index.md")
	case pipeline.KindTaxonomy:
		return "/" + strings.ToLower(pg.Taxonomy)
	case pipeline.KindTerm:
		return "/" + strings.ToLower(pg.Taxonomy) + "/" + strings.ReplaceAll(strings.ToLower(pg.Term), " ", "-")
	}
	return ""
}

// postKey is where a post's page is in byPath.
func (six *SiteIndex) postKey(p *pipeline.Post) string { return six.langKey(p.Lang, pagePath(p)) }

// langKey is key, a Hugo path or a page's name, in lang's part of byPath
// and names: the default language's keys are as they are, another
// language's follow its code and langSep. A page is found among its own
// language's pages only, as Hugo 0.165's sites each find their own: from
// a French page, "/posts/b" is the French posts/b.fr.md, and a path only
// English has is no page.
func (six *SiteIndex) langKey(lang, key string) string {
	if lang == "" || lang == six.snap.Config().DefaultLanguage {
		return key
	}
	return lang + langSep + key
}

// langSep ends a language's code at the start of its keys (langKey): no
// Hugo path or name holds it.
const langSep = "\x01"

// keyName is the name that a key of byPath is found by: its last
// element, in the key's language.
func keyName(key string) string {
	lang, rest := "", key
	if i := strings.Index(key, langSep); i >= 0 {
		lang, rest = key[:i+len(langSep)], key[i+len(langSep):]
	}
	return lang + rest[strings.LastIndexByte(rest, '/')+1:]
}

// page is the Page of a page of the model.
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

// add records page at key unless a page holds it already (then key is
// claimed twice); it reports whether page holds key. The home page has
// no name.
func (six *SiteIndex) add(key string, page Page) bool {
	if _, taken := six.byPath.Get(key); taken {
		six.dup["p:"+key] = true // (follow never gets here: it shares dup)
		return false
	}
	set(&six.byPath, six.building, key, page)
	if name := keyName(key); name != "" && !strings.HasSuffix(name, langSep) {
		keys, _ := six.names.Get(name)
		switch {
		case keys == "":
			set(&six.names, six.building, name, key)
		case six.building:
			six.share(name, keys, key)
		default:
			six.names.Set(name, keys+nameSep+key)
		}
	}
	return true
}

// share adds key to the keys of name while building, where keys is
// name's entry: its second key makes the entry say that several pages
// have it (PageName), the rest wait for the end of NewSiteIndex.
func (six *SiteIndex) share(name, keys, key string) {
	if six.shared == nil {
		six.shared = map[string][]string{}
	}
	if _, ok := six.shared[name]; !ok {
		six.shared[name] = []string{keys}
		six.names.Base()[name] = keys + nameSep + key
	}
	six.shared[name] = append(six.shared[name], key)
}

// nameSep separates the keys of one name in names: a name's entry is its
// key itself when one page has it (most names: no string or slice is
// made for them, an object fewer for the collector to mark per page),
// else its keys in order joined by nameSep, which no file's path holds
// (a term written with a NUL in it would read as two keys: its name,
// NUL included, as two pages').
const nameSep = "\x00"

// set sets a key of m: in its base while it is being built.
func set[K comparable, V any](m *layered.Map[K, V], building bool, k K, v V) {
	if building {
		m.Base()[k] = v
	} else {
		m.Set(k, v)
	}
}

// remove forgets the page at key.
func (six *SiteIndex) remove(key string) {
	six.byPath.Del(key)
	name := keyName(key)
	keys, _ := six.names.Get(name)
	left := slices.DeleteFunc(strings.Split(keys, nameSep), func(k string) bool { return k == key })
	if len(left) == 0 {
		six.names.Del(name)
	} else {
		six.names.Set(name, strings.Join(left, nameSep))
	}
}

func (six *SiteIndex) url(p string) string {
	if p == "" {
		return ""
	}
	return six.base + strings.TrimPrefix((&url.URL{Path: p}).EscapedPath(), "/")
}

// pagePath is the Page at key, the zero Page for none.
func (six *SiteIndex) pagePath(key string) Page {
	pg, _ := six.byPath.Get(key)
	return pg
}

// model is the page of the model a Page found by a lookup is; nil for
// a page the snapshot does not show.
func (six *SiteIndex) model(t Page) *pipeline.Page {
	if pg := six.listURLs[t.URL]; pg != nil && t.URL != "" {
		return pg
	}
	if p, _ := six.byFile.Get(t.File); p != nil && t.File != "" {
		return six.snap.PageOf(p)
	}
	return nil
}

// File implements Resolver.
func (six *SiteIndex) File(path string) (*pipeline.Post, bool) {
	p, _ := six.byFile.Get(path)
	return six.answer(p)
}

// Slug implements Resolver.
func (six *SiteIndex) Slug(slug string) (*pipeline.Post, bool) {
	p, _ := six.bySlug.Get(slug)
	return six.answer(p)
}

func (six *SiteIndex) answer(p *pipeline.Post) (*pipeline.Post, bool) {
	if p == nil {
		return nil, false
	}
	return p, six.snap.Visible(p)
}

// PagePath implements PageResolver.
func (six *SiteIndex) PagePath(p string) (Page, bool) { return six.byPath.Get(p) }

// PageName implements PageResolver.
func (six *SiteIndex) PageName(name string) (Page, bool, bool) {
	keys, _ := six.names.Get(name)
	switch {
	case keys == "":
		return Page{}, false, false
	case !strings.Contains(keys, nameSep):
		return six.pagePath(keys), true, false
	}
	return Page{}, true, true
}

// URL is a published post's URL on the site, "" for one the site does
// not show.
func (six *SiteIndex) URL(p *pipeline.Post) string {
	u, _ := six.urls.Get(p)
	return u
}
