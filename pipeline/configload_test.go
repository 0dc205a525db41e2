package pipeline

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func loadSite(t *testing.T, files map[string]string, env string) *Config {
	t.Helper()
	cfg, err := LoadSite(SiteOptions{Source: "site", Environment: env, FS: mapFS(files)})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestLoadSiteFindsTheConfig(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		title string
	}{
		{"none", map[string]string{}, "folio"},
		{"hugo.toml", map[string]string{"hugo.toml": "title = 'H'"}, "H"},
		{"hugo.yaml", map[string]string{"hugo.yaml": "title: H"}, "H"},
		{"hugo.json", map[string]string{"hugo.json": `{"title": "H"}`}, "H"},
		{"config.toml", map[string]string{"config.toml": "title = 'C'"}, "C"},
		{"config.yml", map[string]string{"config.yml": "title: C"}, "C"},
		{"hugo wins over config", map[string]string{"hugo.toml": "title = 'H'", "config.toml": "title = 'C'"}, "H"},
		{"toml wins over yaml", map[string]string{"hugo.toml": "title = 'T'", "hugo.yaml": "title: Y"}, "T"},
		{"config dir over the root file", map[string]string{"hugo.toml": "title = 'H'", "config/_default/hugo.toml": "title = 'D'"}, "D"},
		{"environment over _default", map[string]string{
			"config/_default/hugo.toml":    "title = 'D'",
			"config/production/hugo.yaml":  "title: P",
			"config/development/hugo.yaml": "title: Dev",
		}, "P"},
		{"config.toml in config/ is the root too", map[string]string{"config/_default/config.toml": "title = 'D'"}, "D"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := loadSite(t, tt.files, "production")
			if cfg.Title != tt.title {
				t.Errorf("title = %q, want %q", cfg.Title, tt.title)
			}
		})
	}
}

func TestLoadSitePerKeyFiles(t *testing.T) {
	cfg := loadSite(t, map[string]string{
		"hugo.toml":                      "title = 'Root'\n[params]\na = 1\n[params.deep]\nx = 'root'\n",
		"config/_default/params.toml":    "[deep]\ny = 'file'\n",
		"config/_default/menus.en.toml":  "[[main]]\nname = 'Home'\nurl = '/'\nweight = 2\n[[main]]\nname = 'About'\nurl = '/about/'\nweight = 1\n",
		"config/_default/languages.yaml": "en:\n  weight: 1\n  label: English\nfr:\n  weight: 2\n  title: Racine\n",
		"config/_default/params.fr.yaml": "greeting: bonjour\n",
		"config/_default/cascade.yaml":   "cascade:\n  - params:\n      x: 1\n",
		"config/production/params.json":  `{"deep": {"x": "prod"}}`,
	}, "production")
	if cfg.Title != "Root" {
		t.Errorf("title = %q", cfg.Title)
	}
	want := map[string]any{"a": int64(1), "deep": map[string]any{"x": "prod", "y": "file"}}
	if !reflect.DeepEqual(cfg.Params, want) {
		t.Errorf("params = %#v, want %#v", cfg.Params, want)
	}
	if got := codes(cfg.Languages); !slices.Equal(got, []string{"en", "fr"}) {
		t.Fatalf("languages = %v", got)
	}
	en, fr := cfg.Lang("en"), cfg.Lang("fr")
	if !en.Default || en.Label != "English" || fr.Title != "Racine" || en.Title != "Root" {
		t.Errorf("languages = %+v", cfg.Languages)
	}
	if fr.Params["greeting"] != "bonjour" || fr.Params["a"] != int64(1) || en.Params["greeting"] != nil {
		t.Errorf("language params: en %v, fr %v", en.Params, fr.Params)
	}
	if names := entryNames(en.Menus["main"]); !slices.Equal(names, []string{"About", "Home"}) {
		t.Errorf("en main menu = %v, want weight order", names)
	}
	if len(fr.Menus["main"]) != 0 {
		t.Errorf("fr has en's menu: %v", fr.Menus)
	}
	if !slices.Contains(cfg.ConfigFiles, "site/config/_default/params.fr.yaml") {
		t.Errorf("config files = %v", cfg.ConfigFiles)
	}
}

func codes(langs []Language) []string {
	var out []string
	for _, l := range langs {
		out = append(out, l.Code)
	}
	return out
}

func entryNames(entries []MenuEntry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Name)
	}
	return out
}

func TestLoadSiteHugoKeys(t *testing.T) {
	cfg := loadSite(t, map[string]string{"hugo.yaml": `
baseURL: https://example.org/blog
title: T
locale: fr-FR
timeZone: Europe/Paris
mainSections: [posts, notes]
summaryLength: 30
uglyURLs: true
disablePathToLower: true
disableKinds: [Taxonomy, term]
paginate: 99
pagination:
  pagerSize: 4
  path: seite
services:
  rss:
    limit: 7
  googleAnalytics:
    id: G-1
taxonomies:
  tag: tags
  series: series
permalinks:
  posts: /:year/:slug/
  section:
    posts: /articles/
params:
  description: About things
  author: {name: Ada}
frontmatter:
  date: [":filename", ":default"]
markup:
  goldmark:
    renderer:
      unsafe: true
      hardWraps: true
  highlight:
    style: dracula
    lineNos: table
    noClasses: false
menu:
  main:
    - {name: Home, url: /}
staticDir: [static, extra]
`}, "production")
	checks := []struct {
		name      string
		got, want any
	}{
		{"baseURL", cfg.BaseURL, "https://example.org/blog/"},
		{"language", cfg.Language, "fr-FR"},
		{"location", cfg.Location.String(), "Europe/Paris"},
		{"description", cfg.Description, "About things"},
		{"author", cfg.Author, "Ada"},
		{"main sections", cfg.MainSections, []string{"posts", "notes"}},
		{"section", cfg.Section, ""},
		{"summary length", cfg.SummaryLength, 30},
		{"ugly", cfg.UglyURLs.For("x"), true},
		{"lower", cfg.DisablePathToLower, true},
		{"kinds", cfg.DisableKinds, map[string]bool{"taxonomy": true, "term": true}},
		{"pagination", cfg.Pagination, Pagination{PagerSize: 4, Path: "seite"}},
		{"rss", cfg.RSSLimit, 7},
		{"taxonomies", cfg.Taxonomies, []Taxonomy{{"series", "series"}, {"tag", "tags"}}},
		{"permalinks", cfg.Permalinks, Permalinks{
			{Kind: "page", Path: "/{posts,posts/**}", Pattern: "/:year/:slug/"},
			{Kind: "term", Path: "/{posts,posts/**}", Pattern: "/:year/:slug/"},
			{Kind: "section", Path: "/{posts,posts/**}", Pattern: "/articles/"},
		}},
		{"frontmatter date", cfg.Frontmatter.Date, []string{":filename", ":default"}},
		{"frontmatter lastmod", cfg.Frontmatter.Lastmod, defaultFrontmatter().Lastmod},
		{"unsafe", cfg.Markup.Unsafe, true},
		{"hard wraps", cfg.Markup.Goldmark.Renderer.HardWraps, true},
		{"style", cfg.Markup.Highlight.Style, "dracula"},
		{"line numbers", [3]bool{cfg.Markup.Highlight.LineNos, cfg.Markup.Highlight.LineNumbersInTable, cfg.Markup.Highlight.NoClasses}, [3]bool{true, true, false}},
		{"typographer default", cfg.Markup.Goldmark.Extensions.Typographer.EmDash, "&mdash;"},
		{"menu renamed", entryNames(cfg.Menus["main"]), []string{"Home"}},
		{"mounts", cfg.Mounts, []Mount{{Source: "content", Target: "content"}, {Source: "static", Target: "static"}, {Source: "extra", Target: "static"}, {Source: "assets", Target: "assets"}}},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.name, c.got, c.want)
		}
	}
	if len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0].Message, "unknown key paginate (Hugo 0.165 ignores it: set pagination.pagerSize)") || cfg.Warnings[0].Severity != Warning ||
		cfg.Warnings[0].Path != "site/hugo.yaml" || cfg.Warnings[0].Line != 11 {
		t.Errorf("warnings = %v", cfg.Warnings)
	}
}

func TestLoadSiteFolioSettings(t *testing.T) {
	tests := []struct {
		name, file, src string
		section         string
		pageSize        int
		maxAge          int
		feed            int
	}{
		{"defaults", "hugo.toml", "title = 'x'", "", 50, 300, 20},
		{"folio table", "hugo.toml", "[folio]\nsection = 'notes'\npageSize = 10\nmaxAge = 60\nfeedLimit = 5\n", "notes", 10, 60, 5},
		{"params.folio", "hugo.yaml", "params:\n  folio:\n    pageSize: 7\n", "", 7, 300, 20},
		{"folio's config.toml", "config.toml", "section = 'blog'\n[api]\npageSize = 9\n[cache]\nmaxAge = 1\n[feed]\nlimit = 0\n", "blog", 9, 1, 0},
		{"folio wins over the old tables", "hugo.toml", "[api]\npageSize = 9\n[folio]\npageSize = 8\n", "", 8, 300, 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := loadSite(t, map[string]string{tt.file: tt.src}, "production")
			if cfg.Section != tt.section || cfg.API.PageSize != tt.pageSize || cfg.Cache.MaxAge != tt.maxAge || cfg.Feed.Limit != tt.feed {
				t.Errorf("section %q, pageSize %d, maxAge %d, feed %d", cfg.Section, cfg.API.PageSize, cfg.Cache.MaxAge, cfg.Feed.Limit)
			}
			if len(cfg.Warnings) > 0 {
				t.Errorf("warnings: %v", cfg.Warnings)
			}
		})
	}
}

// TestLoadSiteReadsFolioConfigAsParseConfig: folio's own config.toml means
// the same to LoadSite as to ParseConfig.
func TestLoadSiteReadsFolioConfigAsParseConfig(t *testing.T) {
	src := "baseURL = 'https://example.org/'\ntitle = 'T'\ndescription = 'D'\nlanguage = 'de'\nauthor = 'A'\n" +
		"contentDir = 'posts'\nsection = 'notes'\ntimeZone = 'Europe/Berlin'\nsiteDir = 'theme'\n" +
		"[feed]\nlimit = 3\n[api]\npageSize = 4\n[cache]\nmaxAge = 5\n[markup]\nunsafe = true\n"
	want, err := ParseConfig([]byte(src), "config.toml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadSite(SiteOptions{FS: fstest.MapFS{"config.toml": {Data: []byte(src)}}})
	if err != nil {
		t.Fatal(err)
	}
	got := []any{cfg.BaseURL, cfg.Title, cfg.Description, cfg.Language, cfg.Author, cfg.Section, cfg.Location.String(), cfg.Feed, cfg.API, cfg.Cache, cfg.Markup.Unsafe}
	exp := []any{want.BaseURL, want.Title, want.Description, want.Language, want.Author, want.Section, want.Location.String(), want.Feed, want.API, want.Cache, want.Markup.Unsafe}
	if !reflect.DeepEqual(got, exp) {
		t.Errorf("LoadSite = %v\nParseConfig = %v", got, exp)
	}
	if cfg.ContentDir != "posts" || cfg.SiteDir != "theme" || len(cfg.Warnings) > 0 {
		t.Errorf("contentDir %q, siteDir %q, warnings %v", cfg.ContentDir, cfg.SiteDir, cfg.Warnings)
	}
}

func TestLoadSiteMessages(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		err   string // the error, or "" for none
		warn  []string
	}{
		{"unknown key warns", map[string]string{"hugo.toml": "title = 'x'\ntitel = 'y'\n"}, "",
			[]string{`site/hugo.toml:2: warning: unknown key titel (did you mean "title"?)`}},
		{"unknown nested key warns", map[string]string{"hugo.toml": "[markup.highlight]\nstyel = 'x'\n"}, "",
			[]string{`site/hugo.toml:2: warning: unknown key markup.highlight.styel (did you mean "markup.highlight.style"?)`}},
		{"yaml lines", map[string]string{"hugo.yaml": "title: x\npagination:\n  pagersise: 3\n"}, "",
			[]string{`site/hugo.yaml:3: warning: unknown key pagination.pagersise (did you mean "pagination.pagerSize"?)`}},
		{"json lines", map[string]string{"hugo.json": "{\n  \"title\": \"x\",\n  \"colour\": \"red\"\n}\n"}, "",
			[]string{`site/hugo.json:3: warning: unknown key colour`}},
		{"per-key file", map[string]string{"config/_default/pagination.toml": "pagerSise = 3\n"}, "",
			[]string{`site/config/_default/pagination.toml:1: warning: unknown key pagination.pagerSise (did you mean "pagination.pagerSize"?)`}},
		{"Hugo's keys are not warnings", map[string]string{"hugo.toml": "buildDrafts = true\nenableGitInfo = true\n[outputs]\nhome = ['HTML']\n[security.funcs]\ngetenv = ['^HUGO_']\n[imaging]\nquality = 80\n[params]\nanything = 1\n[services.disqus]\nshortname = 'x'\n[module]\n[[module.imports]]\npath = 'x'\n[markup]\n_merge = 'deep'\n", "themes/x/theme.toml": ""}, "", nil},
		{"yaml key set twice", map[string]string{"hugo.yaml": "title: x\nparams:\n  hours: mon\n  hours: tue\n"},
			`site/hugo.yaml:4: hours: set twice (first on line 3)`, nil},
		{"per-key yaml key set twice", map[string]string{"config/_default/params.yaml": "a: 1\na: 2\n"},
			`site/config/_default/params.yaml:2: a: set twice (first on line 1)`, nil},
		{"unknown under [folio] is an error", map[string]string{"hugo.toml": "[folio]\npageSise = 3\n"},
			`site/hugo.toml:2: unknown key folio.pageSise (did you mean "folio.pageSize"?)`, nil},
		{"unknown under params.folio is an error", map[string]string{"hugo.yaml": "params:\n  folio:\n    maxage: 1\n    sektion: x\n"},
			`site/hugo.yaml:4: unknown key params.folio.sektion (did you mean "params.folio.section"?)`, nil},
		{"wrong type", map[string]string{"hugo.toml": "title = 'x'\n[pagination]\npagerSize = 'ten'\n"},
			`site/hugo.toml:3: pagination.pagerSize: must be an integer, not a string`, nil},
		{"folio's own are strict", map[string]string{"hugo.toml": "[folio]\npageSize = '10'\n"},
			`site/hugo.toml:2: folio.pageSize: must be an integer, not a string`, nil},
		{"Hugo's are lenient", map[string]string{"hugo.toml": "[pagination]\npagerSize = '10'\n"}, "", nil},
		{"bad value names the folio key", map[string]string{"hugo.toml": "[folio]\npageSize = 0\n"},
			`site/hugo.toml:2: folio.pageSize 0 must be between 1 and 50`, nil},
		{"syntax error", map[string]string{"hugo.yaml": "title: x\nparams: [\n"}, "site/hugo.yaml:", nil},
		{"unknown default language", map[string]string{"hugo.toml": "defaultContentLanguage = 'de'\n[languages.en]\n"},
			`site/hugo.toml:1: defaultContentLanguage "de" is not one of the languages`, nil},
		{"passthrough delimiter that is not a pair", map[string]string{"hugo.toml": passthroughConfig("block = [['$$', '$$']]\ninline = [['$']]")},
			`site/hugo.toml:5: markup.goldmark.extensions.passthrough.delimiters.inline: entry 1 is ["$"]: a pair of delimiters is [open, close], neither empty`, nil},
		{"passthrough delimiter empty", map[string]string{"hugo.yaml": "markup:\n  goldmark:\n    extensions:\n      passthrough:\n        enable: true\n        delimiters:\n          block:\n            - ['$$', '$$']\n            - ['', ']']\n"},
			`site/hugo.yaml:7: markup.goldmark.extensions.passthrough.delimiters.block: entry 2 is ["" "]"]`, nil},
		{"passthrough off: its delimiters are not read", map[string]string{"hugo.toml": strings.Replace(passthroughConfig("inline = [['$']]"), "true", "false", 1)}, "", nil},
		{"passthrough: a third string is ignored, as in Hugo", map[string]string{"hugo.toml": passthroughConfig("inline = [['$', '$', 'x']]")}, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := LoadSite(SiteOptions{Source: "site", FS: mapFS(tt.files)})
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range cfg.Warnings {
				got = append(got, w.String())
			}
			if !slices.Equal(got, tt.warn) {
				t.Errorf("warnings:\n%q\nwant:\n%q", got, tt.warn)
			}
		})
	}
}

// passthroughConfig is a hugo.toml enabling the passthrough extension
// with delimiters (TOML lines), the first of them on line 4.
func passthroughConfig(delimiters string) string {
	return "[markup.goldmark.extensions.passthrough]\nenable = true\n[markup.goldmark.extensions.passthrough.delimiters]\n" + delimiters + "\n"
}

// TestThemes: the theme folders are Hugo's imports in its order of
// precedence, module.imports then theme (a name or a list), each from
// _vendor/ when vendored, else under themesDir; one that is missing or
// empty is a warning at the key that names it, since its shortcodes are
// then missing.
func TestThemes(t *testing.T) {
	const missing = "is missing or empty (a git submodule not checked out? git submodule update --init); without it, its shortcodes, partials, render hooks, i18n and data are missing"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
		warn  []string
	}{
		{"a name", map[string]string{"hugo.toml": "theme = 'PaperMod'\n", "themes/PaperMod/theme.toml": ""},
			[]string{"themes/PaperMod"}, nil},
		{"a list under themesDir", map[string]string{"hugo.toml": "theme = ['a', 'b']\nthemesDir = 'vendor'\n", "vendor/a/x": "", "vendor/b/x": ""},
			[]string{"vendor/a", "vendor/b"}, nil},
		{"none", map[string]string{"hugo.toml": "title = 'none'\n"}, nil, nil},
		{"imports first, then theme", map[string]string{
			"hugo.toml":                        "theme = 'PaperMod'\n[[module.imports]]\npath = 'hugo-coder'\n[[module.imports]]\npath = 'off'\ndisable = true\n",
			"themes/PaperMod/theme.toml":       "",
			"themes/hugo-coder/layouts/x.html": "",
		}, []string{"themes/hugo-coder", "themes/PaperMod"}, nil},
		{"a vendored module", map[string]string{
			"hugo.yaml": "module:\n  imports:\n    - path: github.com/imfing/hextra\n",
			"_vendor/github.com/imfing/hextra/layouts/x.html": "",
			"_vendor/modules.txt":                             "# github.com/imfing/hextra v0.9.0\n",
		}, []string{"_vendor/github.com/imfing/hextra"}, nil},
		{"one import table, not a list", map[string]string{"hugo.yaml": "module:\n  imports:\n    path: comp\n", "themes/comp/x": ""},
			[]string{"themes/comp"}, nil},
		{"disable written as text", map[string]string{"hugo.toml": "[[module.imports]]\npath = 'off'\ndisable = 'true'\n[[module.imports]]\npath = 'on'\ndisable = 0\n", "themes/on/x": ""},
			[]string{"themes/on"}, nil},
		{"a theme's own imports, depth first", map[string]string{
			"hugo.toml":             "theme = ['base', 'last']\n",
			"themes/base/hugo.toml": "[[module.imports]]\npath = 'comp'\n",
			"themes/comp/config/_default/module.yaml": "imports:\n  - path: deep\n  - path: base\n", // a cycle back: once
			"themes/deep/x": "",
			"themes/last/x": "",
		}, []string{"themes/base", "themes/comp", "themes/deep", "themes/last"}, nil},
		{"ignoreImports", map[string]string{
			"hugo.toml":             "[[module.imports]]\npath = 'base'\nignoreImports = true\n",
			"themes/base/hugo.toml": "[[module.imports]]\npath = 'comp'\n",
		}, []string{"themes/base"}, nil},
		{"a _vendor folder modules.txt does not list", map[string]string{
			"hugo.toml":                             "[[module.imports]]\npath = 'github.com/x/y'\n",
			"_vendor/github.com/x/y/layouts/x.html": "",
			"themes/github.com/x/y/layouts/x.html":  "",
		}, []string{"themes/github.com/x/y"}, nil},
		{"a theme not checked out", map[string]string{"hugo.toml": "title = 'x'\ntheme = 'congo'\n"},
			[]string{"themes/congo"}, []string{`site/hugo.toml:2: warning: theme "congo": themes/congo ` + missing}},
		{"a module never vendored", map[string]string{"hugo.yaml": "module:\n  imports:\n    - path: github.com/imfing/hextra\n"},
			[]string{"themes/github.com/imfing/hextra"}, []string{`site/hugo.yaml:2: warning: module "github.com/imfing/hextra": neither _vendor/github.com/imfing/hextra nor themes/github.com/imfing/hextra is there, and folio downloads no Hugo module (hugo mod vendor copies it into _vendor/); without it, its shortcodes, partials, render hooks, i18n and data are missing`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := LoadSite(SiteOptions{Source: "site", FS: mapFS(tc.files)})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(cfg.Themes, tc.want) {
				t.Errorf("themes %q, want %q", cfg.Themes, tc.want)
			}
			var warn []string
			for _, w := range cfg.Warnings {
				warn = append(warn, w.String())
			}
			if !slices.Equal(warn, tc.warn) {
				t.Errorf("warnings:\n%q\nwant:\n%q", warn, tc.warn)
			}
		})
	}
}

// TestWeakNumbers: a Hugo key that wants an integer reads what Hugo's
// weak decoding reads (mapstructure.WeakDecode): an empty string as 0 (a
// FixIt site's menu weight = ""), a boolean as 0 or 1, a float cut to
// its integer part. folio's own keys stay strict.
func TestWeakNumbers(t *testing.T) {
	cfg, err := LoadSite(SiteOptions{Source: "site", FS: mapFS(map[string]string{"hugo.toml": "" +
		"[[menus.main]]\nname = 'a'\nurl = '/a/'\nweight = ''\n" +
		"[[menus.main]]\nname = 'b'\nurl = '/b/'\nweight = 2.7\n" +
		"[[menus.main]]\nname = 'c'\nurl = '/c/'\nweight = true\n" +
		"[[menus.main]]\nname = 'd'\nurl = '/d/'\nweight = ' 4 '\n"})})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, e := range cfg.Menus["main"] {
		got[e.Name] = e.Weight
	}
	if want := map[string]int{"a": 0, "b": 2, "c": 1, "d": 4}; !maps.Equal(got, want) {
		t.Errorf("weights %v, want %v", got, want)
	}
	if _, err := LoadSite(SiteOptions{Source: "site", FS: mapFS(map[string]string{"hugo.toml": "[folio]\npageSize = ''\n"})}); err == nil {
		t.Error("folio.pageSize = '' was accepted; folio's own keys are strict")
	}
}

// TestLoadSiteHostlessBase: a Hugo baseURL that is only a path ("/",
// "/blog"), which Hugo accepts (its links are then root-relative), is no
// error: the base URL is unset, as with none, its path kept.
func TestLoadSiteHostlessBase(t *testing.T) {
	for _, tc := range []struct{ base, want string }{
		{"/", "http://localhost/"},
		{"/blog", "http://localhost/blog/"},
		{"/blog/", "http://localhost/blog/"},
	} {
		cfg := loadSite(t, map[string]string{"hugo.toml": "baseURL = '" + tc.base + "'"}, "production")
		if cfg.BaseURL != tc.want || cfg.BaseSet {
			t.Errorf("baseURL %q: BaseURL %q, BaseSet %v; want %q, false", tc.base, cfg.BaseURL, cfg.BaseSet, tc.want)
		}
	}
	for _, base := range []string{"//cdn.example/", "/x?y"} {
		if _, err := LoadSite(SiteOptions{Source: "site", Environment: "production", FS: mapFS(map[string]string{"hugo.toml": "baseURL = '" + base + "'"})}); err == nil {
			t.Errorf("baseURL %q: no error", base)
		}
	}
}

// TestLoadSiteNullKeys: a YAML key with no value is an empty value of its
// type, as Hugo 0.165 reads it (no taxonomies at all, the title of a
// config without one), and a table of settings keeps its defaults; it was a panic
// (yunteng9345's config.yaml). The URLs are TestSiteOracle's, fixture
// nullkeys.
func TestLoadSiteNullKeys(t *testing.T) {
	cfg, err := LoadSite(SiteOptions{FS: fstest.MapFS{"config.yaml": {Data: []byte(
		"baseURL: https://example.org/\ntitle:\ngoogleAnalytics:\nuglyURLs:\npermalinks:\ntaxonomies:\nmarkup:\nparams:\n  favicon:\n")}}})
	if err != nil {
		t.Fatal(err)
	}
	none, err := LoadSite(SiteOptions{FS: fstest.MapFS{"config.yaml": {Data: []byte("baseURL: https://example.org/\n")}}})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Title != none.Title || len(cfg.Languages[0].Taxonomies) != 0 || cfg.Markup.Goldmark.Extensions.Typographer.Disable {
		t.Errorf("title %q, taxonomies %v, typographer off %v", cfg.Title, cfg.Languages[0].Taxonomies, cfg.Markup.Goldmark.Extensions.Typographer.Disable)
	}
}
