package render

import (
	"io/fs"
	"os"
	"path"
	"strings"

	"folio/pipeline"
)

// A Resolver finds the posts that links and ref shortcodes name. The
// renderer decides what a reference means (see the package doc); the
// resolver only looks up. A nil post means there is no such post; visible
// reports whether the snapshot being rendered shows it.
type Resolver interface {
	// File finds the post read from a content file, named by its
	// slash-separated path inside the content folder: "blog/other.md",
	// "blog/trip/index.md".
	File(path string) (p *pipeline.Post, visible bool)
	// Slug finds the post with this (unescaped) slug.
	Slug(slug string) (p *pipeline.Post, visible bool)
}

// A PageResolver is a Resolver that also finds pages by Hugo's page
// paths, which is how ref and relref name them. The site model
// implements it over every page (sections, the home page, pages outside
// the posts section); Index implements it over the posts. Render uses it
// when the Resolver it is given has these methods.
type PageResolver interface {
	// PagePath finds the page whose Hugo path is p: its content file's
	// path from the content root with a leading "/", lower-cased, spaces
	// as "-", without the extension, and without a last "/index" or
	// "/_index" ("/posts/trip" for posts/trip/index.md, "/about" for
	// about.md, "/" for the home page's _index.md). See HugoPath.
	PagePath(p string) (Page, bool)
	// PageName finds the page whose file name (a bundle's folder name)
	// without extension, lower-cased, is name: Hugo's lookup of a ref
	// with no "/". ambiguous reports more than one such page.
	PageName(name string) (p Page, found, ambiguous bool)
}

// A Page is a page a ref can name.
type Page struct {
	// File is its content file ("posts/x.md", "about.md").
	File string
	// URL is its absolute permalink.
	URL string
	// Title is its title.
	Title string
	// Visible reports whether the site shows it.
	Visible bool
	// Outputs are its other output formats by lower-case name ("rss",
	// "markdown") and their absolute URLs; "html" is URL.
	Outputs []Output
}

// An Output is one output format of a page.
type Output struct {
	Name, URL string
}

func (p Page) equal(q Page) bool {
	if p.File != q.File || p.URL != q.URL || p.Title != q.Title || p.Visible != q.Visible || len(p.Outputs) != len(q.Outputs) {
		return false
	}
	for i := range p.Outputs {
		if p.Outputs[i] != q.Outputs[i] {
			return false
		}
	}
	return true
}

// output returns the URL of the named output format.
func (p Page) output(name string) (string, bool) {
	name = strings.ToLower(name)
	if name == "" || name == "html" {
		return p.URL, true
	}
	for _, o := range p.Outputs {
		if o.Name == name {
			return o.URL, true
		}
	}
	return "", false
}

// HugoPath is the Hugo path of a content file (slash-separated, from the
// content root): "/" and the path lower-cased, spaces as "-", without the
// extension and without a last "index" or "_index".
func HugoPath(file string) string {
	p := strings.ReplaceAll(strings.ToLower(file), " ", "-")
	p = strings.TrimSuffix(p, path.Ext(p))
	switch base := path.Base(p); {
	case base == "index" || base == "_index":
		p = path.Dir(p)
	}
	p = path.Clean("/" + p)
	return p
}

// hugoName is the name Hugo's short refs match: the file's base name
// without extension, a bundle's folder name, lower-cased.
func hugoName(file string) string {
	return path.Base(HugoPath(file))
}

// pagePath is a post's Hugo path. A page of a Hugo site knows its place
// in the content (PageMeta: its folder and base name, whatever mount or
// language file it came from); a post of folio's own section is its file.
func pagePath(p *pipeline.Post) string {
	switch p.Kind {
	case pipeline.KindHome:
		return "/"
	case pipeline.KindSection:
		return HugoPath(path.Join(p.Dir, "_index.md"))
	case pipeline.KindPage:
		return HugoPath(path.Join(p.Dir, p.Base) + ".md")
	}
	return HugoPath(p.File)
}

// pageDir is the folder a post's relative refs start from: a regular
// page's folder (a leaf bundle's parent), a section's own folder. bundle
// is the leaf bundle's own folder, "" for other pages.
func pageDir(p *pipeline.Post) (dir, bundle string) {
	if p.Kind != "" {
		if p.Kind == pipeline.KindPage && p.Bundle != "" {
			return p.Dir, path.Join(p.Dir, p.Base)
		}
		return p.Dir, ""
	}
	if p.Bundle != "" {
		return path.Dir(p.Bundle), p.Bundle
	}
	return path.Dir(p.File), ""
}

// A Ref is one lookup a rendering made and its answer. One of File, Slug,
// Path, Name and Site is set.
type Ref struct {
	File    string
	Slug    string
	Post    *pipeline.Post
	Visible bool

	// Path and Name are lookups of a PageResolver; Page, Found and
	// Ambiguous their answers.
	Path, Name string
	Page       Page
	Found      bool
	Ambiguous  bool

	// Site is the ID of the snapshot whose lists (.Site.Pages, a
	// section's .Pages…) or routes the rendering read: the answer holds
	// under that snapshot only.
	Site uint64
}

func (r Ref) answers(res Resolver) bool {
	if r.Site != 0 {
		six, ok := res.(*SiteIndex)
		return ok && six.snap.ID() == r.Site
	}
	if r.Path != "" || r.Name != "" {
		pr, ok := res.(PageResolver)
		if !ok {
			return !r.Found
		}
		var p Page
		var found, ambiguous bool
		if r.Path != "" {
			p, found = pr.PagePath(r.Path)
		} else {
			p, found, ambiguous = pr.PageName(r.Name)
		}
		return found == r.Found && ambiguous == r.Ambiguous && p.equal(r.Page)
	}
	var p *pipeline.Post
	var visible bool
	if r.File != "" {
		p, visible = res.File(r.File)
	} else {
		p, visible = res.Slug(r.Slug)
	}
	return p == r.Post && visible == r.Visible
}

// An Index is a Resolver and a PageResolver over a list of posts. Give it
// every parsed post, visible or not, so that a link to an unpublished
// post is reported as such; posts it does not hold are "no such post",
// which renders the same.
type Index struct {
	byFile  map[string]*pipeline.Post
	bySlug  map[string]*pipeline.Post
	byPath  map[string]*pipeline.Post
	byName  map[string][]*pipeline.Post
	visible func(*pipeline.Post) bool
	// url makes a post's absolute URL.
	url func(*pipeline.Post) string
}

// NewIndex indexes posts by file and slug. visible tells which posts are
// shown (for a snapshot s, s.Visible); nil means all of them. When two
// posts share a slug, a visible one wins.
func NewIndex(posts []*pipeline.Post, visible func(*pipeline.Post) bool) *Index {
	if visible == nil {
		visible = func(*pipeline.Post) bool { return true }
	}
	ix := &Index{
		byFile:  make(map[string]*pipeline.Post, len(posts)),
		bySlug:  make(map[string]*pipeline.Post, len(posts)),
		byPath:  make(map[string]*pipeline.Post, len(posts)),
		byName:  make(map[string][]*pipeline.Post, len(posts)),
		visible: visible,
	}
	for _, p := range posts {
		ix.byFile[p.File] = p
		if old, ok := ix.bySlug[p.Slug]; !ok || (!visible(old) && visible(p)) {
			ix.bySlug[p.Slug] = p
		}
		ix.byPath[pagePath(p)] = p
		name := path.Base(pagePath(p))
		ix.byName[name] = append(ix.byName[name], p)
	}
	return ix
}

// WithURLs returns the index with the function that makes a post's
// absolute URL, for PagePath and PageName answers; Render passes its own
// when the index has none.
func (ix *Index) WithURLs(url func(*pipeline.Post) string) *Index {
	c := *ix
	c.url = url
	return &c
}

// File implements Resolver.
func (ix *Index) File(path string) (*pipeline.Post, bool) { return ix.answer(ix.byFile[path]) }

// Slug implements Resolver.
func (ix *Index) Slug(slug string) (*pipeline.Post, bool) { return ix.answer(ix.bySlug[slug]) }

func (ix *Index) answer(p *pipeline.Post) (*pipeline.Post, bool) {
	if p == nil {
		return nil, false
	}
	return p, ix.visible(p)
}

// PagePath implements PageResolver.
func (ix *Index) PagePath(p string) (Page, bool) {
	post := ix.byPath[p]
	if post == nil {
		return Page{}, false
	}
	return ix.page(post), true
}

// PageName implements PageResolver.
func (ix *Index) PageName(name string) (Page, bool, bool) {
	posts := ix.byName[name]
	switch len(posts) {
	case 0:
		return Page{}, false, false
	case 1:
		return ix.page(posts[0]), true, false
	}
	return Page{}, true, true
}

func (ix *Index) page(p *pipeline.Post) Page {
	u := ""
	if ix.url != nil {
		u = ix.url(p)
	}
	out := Page{File: p.File, URL: u, Title: p.Title, Visible: ix.visible(p)}
	if md, ok := strings.CutSuffix(u, "/"); ok && u != "" {
		out.Outputs = []Output{{Name: "markdown", URL: md + ".md"}}
	}
	return out
}

// noPosts is the Resolver of Render(p, nil).
type noPosts struct{}

func (noPosts) File(string) (*pipeline.Post, bool) { return nil, false }
func (noPosts) Slug(string) (*pipeline.Post, bool) { return nil, false }

// ForSnapshot is what renders snap's posts as the site shows them: a
// Renderer for its configuration and an index that knows every post but
// resolves links only to the visible ones, so a link to a post that is not
// published is reported as such. The server and folio check both use it,
// so they find the same problems.
//
// The site's own templates are read from the site's folder (the
// configuration's Source) when it has one.
func ForSnapshot(snap *pipeline.Snapshot) (*Renderer, Resolver) {
	return ForSnapshotAfter(snap, nil)
}

// ForSnapshotAfter is ForSnapshot for a snapshot made from an earlier one
// whose resolver was prev (nil when there was none): the index is
// patched from prev where it can be (SiteIndex.Next), as a save in folio
// dev allows.
func ForSnapshotAfter(snap *pipeline.Snapshot, prev Resolver) (*Renderer, Resolver) {
	cfg := snap.Config()
	var site fs.FS
	if cfg.Source != "" {
		site = os.DirFS(cfg.Source)
	}
	o := OptionsFor(cfg, site)
	o.Content = snap.FS()
	if o.Section == "" {
		// A Hugo site's posts section, for links written as its URLs
		// ("../other/") and to its bundles' files.
		if main := snap.MainSections(cfg.DefaultLanguage); len(main) > 0 {
			o.Section = main[0]
		}
	}
	if six, ok := prev.(*SiteIndex); ok && six != nil {
		return New(o), six.Next(snap)
	}
	return New(o), NewSiteIndex(snap)
}
