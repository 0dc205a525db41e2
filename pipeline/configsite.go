package pipeline

import (
	"reflect"
	"regexp"
	"slices"
	"time"
)

// SiteConfig is what a Hugo site's configuration says about its pages and URLs,
// with Hugo 0.165's defaults where the configuration is silent. folio's
// own config.toml has none of these keys, so a site configured that way
// gets Hugo's defaults: the pages and URLs Hugo would make of its content.
type SiteConfig struct {
	// Source is the site's folder (the --source folder, or the one the
	// config was found in); "" for a config read on its own.
	Source string
	// Environment is the config environment merged over config/_default:
	// "development" (folio dev) or "production".
	Environment string
	// ConfigFiles are the files merged, in order, and ConfigDirs the
	// config folders read: what folio dev watches.
	ConfigFiles []string
	ConfigDirs  []string
	// Warnings are the keys neither Hugo nor folio knows, each naming
	// the key likely meant, and the settings folio reads differently.
	Warnings []Problem

	// Params are the site params, keys lower-cased (Hugo's .Site.Params).
	Params map[string]any
	// MainSections are mainSections (or params.mainSections); empty when
	// unset, and the snapshot takes the section with the most pages.
	MainSections []string
	Permalinks   Permalinks
	// Taxonomies are the configured taxonomies, by plural name; Hugo's
	// tags and categories when taxonomies is not set.
	Taxonomies []Taxonomy
	Menus      Menus

	// Languages are the enabled languages in Hugo's order (weight, then
	// code); always at least one.
	Languages               []Language
	DefaultLanguage         string
	DefaultLanguageInSubdir bool

	Pagination Pagination
	// RSSLimit is services.rss.limit: the items in Hugo's feeds; -1 all.
	RSSLimit           int
	SummaryLength      int
	UglyURLs           UglyURLs
	DisablePathToLower bool
	RemovePathAccents  bool
	// DisableKinds are the page kinds not built ("taxonomy", "term",
	// "section", "home", "page", "rss", "sitemap", "robotstxt", "404").
	DisableKinds   map[string]bool
	DisableAliases bool
	// DisableDefaultSiteRedirect: no redirect to the default language's
	// home (/ to /en/, or /en/ to /): disableDefaultSiteRedirect, or
	// its older name disableDefaultLanguageRedirect.
	DisableDefaultSiteRedirect bool
	// Outputs are the output formats of each page kind, lower-cased
	// ("html", "rss", and a theme's own); Hugo's defaults for a kind the
	// outputs table leaves out.
	Outputs map[string][]string
	// RSSBaseName is the RSS format's file name without its extension:
	// "index" (outputFormats.rss.baseName).
	RSSBaseName string
	Frontmatter Frontmatter
	// Mounts are the folders of content, static files and assets, after
	// Hugo's defaults (content/, static/, assets/) and staticDir.
	Mounts []Mount
	// IgnoreFiles are ignoreFiles: regular expressions matched against
	// the absolute path of each content file and folder (contentfilter.go),
	// ignoreRoot the site's folder's absolute path they are matched below.
	IgnoreFiles []*regexp.Regexp
	ignoreRoot  string
	// DisabledLanguages are the codes of the languages disableLanguages
	// (or a language's disabled) turns off: a content file named for one
	// (post.de.md) is left out, as Hugo leaves it out.
	DisabledLanguages []string

	// Themes are the theme folders, relative to the site's folder, in
	// order of precedence (theme, a name or a list, under themesDir).
	Themes []string

	// EnableInlineShortcodes runs the inline shortcodes of content
	// ({{< name.inline >}}template{{< /name.inline >}}), as Hugo does only
	// when the config says so (enableInlineShortcodes, or
	// security.enableInlineShortcodes; its default, false, drops them).
	EnableInlineShortcodes bool

	EnableEmoji          bool
	HasCJKLanguage       bool
	CapitalizeListTitles bool
	PluralizeListTitles  bool
	TitleCaseStyle       string
	SectionPagesMenu     string
	Copyright            string
	EnableRobotsTXT      bool
	// BuildDrafts, BuildFuture and BuildExpired publish drafts, pages
	// whose publish date is to come and expired pages, as Hugo does when
	// the config sets them (Shows).
	BuildDrafts, BuildFuture, BuildExpired bool
	// RefLinksNotFoundURL is what a ref or relref to no page gives;
	// RefLinksWarning is refLinksErrorLevel "warning": such a ref is a
	// warning, not an error (Hugo's REF_NOT_FOUND).
	RefLinksNotFoundURL string
	RefLinksWarning     bool

	// keys maps the legacy names of folio's settings to the keys they
	// were read from, for messages.
	keys map[string]string
	// sectionIndexIsPost keeps folio's rule from before Hugo sites for
	// its own config.toml: the section folder's index.md is a post named
	// index, not (as in Hugo) a leaf bundle holding the whole section.
	sectionIndexIsPost bool
}

// Permalinks are the permalink rules in Hugo's order: the first whose
// kind and path globs match a page gives its pattern.
type Permalinks []PermalinkRule

// PermalinkRule is one permalink pattern and the pages it is for: Kind
// and Path are Hugo's globs over a page's kind ("page", "section",
// "taxonomy", "term", "home") and its logical path ("/posts/my-post").
type PermalinkRule struct {
	Kind    string
	Path    string
	Pattern string
}

// Taxonomy is one configured taxonomy.
type Taxonomy struct {
	Singular string // "tag"
	Plural   string // "tags": its key in front matter and its URL
}

// Menus are the menus by name.
type Menus map[string][]MenuEntry

// MenuEntry is one menu entry from the config or a page's front matter.
type MenuEntry struct {
	Menu       string // the menu's name
	Identifier string
	Parent     string
	Name       string
	Pre        string
	Post       string
	URL        string // as configured; a page entry's is its permalink
	PageRef    string
	Weight     int
	Title      string
	Params     map[string]any
	// Page is the file of the page that declared the entry in its front
	// matter, "" for a config entry.
	Page string
}

// Language is one language of the site and its settings, which are the
// root's unless the language sets them.
type Language struct {
	Code      string // "en", the languages key
	Label     string // languageName (label)
	Locale    string // locale, else languageCode
	Direction string // "ltr" or "rtl"; "" when unset
	Weight    int
	Default   bool

	Title        string
	Description  string
	Params       map[string]any
	Menus        Menus
	MainSections []string
	Permalinks   Permalinks
	Taxonomies   []Taxonomy
	// ContentDir is the language's content folder, relative to the site,
	// when it has one of its own; "" when it shares the site's.
	ContentDir string
}

// Pagination is the pagination table.
type Pagination struct {
	PagerSize      int    // pages per list page, 10
	Path           string // "page": /blog/page/2/
	DisableAliases bool   // no /page/1/ alias of the first page
}

// UglyURLs is uglyURLs: true for every section, or per section.
type UglyURLs struct {
	All      bool
	Sections map[string]bool
}

// For reports whether pages of section are written as /section/name.html.
func (u UglyURLs) For(section string) bool {
	return u.All || u.Sections[section]
}

// Frontmatter is the frontmatter table: which front matter keys (and
// ":filename", ":fileModTime", ":git", ":default") set each date, in order.
type Frontmatter struct {
	Date        []string
	Lastmod     []string
	PublishDate []string
	ExpiryDate  []string
}

// Mount is one folder mounted into the site: Source relative to the
// site's folder (slash-separated), Target "content", "static" or
// "assets" (with a subfolder when mounted below the root), Lang the
// language of content mounted for one language only.
type Mount struct {
	Source string
	Target string
	Lang   string
	// Exclude is the mount's files, includeFiles and excludeFiles
	// (contentfilter.go); nil when it has none.
	Exclude *mountFilter
}

// defaultSite is Hugo 0.165's configuration of a site with no config.
func defaultSite() SiteConfig {
	return SiteConfig{
		Taxonomies:           defaultTaxonomies(),
		Languages:            []Language{{Code: "en", Default: true}},
		DefaultLanguage:      "en",
		Pagination:           Pagination{PagerSize: 10, Path: "page"},
		RSSLimit:             -1,
		SummaryLength:        70,
		DisableKinds:         map[string]bool{},
		Outputs:              defaultOutputs(),
		RSSBaseName:          "index",
		Frontmatter:          defaultFrontmatter(),
		Mounts:               []Mount{{Source: "content", Target: "content"}, {Source: "assets", Target: "assets"}, {Source: "static", Target: "static"}},
		CapitalizeListTitles: true,
		PluralizeListTitles:  true,
		TitleCaseStyle:       "ap",
		Params:               map[string]any{},
		Menus:                Menus{},
	}
}

func defaultTaxonomies() []Taxonomy {
	return []Taxonomy{{Singular: "category", Plural: "categories"}, {Singular: "tag", Plural: "tags"}}
}

// defaultFrontmatter is Hugo's: date from date, then the publish date's
// keys, then lastmod's; the others from their own keys first.
func defaultFrontmatter() Frontmatter {
	return Frontmatter{
		Date:        []string{"date", "publishdate", "pubdate", "published", "lastmod", "modified"},
		Lastmod:     []string{":git", "lastmod", "modified", "date", "publishdate", "pubdate", "published"},
		PublishDate: []string{"publishdate", "pubdate", "published", "date"},
		ExpiryDate:  []string{"expirydate", "unpublishdate"},
	}
}

// Lang returns the language with code, or nil.
func (s *SiteConfig) Lang(code string) *Language {
	for i := range s.Languages {
		if s.Languages[i].Code == code {
			return &s.Languages[i]
		}
	}
	return nil
}

// Shows reports whether the site publishes p at now, by Hugo's rules: a
// draft only under buildDrafts, a page whose publish date is after now
// only under buildFuture, an expired one only under buildExpired.
func (s *SiteConfig) Shows(p *Post, now time.Time) bool {
	switch {
	case p.Draft && !s.BuildDrafts:
		return false
	case p.Date.After(now) && !s.BuildFuture:
		return false
	}
	return s.BuildExpired || p.Expiry.IsZero() || !p.Expiry.Before(now)
}

// Multilingual reports whether the site has more than one language.
func (s *SiteConfig) Multilingual() bool { return len(s.Languages) > 1 }

// isBundleDir reports whether a content folder (its path in the
// content) with an index file is a leaf bundle.
func (s *SiteConfig) isBundleDir(rel string, section string) bool {
	return rel != "" && !(s.sectionIndexIsPost && rel == section)
}

// defaultOutputs are Hugo's output formats per kind.
func defaultOutputs() map[string][]string {
	list := []string{"html", "rss"}
	return map[string][]string{"home": list, "section": list, "taxonomy": list, "term": list, "page": {"html"}}
}

// HasOutput reports whether pages of kind have the output format.
func (s *SiteConfig) HasOutput(kind, format string) bool {
	return slices.Contains(s.Outputs[kind], format)
}

// readsLike reports whether two site configurations read the same files
// into the same posts: all but the files read, the environment, the
// warnings, and what only the site model and the pages made of the posts
// use (titles, params, menus, URLs, lists, outputs), which a snapshot
// assembles afresh from its posts under a new config.
func (s *SiteConfig) readsLike(o *SiteConfig) bool {
	a, b := s.reading(), o.reading()
	return reflect.DeepEqual(a, b)
}

// reading is s with only what reading the content depends on.
func (s *SiteConfig) reading() SiteConfig {
	return SiteConfig{
		Languages:               readingLanguages(s.Languages),
		DefaultLanguage:         s.DefaultLanguage,
		DefaultLanguageInSubdir: s.DefaultLanguageInSubdir,
		Taxonomies:              s.Taxonomies,
		SummaryLength:           s.SummaryLength,
		Frontmatter:             s.Frontmatter,
		Mounts:                  s.Mounts,
		IgnoreFiles:             s.IgnoreFiles,
		ignoreRoot:              s.ignoreRoot,
		DisabledLanguages:       s.DisabledLanguages,
		HasCJKLanguage:          s.HasCJKLanguage,
		sectionIndexIsPost:      s.sectionIndexIsPost,
	}
}

func readingLanguages(langs []Language) []Language {
	out := make([]Language, len(langs))
	for i, l := range langs {
		out[i] = Language{Code: l.Code, Weight: l.Weight, Default: l.Default, Taxonomies: l.Taxonomies, ContentDir: l.ContentDir}
	}
	return out
}
