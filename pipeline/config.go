package pipeline

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // timeZone must work on hosts without a zoneinfo database
	"unicode"

	"github.com/BurntSushi/toml"
)

// Config is the site configuration, read from config.toml. The zero value is
// not usable; start from DefaultConfig or LoadConfig.
type Config struct {
	BaseURL     string `toml:"baseURL"`
	Title       string `toml:"title"`
	Description string `toml:"description"`
	Language    string `toml:"language"`
	Author      string `toml:"author"`
	ContentDir  string `toml:"contentDir"`
	Section     string `toml:"section"`
	TimeZone    string `toml:"timeZone"`
	SiteDir     string `toml:"siteDir"`

	Feed   FeedConfig   `toml:"feed"`
	API    APIConfig    `toml:"api"`
	Cache  CacheConfig  `toml:"cache"`
	Markup MarkupConfig `toml:"markup"`

	// Location is TimeZone resolved; Validate sets it.
	Location *time.Location `toml:"-"`
	// BaseSet reports whether baseURL came from the file or a flag, as
	// opposed to being derived from the listen address.
	BaseSet bool `toml:"-"`
}

// FeedConfig is the [feed] table.
type FeedConfig struct {
	Limit int `toml:"limit"` // newest N items in /rss.xml; 0 = all
}

// APIConfig is the [api] table.
type APIConfig struct {
	PageSize int `toml:"pageSize"` // items per cursor page, 1..50
}

// CacheConfig is the [cache] table.
type CacheConfig struct {
	MaxAge int `toml:"maxAge"` // seconds, Cache-Control max-age for documents
}

// MarkupConfig is the [markup] table.
type MarkupConfig struct {
	Unsafe bool `toml:"unsafe"` // pass raw HTML in posts through
}

// ReadsLike reports whether c reads a content folder as o does: the same
// folder, section and time zone, so that posts parsed under one are the
// posts of the other.
func (c *Config) ReadsLike(o *Config) bool {
	return c.ContentDir == o.ContentDir && c.Section == o.Section && c.TimeZone == o.TimeZone
}

// MaxPageSize is the largest cursor page the API serves.
const MaxPageSize = 50

// DefaultConfig returns the built-in configuration used when there is no
// config file: it serves ./content.
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
		Location:   time.UTC,
	}
}

// LoadConfig reads the TOML file at path over the defaults. Relative paths in
// the file (contentDir, siteDir) are made relative to the file's folder. An
// unknown key or a value of the wrong type is an error naming the key.
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

// typeErr matches BurntSushi/toml's error for a value of the wrong type,
// which it only gives as text: `toml: line 4 (last key "feed.limit"): …`.
var typeErr = regexp.MustCompile(`^toml: (?:line (\d+) )?\(last key "([^"]*)"\): (.*)$`)

// ParseConfig decodes TOML data over the defaults and validates the result.
// name is used in error messages, which give the line of the key at fault
// when it is known: "config.toml:7: unknown key titel (did you mean …)".
func ParseConfig(data []byte, name string) (*Config, error) {
	cfg := DefaultConfig()
	md, err := toml.Decode(string(data), cfg)
	if err != nil {
		return nil, decodeError(err, data, name)
	}
	if keys := md.Undecoded(); len(keys) > 0 {
		return nil, unknownKeysError(name, data, keys)
	}
	cfg.BaseSet = cfg.BaseURL != ""
	if err := cfg.Validate(); err != nil {
		var fe *fieldError
		if errors.As(err, &fe) {
			if line := locateKeys(data).line[strings.ToLower(fe.key)]; line > 0 {
				return nil, fmt.Errorf("%s:%d: %w", name, line, err)
			}
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return cfg, nil
}

// decodeError gives a syntax error or a value of the wrong type its line.
func decodeError(err error, data []byte, name string) error {
	var perr toml.ParseError
	if errors.As(err, &perr) {
		return fmt.Errorf("%s:%d: %s", name, perr.Position.Line, perr.Message)
	}
	m := typeErr.FindStringSubmatch(err.Error())
	if m == nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	line, msg := m[1], typeMessage(m[3])
	if line == "" {
		if n := locateKeys(data).line[strings.ToLower(m[2])]; n > 0 {
			line = strconv.Itoa(n)
		}
	}
	if line == "" {
		return fmt.Errorf("%s: %s: %s", name, m[2], msg)
	}
	return fmt.Errorf("%s:%s: %s: %s", name, line, m[2], msg)
}

// incompatible is the TOML library's wording for a value of the wrong type.
var incompatible = regexp.MustCompile(`^incompatible types: TOML value has type (\S+); destination has type (\S+)$`)

// typeMessage says a wrong type in the author's terms: "must be an
// integer, not a string" rather than the library's "destination has type".
func typeMessage(msg string) string {
	m := incompatible.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	return "must be " + article(m[2]) + ", not " + article(m[1])
}

// article names a type with its article, TOML's names for Go's composites.
func article(noun string) string {
	switch {
	case strings.HasPrefix(noun, "map["):
		noun = "table"
	case strings.HasPrefix(noun, "[]"):
		noun = "array"
	case strings.HasPrefix(noun, "int"), strings.HasPrefix(noun, "uint"):
		noun = "integer"
	case strings.HasPrefix(noun, "float"):
		noun = "float"
	}
	if strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
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
var ReservedSections = []string{"api", "sdk", "static", "_folio", "healthz", "rss.xml", "llms.txt", "sitemap.xml", "openapi.json", "404.html", "index.html"}

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
	c.Section = strings.Trim(c.Section, "/")
	if c.Section == "" || strings.ContainsAny(c.Section, "/\\?#%{}") || c.Section == "." || c.Section == ".." ||
		strings.IndexFunc(c.Section, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return badField("section", "section %q must be one plain path segment (no spaces, braces, / \\ ? # or %%)", c.Section)
	}
	if reservedSection(c.Section) {
		return badField("section", "section %q is taken by one of folio's own routes (%s)", c.Section, strings.Join(ReservedSections, ", "))
	}
	if c.API.PageSize < 1 || c.API.PageSize > MaxPageSize {
		return badField("api.pageSize", "api.pageSize %d must be between 1 and %d", c.API.PageSize, MaxPageSize)
	}
	if c.Feed.Limit < 0 {
		return badField("feed.limit", "feed.limit %d must not be negative", c.Feed.Limit)
	}
	if c.Cache.MaxAge < 0 {
		return badField("cache.maxAge", "cache.maxAge %d must not be negative", c.Cache.MaxAge)
	}
	loc, err := time.LoadLocation(c.TimeZone)
	if err != nil {
		return badField("timeZone", "timeZone %q: %v", c.TimeZone, err)
	}
	c.Location = loc
	return nil
}

// AbsURL joins a site-relative path ("blog/x/") to the base URL. The path
// must already be escaped.
func (c *Config) AbsURL(path string) string {
	return c.BaseURL + strings.TrimPrefix(path, "/")
}
