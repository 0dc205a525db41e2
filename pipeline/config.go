package pipeline

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"
	_ "time/tzdata" // timeZone must work on hosts without a zoneinfo database
	"unicode"

	"folio/agents"
)

// Config is the site configuration: folio's config.toml, or a Hugo site's
// configuration as Hugo finds and merges it (LoadSite). The zero value is
// not usable; start from DefaultConfig, LoadConfig or LoadSite.
type Config struct {
	BaseURL     string
	Title       string
	Description string // folio's description, else Hugo's params.description
	Language    string // folio's language, else Hugo's locale (languageCode)
	Author      string // folio's author, else Hugo's params.author (or author.name)
	ContentDir  string
	// Section is the posts' section, when folio's section names it. A
	// Hugo site names its main sections in MainSections instead (or
	// leaves them to the snapshot: the section with the most pages).
	Section  string
	TimeZone string
	SiteDir  string

	Feed   FeedConfig
	API    APIConfig
	Cache  CacheConfig
	Markup MarkupConfig
	// Agents is what robots.txt, Content-Signal and llms-full.txt say to
	// crawlers and agents ([folio.agents]).
	Agents agents.Policy

	// Location is TimeZone resolved; Validate sets it.
	Location *time.Location
	// BaseSet reports whether baseURL came from the file or a flag, as
	// opposed to being derived from the listen address.
	BaseSet bool
	// HostlessBase is a Hugo baseURL that was only a path ("/", "/blog/"),
	// served on the address as with none, its path kept: "" for any other.
	HostlessBase string

	// The Hugo site: what Hugo's configuration says about pages and
	// URLs, with Hugo's defaults (hugo.go).
	SiteConfig
}

// FeedConfig is the [feed] table.
type FeedConfig struct {
	Limit int // newest N items in /rss.xml; 0 = all
}

// APIConfig is the [api] table.
type APIConfig struct {
	PageSize int // items per cursor page, 1..50
}

// CacheConfig is the [cache] table.
type CacheConfig struct {
	MaxAge int // seconds, Cache-Control max-age for documents
}

// ReadsLike reports whether c reads a content folder as o does: the same
// folder, section, time zone, languages, taxonomies, front matter dates
// and markup (descriptions are rendered summaries), so that posts parsed
// under one are the posts of the other.
func (c *Config) ReadsLike(o *Config) bool {
	return c.ContentDir == o.ContentDir && c.Section == o.Section && c.TimeZone == o.TimeZone &&
		c.Source == o.Source && c.SiteConfig.readsLike(&o.SiteConfig) && reflect.DeepEqual(c.Markup, o.Markup)
}

// SetContent makes dir (a path as the user gave it, --content) the
// content folder. Inside the site's folder it replaces the content
// mount; elsewhere the content folder is all the snapshot reads, as with
// folio's own config.
func (c *Config) SetContent(dir string) {
	c.ContentDir = dir
	if c.Source != "" {
		if rel, err := filepath.Rel(c.Source, dir); err == nil && filepath.IsLocal(rel) {
			var mounts []Mount
			for _, m := range c.Mounts {
				if m.Target != "content" || m.Lang != "" {
					mounts = append(mounts, m)
				}
			}
			c.Mounts = append(mounts, Mount{Source: filepath.ToSlash(rel), Target: "content"})
			return
		}
	}
	c.Source = ""
	c.Mounts = []Mount{{Source: ".", Target: "content"}}
	if c.ignoreRoot != "" {
		// ignoreFiles match a file's absolute path, now below dir.
		if abs, err := filepath.Abs(dir); err == nil {
			c.ignoreRoot = filepath.ToSlash(abs)
		}
	}
}

// ReadsContentDir reports whether the snapshot reads ContentDir. A
// Hugo site whose module.mounts mount content reads those and not
// content/ (Hugo 0.165 then adds no default content mount), so its
// content/ may well be missing: git keeps no empty folder.
func (c *Config) ReadsContentDir() bool {
	if c.Source == "" {
		return true
	}
	rel, err := filepath.Rel(c.Source, c.ContentDir)
	if err != nil {
		return true
	}
	rel = filepath.ToSlash(rel)
	for _, m := range c.Mounts {
		if m.Target == "content" && path.Clean(m.Source) == rel {
			return true
		}
	}
	return false
}

// MountSources are the folders the snapshot reads, relative to Root:
// what a rescan reads again.
func (c *Config) MountSources() []string {
	var out []string
	for _, m := range c.Mounts {
		if !slices.Contains(out, m.Source) {
			out = append(out, m.Source)
		}
	}
	return out
}

// MaxPageSize is the largest cursor page the API serves.
const MaxPageSize = 50

// DefaultConfig returns the built-in configuration used when there is no
// config file: it serves ./content, whose posts are in content/blog/.
func DefaultConfig() *Config {
	return &Config{
		Title:      "folio",
		Language:   "en",
		ContentDir: "content",
		Section:    "blog",
		TimeZone:   "UTC",
		Feed:       FeedConfig{Limit: 20},
		API:        APIConfig{PageSize: MaxPageSize},
		Cache:      CacheConfig{MaxAge: 300},
		Markup:     DefaultMarkup(),
		Agents:     agents.DefaultPolicy(),
		Location:   time.UTC,
		SiteConfig: legacySite(),
	}
}

// legacySite is Hugo's defaults for folio's own config, which is read
// with the content folder as the FS: the content is mounted at its root,
// and there are no static or assets folders.
func legacySite() SiteConfig {
	s := defaultSite()
	s.Mounts = []Mount{{Source: ".", Target: "content"}}
	s.sectionIndexIsPost = true
	return s
}

// LoadConfig reads folio's config.toml at path over the defaults (see
// ParseConfig). Relative paths in the file (contentDir, siteDir) are made
// relative to the file's folder.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	cfg, err := ParseConfig(data, path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	cfg.ContentDir = joinRel(dir, cfg.ContentDir)
	cfg.SiteDir = joinRel(dir, cfg.SiteDir)
	return cfg, nil
}

func joinRel(dir, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// legacyKeys are the keys of folio's config.toml as it was before Hugo
// sites: all that ParseConfig accepts.
type legacyKeys struct {
	BaseURL     string `cfg:"baseURL"`
	Title       string `cfg:"title"`
	Description string `cfg:"description"`
	Language    string `cfg:"language"`
	Author      string `cfg:"author"`
	ContentDir  string `cfg:"contentDir"`
	Section     string `cfg:"section"`
	TimeZone    string `cfg:"timeZone"`
	SiteDir     string `cfg:"siteDir"`
	Feed        struct {
		Limit *int `cfg:"limit"`
	} `cfg:"feed"`
	API struct {
		PageSize *int `cfg:"pageSize"`
	} `cfg:"api"`
	Cache struct {
		MaxAge *int `cfg:"maxAge"`
	} `cfg:"cache"`
	Markup struct {
		Unsafe bool `cfg:"unsafe"`
	} `cfg:"markup"`
	Folio struct {
		Agents map[string]any `cfg:"agents"`
	} `cfg:"folio,own,closed"`
}

// ParseConfig decodes folio's own config.toml format over the defaults and
// validates the result, strictly: a key that format does not have is an
// error, as is a value of the wrong type. (LoadSite reads the same file as
// Hugo's config, where an unknown key is a warning.) name is used in error
// messages, which give the line of the key at fault when it is known:
// "config.toml:7: unknown key titel (did you mean …)".
func ParseConfig(data []byte, name string) (*Config, error) {
	f, err := readConfigAs(name, "toml", data)
	if err != nil {
		return nil, err
	}
	raw := newRawConfig()
	raw.merge(f, nil)
	keys := legacyKeys{}
	d := &configDecoder{raw: raw}
	d.decodeTable(nil, raw.m, reflect.ValueOf(&keys).Elem(), true, false, false)
	if issue := d.firstIssue(d.typeErrs); issue != nil {
		return nil, errors.New(issue.String())
	}
	if len(d.unknown) > 0 {
		sortUnknown(d.unknown, schemaOf(reflect.TypeFor[legacyKeys]()), raw.header, raw.files)
		return nil, unknownKeysError(d.unknown)
	}
	cfg := DefaultConfig()
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&cfg.BaseURL, keys.BaseURL)
	set(&cfg.Title, keys.Title)
	set(&cfg.Description, keys.Description)
	set(&cfg.Language, keys.Language)
	set(&cfg.Author, keys.Author)
	set(&cfg.ContentDir, keys.ContentDir)
	set(&cfg.Section, keys.Section)
	set(&cfg.TimeZone, keys.TimeZone)
	set(&cfg.SiteDir, keys.SiteDir)
	if keys.Feed.Limit != nil {
		cfg.Feed.Limit = *keys.Feed.Limit
	}
	if keys.API.PageSize != nil {
		cfg.API.PageSize = *keys.API.PageSize
	}
	if keys.Cache.MaxAge != nil {
		cfg.Cache.MaxAge = *keys.Cache.MaxAge
	}
	cfg.Markup.Unsafe = keys.Markup.Unsafe
	cfg.Markup.settle()
	cfg.BaseSet = cfg.BaseURL != ""
	if err := setAgents(cfg, keys.Folio.Agents, "folio.agents", raw); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, placeError(err, raw)
	}
	return cfg, nil
}

// setAgents reads the table under (folio.agents or params.folio.agents)
// into cfg.Agents: what robots.txt, Content-Signal and llms-full.txt say
// to crawlers and agents. Its mistakes are errors naming the key's line.
func setAgents(cfg *Config, table map[string]any, under string, raw *rawConfig) error {
	if table == nil {
		return nil
	}
	p, err := agents.ParsePolicy(table, under)
	if ke := (*agents.KeyError)(nil); errors.As(err, &ke) {
		return placeError(badField(ke.Key, "%s", ke.Msg), raw)
	}
	if err != nil {
		return err
	}
	cfg.Agents = p
	return nil
}

// placeError puts the place of the key a Validate error is about in
// front of it.
func placeError(err error, raw *rawConfig) error {
	var fe *fieldError
	if errors.As(err, &fe) {
		pos := raw.where(strings.Split(strings.ToLower(fe.key), "."))
		if pos.line > 0 {
			return fmt.Errorf("%s:%d: %w", pos.file, pos.line, err)
		}
	}
	if len(raw.files) == 0 {
		return err
	}
	return fmt.Errorf("%s: %w", raw.files[0], err)
}

// fieldError is a Validate error about one key, so that ParseConfig can
// put the key's line in front of it.
type fieldError struct {
	key string // as toml.Key.String spells it
	msg string
}

func (e *fieldError) Error() string { return e.msg }

func badField(key, format string, args ...any) error {
	return &fieldError{key: key, msg: fmt.Sprintf(format, args...)}
}

// ReservedSections are the names a section cannot take: the first
// segments of folio's own routes, and the files of a static export's root
// that a section's folder would collide with.
var ReservedSections = []string{"api", "sdk", "static", "_folio", "healthz", "rss.xml", "llms.txt", "llms-full.txt", "robots.txt", "sitemap.xml", "openapi.json", ".well-known", "index", "404.html", "index.html"}

// reservedSection reports whether name is reserved, or one of those with
// ".gz" (the export's twins), in any case (file systems that fold case).
func reservedSection(name string) bool {
	name = strings.TrimSuffix(strings.ToLower(name), ".gz")
	return slices.Contains(ReservedSections, name)
}

// Validate checks the values and resolves derived fields. It is called again
// after command-line flags override the file.
func (c *Config) Validate() error {
	if c.BaseURL != "" {
		u, err := url.Parse(c.BaseURL)
		if err != nil || !u.IsAbs() || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return badField("baseURL", "baseURL %q must be an absolute http or https URL", c.BaseURL)
		}
		if u.RawQuery != "" || u.Fragment != "" {
			return badField("baseURL", "baseURL %q must not have a query or fragment", c.BaseURL)
		}
		if !strings.HasSuffix(c.BaseURL, "/") {
			c.BaseURL += "/"
		}
	}
	if c.Section == "" {
		return c.validateSite() // a Hugo site, whose main sections the snapshot finds
	}
	c.Section = strings.Trim(c.Section, "/")
	if c.Section == "" || strings.ContainsAny(c.Section, "/\\?#%{}") || c.Section == "." || c.Section == ".." ||
		strings.IndexFunc(c.Section, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return badField("section", "section %q must be one plain path segment (no spaces, braces, / \\ ? # or %%)", c.Section)
	}
	if reservedSection(c.Section) {
		return badField("section", "section %q is taken by one of folio's own routes (%s)", c.Section, strings.Join(ReservedSections, ", "))
	}
	return c.validateSite()
}

// validateSite checks the values other than the section.
func (c *Config) validateSite() error {
	if c.API.PageSize < 1 || c.API.PageSize > MaxPageSize {
		k := c.keyName("api.pageSize")
		return badField(k, "%s %d must be between 1 and %d", k, c.API.PageSize, MaxPageSize)
	}
	if c.Feed.Limit < 0 {
		k := c.keyName("feed.limit")
		return badField(k, "%s %d must not be negative", k, c.Feed.Limit)
	}
	if c.Cache.MaxAge < 0 {
		k := c.keyName("cache.maxAge")
		return badField(k, "%s %d must not be negative", k, c.Cache.MaxAge)
	}
	loc, err := time.LoadLocation(c.TimeZone)
	if err != nil {
		return badField("timeZone", "timeZone %q: %v", c.TimeZone, err)
	}
	c.Location = loc
	return c.Markup.validate()
}

// Root is the folder the FS handed to Build is rooted at: a Hugo site's
// folder (its mounts are below it), or, for folio's own config, the
// content folder.
func (c *Config) Root() string {
	if c.Source != "" {
		return c.Source
	}
	return c.ContentDir
}

// keyName is the key a value was read from, as messages name it: legacy
// names the key of folio's config.toml ("api.pageSize"); a Hugo site may
// have set it under [folio] instead.
func (c *Config) keyName(legacy string) string {
	if k, ok := c.SiteConfig.keys[legacy]; ok {
		return k
	}
	return legacy
}

// AbsURL joins a site-relative path ("blog/x/") to the base URL. The path
// must already be escaped.
func (c *Config) AbsURL(path string) string {
	return c.BaseURL + strings.TrimPrefix(path, "/")
}
