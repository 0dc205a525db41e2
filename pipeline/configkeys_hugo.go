package pipeline

// The keys a config may hold, as Go structs the decoder (configdecode.go)
// walks: a field is a key, matched ignoring case, spelled as its cfg tag
// says. A key no field knows is unknown: a warning naming the key meant,
// an error under [folio]. Tag options: "own" marks folio's own keys,
// whose values must have exactly their type (Hugo's keys are decoded as
// leniently as Hugo decodes them: "10" is a fine integer); "closed" makes
// an unknown key inside the table an error; "open" accepts any key inside
// the table besides the fields.
//
// hugoKeys mirror Hugo 0.165's configuration (config/allconfig: RootConfig,
// Config, CommonDirs, langs.LanguageConfig, and the decoders of
// alldecoders.go), so that no key Hugo accepts is ever reported. Keys
// folio does not read are typed any: accepted, not looked at.

// rootKeys are the keys of a config's root: Hugo's, folio's own (the
// [folio] table), and the keys of folio's config.toml before Hugo sites.
type rootKeys struct {
	hugoKeys
	Languages map[string]*languageKeys `cfg:"languages"`

	Description string     `cfg:"description,own"`
	Language    string     `cfg:"language,own"`
	Section     string     `cfg:"section,own"`
	SiteDir     string     `cfg:"siteDir,own"`
	Feed        *feedKeys  `cfg:"feed,own"`
	API         *apiKeys   `cfg:"api,own"`
	Cache       *cacheKeys `cfg:"cache,own"`
	Folio       *folioKeys `cfg:"folio,own,closed"`

	// Keys Hugo reads as other keys, or reads still though they moved.
	Indexes           map[string]string `cfg:"indexes"` // taxonomies
	RSSLimit          *int              `cfg:"rssLimit"`
	GoogleAnalytics   any               `cfg:"googleAnalytics"`
	DisqusShortname   any               `cfg:"disqusShortname"`
	LogI18nWarnings   any               `cfg:"logI18nWarnings"`
	LogPathWarnings   any               `cfg:"logPathWarnings"`
	IgnoreErrors      any               `cfg:"ignoreErrors"`
	MinifyOutput      any               `cfg:"minifyOutput"`
	PygmentsStyle     any               `cfg:"pygmentsStyle"`
	PygmentsClasses   any               `cfg:"pygmentsUseClasses"`
	PygmentsFences    any               `cfg:"pygmentsCodeFences"`
	PygmentsGuess     any               `cfg:"pygmentsCodefencesGuessSyntax"`
	PygmentsOptions   any               `cfg:"pygmentsOptions"`
	ConfigDir         any               `cfg:"configDir"`
	DisableFastRender any               `cfg:"disableFastRender"`
}

// languageKeys are a language's table under [languages]: its own keys,
// and any root key, which then applies to that language only.
type languageKeys struct {
	hugoKeys
	LanguageName      string `cfg:"languageName"`
	Label             string `cfg:"label"`
	LanguageDirection string `cfg:"languageDirection"`
	Direction         string `cfg:"direction"`
	Weight            int    `cfg:"weight"`
	Disabled          bool   `cfg:"disabled"`
}

// hugoKeys are Hugo's keys that a language may set too.
type hugoKeys struct {
	BaseURL                        string              `cfg:"baseURL"`
	Title                          string              `cfg:"title"`
	TimeZone                       string              `cfg:"timeZone"`
	ContentDir                     string              `cfg:"contentDir"`
	LanguageCode                   string              `cfg:"languageCode"`
	Locale                         string              `cfg:"locale"`
	Author                         any                 `cfg:"author"`
	Params                         map[string]any      `cfg:"params"`
	MainSections                   []string            `cfg:"mainSections"`
	Permalinks                     *permalinkKeys      `cfg:"permalinks"`
	Taxonomies                     map[string]string   `cfg:"taxonomies"`
	Menus                          map[string]menuKeys `cfg:"menus"`
	DefaultContentLanguage         string              `cfg:"defaultContentLanguage"`
	DefaultContentLanguageInSubdir *bool               `cfg:"defaultContentLanguageInSubdir"`
	Services                       *servicesKeys       `cfg:"services,open"`
	Pagination                     *paginationKeys     `cfg:"pagination"`
	SummaryLength                  *int                `cfg:"summaryLength"`
	UglyURLs                       *uglyURLKeys        `cfg:"uglyURLs"`
	DisablePathToLower             *bool               `cfg:"disablePathToLower"`
	DisableKinds                   []string            `cfg:"disableKinds"`
	DisableAliases                 *bool               `cfg:"disableAliases"`
	Frontmatter                    *frontmatterKeys    `cfg:"frontmatter"`
	Module                         *moduleKeys         `cfg:"module,open"`
	Markup                         *MarkupConfig       `cfg:"markup"`
	EnableEmoji                    *bool               `cfg:"enableEmoji"`
	EnableInlineShortcodes         *bool               `cfg:"enableInlineShortcodes"`
	HasCJKLanguage                 *bool               `cfg:"hasCJKLanguage"`
	CapitalizeListTitles           *bool               `cfg:"capitalizeListTitles"`
	PluralizeListTitles            *bool               `cfg:"pluralizeListTitles"`
	TitleCaseStyle                 *string             `cfg:"titleCaseStyle"`
	RemovePathAccents              *bool               `cfg:"removePathAccents"`
	SectionPagesMenu               *string             `cfg:"sectionPagesMenu"`
	Copyright                      *string             `cfg:"copyright"`
	StaticDir                      *stringsKey         `cfg:"staticDir"`
	StaticDir0                     *stringsKey         `cfg:"staticDir0"`
	StaticDir1                     *stringsKey         `cfg:"staticDir1"`
	StaticDir2                     *stringsKey         `cfg:"staticDir2"`
	StaticDir3                     *stringsKey         `cfg:"staticDir3"`
	StaticDir4                     *stringsKey         `cfg:"staticDir4"`
	StaticDir5                     *stringsKey         `cfg:"staticDir5"`
	StaticDir6                     *stringsKey         `cfg:"staticDir6"`
	StaticDir7                     *stringsKey         `cfg:"staticDir7"`
	StaticDir8                     *stringsKey         `cfg:"staticDir8"`
	StaticDir9                     *stringsKey         `cfg:"staticDir9"`
	StaticDir10                    *stringsKey         `cfg:"staticDir10"`
	AssetDir                       *string             `cfg:"assetDir"`
	EnableRobotsTXT                *bool               `cfg:"enableRobotsTXT"`
	BuildDrafts                    *bool               `cfg:"buildDrafts"`
	BuildFuture                    *bool               `cfg:"buildFuture"`
	BuildExpired                   *bool               `cfg:"buildExpired"`
	RefLinksNotFoundURL            *string             `cfg:"refLinksNotFoundURL"`
	RefLinksErrorLevel             *string             `cfg:"refLinksErrorLevel"`

	// Hugo's keys folio does not read.
	DefaultContentRole                   any                         `cfg:"defaultContentRole"`
	DefaultContentRoleInSubdir           any                         `cfg:"defaultContentRoleInSubdir"`
	DefaultContentVersion                any                         `cfg:"defaultContentVersion"`
	DefaultContentVersionInSubdir        any                         `cfg:"defaultContentVersionInSubdir"`
	DefaultOutputFormat                  any                         `cfg:"defaultOutputFormat"`
	DisableDefaultLanguageRedirect       *bool                       `cfg:"disableDefaultLanguageRedirect"`
	DisableDefaultSiteRedirect           *bool                       `cfg:"disableDefaultSiteRedirect"`
	DisableLanguages                     any                         `cfg:"disableLanguages"`
	RenderSegments                       any                         `cfg:"renderSegments"`
	DisableHugoGeneratorInject           any                         `cfg:"disableHugoGeneratorInject"`
	DisableLiveReload                    any                         `cfg:"disableLiveReload"`
	EnableGitInfo                        any                         `cfg:"enableGitInfo"`
	TemplateMetrics                      any                         `cfg:"templateMetrics"`
	TemplateMetricsHints                 any                         `cfg:"templateMetricsHints"`
	NoBuildLock                          any                         `cfg:"noBuildLock"`
	IgnoreLogs                           any                         `cfg:"ignoreLogs"`
	IgnoreFiles                          any                         `cfg:"ignoreFiles"`
	IgnoreCache                          any                         `cfg:"ignoreCache"`
	EnableMissingTranslationPlaceholders any                         `cfg:"enableMissingTranslationPlaceholders"`
	PanicOnWarning                       any                         `cfg:"panicOnWarning"`
	Environment                          any                         `cfg:"environment"`
	CanonifyURLs                         any                         `cfg:"canonifyURLs"`
	RelativeURLs                         any                         `cfg:"relativeURLs"`
	PrintUnusedTemplates                 any                         `cfg:"printUnusedTemplates"`
	PrintI18nWarnings                    any                         `cfg:"printI18nWarnings"`
	PrintPathWarnings                    any                         `cfg:"printPathWarnings"`
	Theme                                any                         `cfg:"theme"`
	Timeout                              any                         `cfg:"timeout"`
	NewContentEditor                     any                         `cfg:"newContentEditor"`
	NoTimes                              any                         `cfg:"noTimes"`
	NoChmod                              any                         `cfg:"noChmod"`
	CleanDestinationDir                  any                         `cfg:"cleanDestinationDir"`
	IgnoreVendorPaths                    any                         `cfg:"ignoreVendorPaths"`
	ThemesDir                            any                         `cfg:"themesDir"`
	PublishDir                           any                         `cfg:"publishDir"`
	ResourceDir                          any                         `cfg:"resourceDir"`
	WorkingDir                           any                         `cfg:"workingDir"`
	CacheDir                             any                         `cfg:"cacheDir"`
	DataDir                              any                         `cfg:"dataDir"`
	LayoutDir                            any                         `cfg:"layoutDir"`
	I18nDir                              any                         `cfg:"i18nDir"`
	ArchetypeDir                         any                         `cfg:"archetypeDir"`
	Social                               any                         `cfg:"social"`
	Build                                any                         `cfg:"build"`
	Caches                               any                         `cfg:"caches"`
	HTTPCache                            any                         `cfg:"httpCache"`
	ContentTypes                         any                         `cfg:"contentTypes"`
	MediaTypes                           any                         `cfg:"mediaTypes"`
	Imaging                              any                         `cfg:"imaging"`
	OutputFormats                        map[string]outputFormatKeys `cfg:"outputFormats"`
	Versions                             any                         `cfg:"versions"`
	Roles                                any                         `cfg:"roles"`
	Outputs                              map[string]stringsKey       `cfg:"outputs"`
	Cascade                              any                         `cfg:"cascade"`
	Segments                             any                         `cfg:"segments"`
	Deployment                           any                         `cfg:"deployment"`
	Minify                               any                         `cfg:"minify"`
	Sitemap                              any                         `cfg:"sitemap"`
	Related                              any                         `cfg:"related"`
	Server                               any                         `cfg:"server"`
	Page                                 any                         `cfg:"page"`
	Privacy                              any                         `cfg:"privacy"`
	Security                             *securityKeys               `cfg:"security,open"`
}

// The tables of folio's config.toml before Hugo sites.
type feedKeys struct {
	Limit *int `cfg:"limit"`
}

type apiKeys struct {
	PageSize *int `cfg:"pageSize"`
}

type cacheKeys struct {
	MaxAge *int `cfg:"maxAge"`
}

// folioKeys are the [folio] table (params.folio in a Hugo config): folio's
// settings that Hugo has no key for.
type folioKeys struct {
	Section   *string `cfg:"section"`
	SiteDir   *string `cfg:"siteDir"`
	PageSize  *int    `cfg:"pageSize"`
	MaxAge    *int    `cfg:"maxAge"`
	FeedLimit *int    `cfg:"feedLimit"`
	// Agents is what the site tells AI crawlers and agents, read by
	// agents.ParsePolicy.
	Agents map[string]any `cfg:"agents"`
}

// securityKeys are Hugo's security policy, of which folio reads
// enableInlineShortcodes (either it or the root's turns them on, as in
// Hugo 0.165).
type securityKeys struct {
	EnableInlineShortcodes *bool `cfg:"enableInlineShortcodes"`
}

type servicesKeys struct {
	RSS *struct {
		Limit *int `cfg:"limit"`
	} `cfg:"rss"`
}

type paginationKeys struct {
	PagerSize      *int    `cfg:"pagerSize"`
	Path           *string `cfg:"path"`
	DisableAliases *bool   `cfg:"disableAliases"`
}

type frontmatterKeys struct {
	Date        []string `cfg:"date"`
	Lastmod     []string `cfg:"lastmod"`
	PublishDate []string `cfg:"publishDate"`
	ExpiryDate  []string `cfg:"expiryDate"`
}

type moduleKeys struct {
	Mounts []mountKeys `cfg:"mounts"`
}

type mountKeys struct {
	Source       string `cfg:"source"`
	Target       string `cfg:"target"`
	Lang         string `cfg:"lang"`
	Sites        any    `cfg:"sites"`
	Files        any    `cfg:"files"`
	IncludeFiles any    `cfg:"includeFiles"`
	ExcludeFiles any    `cfg:"excludeFiles"`
	DisableWatch any    `cfg:"disableWatch"`
}

// menuKeys is one menu: its entries.
type menuKeys []menuEntryKeys

type menuEntryKeys struct {
	Identifier string         `cfg:"identifier"`
	Parent     string         `cfg:"parent"`
	Name       string         `cfg:"name"`
	Pre        string         `cfg:"pre"`
	Post       string         `cfg:"post"`
	URL        string         `cfg:"url"`
	PageRef    string         `cfg:"pageRef"`
	Weight     int            `cfg:"weight"`
	Title      string         `cfg:"title"`
	Params     map[string]any `cfg:"params"`
}

// outputFormatKeys is one of outputFormats: folio reads RSS's base name.
type outputFormatKeys struct {
	BaseName       string `cfg:"baseName"`
	MediaType      any    `cfg:"mediaType"`
	Path           any    `cfg:"path"`
	Rel            any    `cfg:"rel"`
	Protocol       any    `cfg:"protocol"`
	IsPlainText    any    `cfg:"isPlainText"`
	IsHTML         any    `cfg:"isHTML"`
	NoUgly         any    `cfg:"noUgly"`
	Ugly           any    `cfg:"ugly"`
	NotAlternative any    `cfg:"notAlternative"`
	Permalinkable  any    `cfg:"permalinkable"`
	Weight         any    `cfg:"weight"`
	Root           any    `cfg:"root"`
	NoAlternative  any    `cfg:"noAlternative"`
	Name           any    `cfg:"name"`
}
