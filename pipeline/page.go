package pipeline

import "time"

// Page kinds, as Hugo names them.
const (
	KindHome     = "home"
	KindSection  = "section"
	KindPage     = "page"
	KindTaxonomy = "taxonomy"
	KindTerm     = "term"
)

// PageMeta is where a content file sits in the Hugo site and what its
// front matter says about its page beyond a post's fields. The snapshot
// sets it when it reads the file.
type PageMeta struct {
	// Kind is KindPage for a regular page (a file or a leaf bundle's
	// index), KindSection for a section's _index, KindHome for the
	// content root's _index.
	Kind string
	// Lang is the page's language: its content folder's, its file name's
	// (post.fr.md), else the site's default.
	Lang string
	// Dir is the page's folder in the content, slash-separated: a regular
	// page's folder (a bundle's parent), a section's own folder ("" for
	// the home page).
	Dir string
	// Base is the file name without extension and language, or a leaf
	// bundle's folder name ("_index" for a branch's index).
	Base string
	// SlugParam and TitleParam are the front matter's slug and title as
	// written, "" when unset (Post's Slug and Title have fallbacks).
	SlugParam  string
	TitleParam string
	// URL is the front matter url.
	URL       string
	Weight    int
	LinkTitle string
	// Build are the front matter's build options (headless: true is
	// render and list never).
	Build BuildOptions
	// Terms are the page's taxonomy terms, by taxonomy plural, as
	// written (empty entries dropped).
	Terms map[string][]string
	// Menus are the menu entries the front matter declares.
	Menus []MenuEntry
	// Created is Hugo's .Date: the first of the frontmatter.date keys
	// set (date, then the publish date's keys, then lastmod's), in the
	// zone it was written in (the site's for a date without one).
	Created time.Time
	// Images are the image destinations the body names (Markdown images
	// and figure sources), for files folio publishes from assets/.
	Images []string
	// TranslationKey links translations that do not share a path.
	TranslationKey string
	// Outputs are the front matter's output formats, lower-cased; nil
	// for the kind's (SiteConfig.Outputs).
	Outputs []string
}

// BuildOptions are Hugo's build front matter: whether the page is in
// lists and rendered, and whether its bundle's files are published.
type BuildOptions struct {
	List             string // "always", "never" or "local"
	Render           string // "always", "never" or "link"
	PublishResources bool
}

// Listed reports whether the page is in lists (home, sections, terms).
func (b BuildOptions) Listed() bool { return b.List != "never" }

// Rendered reports whether the page is written.
func (b BuildOptions) Rendered() bool { return b.Render == "" || b.Render == "always" }

// A Page is one page of the site: a content page, a section or the home
// page (from its _index when there is one), a taxonomy or a term.
type Page struct {
	Kind string
	Lang string
	// Path is where the page is served, unescaped, from the site root:
	// "/posts/hello/", "/blog/x.html", "/fr/".
	Path string
	// File is the file Hugo writes for it ("posts/hello/index.html").
	File  string
	Title string
	// Post is the content; nil for a list page without an _index.
	Post *Post
	// Section is a home or section page's content folder ("" for the
	// home page, "posts/go"), and a regular page's current section.
	Section string
	// Taxonomy (the plural) and Term (as first written) name a taxonomy
	// or term page; Spellings are every way the content writes the term.
	Taxonomy  string
	Term      string
	Spellings []string
	// Pages are what a list page lists and paginates, in Hugo's default
	// order: a section's regular pages, the home page's those of the main
	// sections, a taxonomy's terms, a term's pages.
	Pages []*Page
	// Sections are a home or section page's subsections.
	Sections []*Page
	// Pagers is the number of pages the list is cut into (1 for a page).
	Pagers int
	// Feed is the path of the page's RSS feed, "" when it has none.
	Feed string
	// Rendered is false for a page that is listed but not written
	// (build render never).
	Rendered bool
	// Hidden is a section whose _index the site does not show (a
	// draft): Hugo keeps it for the tree's shape, never rendered nor
	// listed, its files not published. Its pages are its own, not its
	// parent's; nothing else sees it (no Post, no title of its file's).
	Hidden bool

	// pagerKey is where a list's pagers are (see pagerKey).
	pagerKey string
	// firstFile is the file of the page whose spelling titles a term.
	firstFile string
}
