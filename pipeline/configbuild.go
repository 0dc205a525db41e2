package pipeline

import (
	"cmp"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
)

// This file turns the decoded keys (configkeys_hugo.go) into a Config:
// Hugo's keys mapped to what folio does, folio's own settings from the
// [folio] table or the keys of folio's earlier config.toml, and each
// language's view of the settings it may override.

func (l *siteLoader) build(k *rootKeys) (*Config, error) {
	cfg := DefaultConfig()
	cfg.SiteConfig = defaultSite()
	cfg.Section = ""
	cfg.keys = map[string]string{}
	setStr := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	setStr(&cfg.BaseURL, k.BaseURL)
	cfg.BaseSet = cfg.BaseURL != ""
	if p, ok := hostlessBase(k.BaseURL); ok {
		// Hugo's links are then root-relative, wherever the site is
		// served: folio's are absolute, on the address it serves, as
		// with no baseURL (serve and dev link at its root: host's
		// ReadConfig drops the path; check and build keep it).
		cfg.BaseURL, cfg.BaseSet, cfg.HostlessBase = "http://localhost"+p, false, k.BaseURL
	}
	setStr(&cfg.Title, k.Title)
	setStr(&cfg.TimeZone, k.TimeZone)
	cfg.ContentDir = joinRel(l.src, cmp.Or(k.ContentDir, "content"))
	cfg.Description = cmp.Or(k.Description, paramString(k.Params, "description"))
	cfg.Author = cmp.Or(authorName(k.hugoKeys), "")
	l.folioSettings(cfg, k)
	if err := l.agentsPolicy(cfg, k); err != nil {
		return nil, err
	}
	if k.Markup != nil {
		cfg.Markup = *k.Markup
	}
	legacyHighlight(&cfg.Markup.Highlight, k)
	cfg.Markup.settle()
	if err := l.siteSettings(&cfg.SiteConfig, k); err != nil {
		return nil, err
	}
	if def := cfg.Lang(cfg.DefaultLanguage); def != nil {
		cfg.Language = cmp.Or(k.Language, def.Locale, def.Code)
		if def.Title != "" && k.Title == "" {
			cfg.Title = def.Title
		}
	}
	if err := cfg.Validate(); err != nil {
		return nil, placeError(err, l.raw)
	}
	return cfg, nil
}

// folioSettings reads folio's own settings: the [folio] table (or
// params.folio), else the keys of folio's earlier config.toml.
func (l *siteLoader) folioSettings(cfg *Config, k *rootKeys) {
	f := k.Folio
	if f == nil {
		f = &folioKeys{}
	}
	under := "folio."
	if _, ok := l.raw.m["folio"]; !ok {
		under = "params.folio."
	}
	pick := func(legacy string, folioKey string, fv, lv *int, dst *int) {
		switch {
		case fv != nil:
			*dst = *fv
			cfg.keys[legacy] = under + folioKey
		case lv != nil:
			*dst = *lv
		}
	}
	var feed, page, age *int
	if k.Feed != nil {
		feed = k.Feed.Limit
	}
	if k.API != nil {
		page = k.API.PageSize
	}
	if k.Cache != nil {
		age = k.Cache.MaxAge
	}
	pick("feed.limit", "feedLimit", f.FeedLimit, feed, &cfg.Feed.Limit)
	pick("api.pageSize", "pageSize", f.PageSize, page, &cfg.API.PageSize)
	pick("cache.maxAge", "maxAge", f.MaxAge, age, &cfg.Cache.MaxAge)
	cfg.Section = k.Section
	if f.Section != nil {
		cfg.Section = *f.Section
		cfg.keys["section"] = under + "section"
	}
	siteDir := k.SiteDir
	if f.SiteDir != nil {
		siteDir = *f.SiteDir
	}
	cfg.SiteDir = joinRel(l.src, siteDir)
}

// agentsPolicy reads [folio.agents] (params.folio.agents).
func (l *siteLoader) agentsPolicy(cfg *Config, k *rootKeys) error {
	if k.Folio == nil {
		return nil
	}
	under := "folio.agents"
	if _, ok := l.raw.m["folio"]; !ok {
		under = "params.folio.agents"
	}
	return setAgents(cfg, k.Folio.Agents, under, l.raw)
}

// siteSettings reads Hugo's settings.
func (l *siteLoader) siteSettings(s *SiteConfig, k *rootKeys) error {
	h := &k.hugoKeys
	if h.Params != nil {
		s.Params = h.Params
	}
	s.MainSections = mainSections(h)
	s.Permalinks = h.Permalinks.rules()
	if t := taxonomiesOf(h.Taxonomies, k.Indexes); t != nil {
		s.Taxonomies = t
	}
	s.Menus = menusOf(h.Menus)
	if p := h.Pagination; p != nil {
		if p.PagerSize != nil && *p.PagerSize > 0 {
			s.Pagination.PagerSize = *p.PagerSize
		}
		if p.Path != nil && *p.Path != "" {
			s.Pagination.Path = *p.Path
		}
		if p.DisableAliases != nil {
			s.Pagination.DisableAliases = *p.DisableAliases
		}
	}
	switch {
	case h.Services != nil && h.Services.RSS != nil && h.Services.RSS.Limit != nil && *h.Services.RSS.Limit != 0:
		s.RSSLimit = *h.Services.RSS.Limit
	case k.RSSLimit != nil && *k.RSSLimit != 0:
		s.RSSLimit = *k.RSSLimit
	}
	setInt(&s.SummaryLength, h.SummaryLength)
	l.themes = l.themeImports(h.Theme, h.ThemesDir)
	s.Themes = themeDirs(l.themes)
	if h.UglyURLs != nil {
		s.UglyURLs = UglyURLs(*h.UglyURLs)
	}
	setBool(&s.DisablePathToLower, h.DisablePathToLower)
	setBool(&s.RemovePathAccents, h.RemovePathAccents)
	for _, kind := range h.DisableKinds {
		s.DisableKinds[strings.ToLower(kind)] = true
	}
	setBool(&s.DisableAliases, h.DisableAliases)
	// Hugo's two names of one switch (the older one an alias since 0.154):
	// either one set turns the redirect off.
	for _, v := range []*bool{h.DisableDefaultLanguageRedirect, h.DisableDefaultSiteRedirect} {
		s.DisableDefaultSiteRedirect = s.DisableDefaultSiteRedirect || v != nil && *v
	}
	if f, ok := h.OutputFormats["rss"]; ok && f.BaseName != "" {
		s.RSSBaseName = f.BaseName
	}
	for kind, formats := range h.Outputs {
		s.Outputs[strings.ToLower(kind)] = lowerAll(formats)
	}
	if f := h.Frontmatter; f != nil {
		for _, p := range []struct{ dst, src *[]string }{
			{&s.Frontmatter.Date, &f.Date}, {&s.Frontmatter.Lastmod, &f.Lastmod},
			{&s.Frontmatter.PublishDate, &f.PublishDate}, {&s.Frontmatter.ExpiryDate, &f.ExpiryDate},
		} {
			if *p.src != nil {
				*p.dst = lowerAll(*p.src)
			}
		}
	}
	setBool(&s.EnableEmoji, h.EnableEmoji)
	setBool(&s.EnableInlineShortcodes, h.EnableInlineShortcodes)
	if sec := h.Security; sec != nil && sec.EnableInlineShortcodes != nil && *sec.EnableInlineShortcodes {
		s.EnableInlineShortcodes = true
	}
	setBool(&s.HasCJKLanguage, h.HasCJKLanguage)
	setBool(&s.CapitalizeListTitles, h.CapitalizeListTitles)
	setBool(&s.PluralizeListTitles, h.PluralizeListTitles)
	setBool(&s.EnableRobotsTXT, h.EnableRobotsTXT)
	setBool(&s.BuildDrafts, h.BuildDrafts)
	setBool(&s.BuildFuture, h.BuildFuture)
	setBool(&s.BuildExpired, h.BuildExpired)
	if h.TitleCaseStyle != nil {
		s.TitleCaseStyle = *h.TitleCaseStyle
	}
	if h.SectionPagesMenu != nil {
		s.SectionPagesMenu = *h.SectionPagesMenu
	}
	if h.Copyright != nil {
		s.Copyright = *h.Copyright
	}
	if h.RefLinksNotFoundURL != nil {
		s.RefLinksNotFoundURL = *h.RefLinksNotFoundURL
	}
	if h.RefLinksErrorLevel != nil {
		s.RefLinksWarning = strings.EqualFold(*h.RefLinksErrorLevel, "warning")
	}
	if err := l.languages(s, k); err != nil {
		return err
	}
	mounts, err := mountsOf(h, s.Languages)
	if err != nil {
		return fmt.Errorf("%s%v", l.raw.where([]string{"module", "mounts"}).place(), err)
	}
	if err := l.localMounts(h, mounts); err != nil {
		return err
	}
	s.Mounts = mounts
	ignore, err := ignoreFilesOf(h.IgnoreFiles)
	if err != nil {
		return fmt.Errorf("%signoreFiles: %v", l.raw.where([]string{"ignorefiles"}).place(), err)
	}
	s.IgnoreFiles = ignore
	if len(ignore) > 0 {
		root, err := filepath.Abs(l.src)
		if err != nil {
			return err
		}
		s.ignoreRoot = filepath.ToSlash(root)
	}
	return nil
}

func setInt(dst *int, v *int) {
	if v != nil {
		*dst = *v
	}
}

func setBool(dst *bool, v *bool) {
	if v != nil {
		*dst = *v
	}
}

func lowerAll(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = strings.ToLower(s)
	}
	return out
}

// mainSections are mainSections, else params.mainSections.
func mainSections(h *hugoKeys) []string {
	if len(h.MainSections) > 0 {
		return h.MainSections
	}
	switch v := h.Params["mainsections"].(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func paramString(params map[string]any, key string) string {
	s, _ := params[key].(string)
	return s
}

// authorName is params.author (a name, or a table with a name), else
// the deprecated author table's name, else folio's author.
func authorName(h hugoKeys) string {
	for _, v := range []any{h.Params["author"], h.Author} {
		switch v := v.(type) {
		case string:
			if v != "" {
				return v
			}
		case map[string]any:
			if s, _ := v["name"].(string); s != "" {
				return s
			}
		}
	}
	return ""
}

// legacyHighlight applies the pygments keys of older Hugo configs where
// markup.highlight keeps its default, as Hugo does.
func legacyHighlight(hl *HighlightConfig, k *rootKeys) {
	def := DefaultMarkup().Highlight
	if s, ok := k.PygmentsStyle.(string); ok && s != "" && hl.Style == def.Style {
		hl.Style = s
	}
	if b, ok := k.PygmentsClasses.(bool); ok && hl.NoClasses == def.NoClasses {
		hl.NoClasses = !b
	}
	if b, ok := k.PygmentsFences.(bool); ok && hl.CodeFences == def.CodeFences {
		hl.CodeFences = b
	}
	if b, ok := k.PygmentsGuess.(bool); ok && hl.GuessSyntax == def.GuessSyntax {
		hl.GuessSyntax = b
	}
}

// taxonomiesOf is the taxonomies table (indexes, its old name, when it
// is not set), sorted by plural; nil when neither is set, for Hugo's
// defaults. An entry with an empty plural is left out.
func taxonomiesOf(tax, indexes map[string]string) []Taxonomy {
	if tax == nil {
		tax = indexes
	}
	if tax == nil {
		return nil
	}
	out := []Taxonomy{}
	for singular, plural := range tax {
		if plural != "" {
			out = append(out, Taxonomy{Singular: singular, Plural: strings.ToLower(plural)})
		}
	}
	slices.SortFunc(out, func(a, b Taxonomy) int { return strings.Compare(a.Plural, b.Plural) })
	return out
}

// menusOf turns the menus table into menu entries, in weight order (then
// name, as Hugo sorts menus).
func menusOf(m map[string]menuKeys) Menus {
	out := Menus{}
	for name, entries := range m {
		for _, e := range entries {
			out[name] = append(out[name], MenuEntry{
				Menu: name, Identifier: e.Identifier, Parent: e.Parent, Name: e.Name, Pre: e.Pre, Post: e.Post,
				URL: e.URL, PageRef: e.PageRef, Weight: e.Weight, Title: e.Title, Params: e.Params,
			})
		}
		SortMenu(out[name])
	}
	return out
}

// SortMenu sorts a menu as Hugo does: by weight (entries without one
// last), then name, then identifier.
func SortMenu(entries []MenuEntry) {
	slices.SortStableFunc(entries, func(a, b MenuEntry) int {
		if a.Weight != b.Weight {
			switch {
			case a.Weight == 0:
				return 1
			case b.Weight == 0:
				return -1
			}
			return cmp.Compare(a.Weight, b.Weight)
		}
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Identifier, b.Identifier))
	})
}

// languages sets the site's languages from the languages table (one, the
// default, when there is none), each with its view of the settings.
func (l *siteLoader) languages(s *SiteConfig, k *rootKeys) error {
	def := strings.ToLower(k.DefaultContentLanguage)
	setBool(&s.DefaultLanguageInSubdir, k.DefaultContentLanguageInSubdir)
	codes := slices.Sorted(maps.Keys(k.Languages))
	if len(codes) == 0 {
		codes = []string{cmp.Or(def, "en")}
	}
	disabled := map[string]bool{}
	if list, ok := k.DisableLanguages.([]any); ok {
		for _, e := range list {
			if c, ok := e.(string); ok {
				disabled[strings.ToLower(c)] = true
			}
		}
	}
	rootContent := path.Clean(cmp.Or(k.ContentDir, "content"))
	s.Languages = nil
	for _, code := range codes {
		lk := k.Languages[code]
		if lk == nil {
			lk = &languageKeys{}
		}
		if lk.Disabled || disabled[code] {
			s.DisabledLanguages = append(s.DisabledLanguages, code)
			if code == def {
				return fmt.Errorf("%sdefault language %q is disabled", l.raw.where([]string{"languages", code}).place(), code)
			}
			continue
		}
		view := l.languageView(code)
		lang := Language{
			Code:         code,
			Label:        cmp.Or(lk.Label, lk.LanguageName),
			Locale:       cmp.Or(lk.Locale, lk.LanguageCode),
			Direction:    cmp.Or(lk.Direction, lk.LanguageDirection),
			Weight:       lk.Weight,
			Title:        cmp.Or(view.Title, k.Title),
			Params:       view.Params,
			Menus:        menusOf(view.Menus),
			MainSections: mainSections(&view.hugoKeys),
			Permalinks:   view.Permalinks.rules(),
			Taxonomies:   s.Taxonomies,
		}
		if t := taxonomiesOf(view.Taxonomies, view.Indexes); t != nil {
			lang.Taxonomies = t
		}
		if lang.Params == nil {
			lang.Params = map[string]any{}
		}
		lang.Description = paramString(lang.Params, "description")
		if cd := view.ContentDir; cd != "" && path.Clean(cd) != rootContent {
			lang.ContentDir = path.Clean(cd)
		}
		s.Languages = append(s.Languages, lang)
	}
	if len(s.Languages) == 0 {
		return fmt.Errorf("%severy language is disabled", l.raw.where([]string{"languages"}).place())
	}
	slices.SortStableFunc(s.Languages, func(a, b Language) int {
		switch {
		case a.Weight == b.Weight:
			return strings.Compare(a.Code, b.Code)
		case b.Weight == 0:
			return -1
		case a.Weight == 0:
			return 1
		}
		return cmp.Compare(a.Weight, b.Weight)
	})
	return l.defaultLanguage(s, k, def)
}

// defaultLanguage marks the default language: defaultContentLanguage,
// else en when there is one, else the first. The root's locale goes to
// the default language when it has none.
func (l *siteLoader) defaultLanguage(s *SiteConfig, k *rootKeys, def string) error {
	i := slices.IndexFunc(s.Languages, func(x Language) bool { return x.Code == def })
	switch {
	case def != "" && i < 0:
		pos := l.raw.where([]string{"defaultcontentlanguage"})
		return fmt.Errorf("%sdefaultContentLanguage %q is not one of the languages", pos.place(), def)
	case def == "":
		i = max(slices.IndexFunc(s.Languages, func(x Language) bool { return x.Code == "en" }), 0)
	}
	s.Languages[i].Default = true
	s.DefaultLanguage = s.Languages[i].Code
	if s.Languages[i].Locale == "" {
		s.Languages[i].Locale = cmp.Or(k.Locale, k.LanguageCode)
	}
	return nil
}

// languageView decodes the config as one language sees it: the root
// with the language's table over it.
func (l *siteLoader) languageView(code string) *rootKeys {
	view := maps.Clone(l.raw.m)
	delete(view, "languages")
	langs, _ := l.raw.m["languages"].(map[string]any)
	if lm, ok := langs[code].(map[string]any); ok {
		view = overlay(view, lm)
	}
	keys := &rootKeys{}
	d := &configDecoder{raw: l.raw, quiet: true}
	d.decodeTable(nil, view, reflect.ValueOf(keys).Elem(), false, false, false)
	return keys
}

// overlay returns base with top's keys over it, tables merged key by key.
func overlay(base, top map[string]any) map[string]any {
	out := maps.Clone(base)
	for k, v := range top {
		if tv, ok := v.(map[string]any); ok {
			if bv, ok := out[k].(map[string]any); ok {
				out[k] = overlay(bv, tv)
				continue
			}
		}
		out[k] = v
	}
	return out
}

// mountsOf is module.mounts for the content, static and assets folders;
// a folder with no mount of its own gets Hugo's: contentDir (and each
// language's own contentDir), staticDir (and staticDir0…10), assetDir.
func mountsOf(h *hugoKeys, langs []Language) ([]Mount, error) {
	var out []Mount
	configured := map[string]bool{}
	if h.Module != nil {
		for _, m := range h.Module.Mounts {
			target := path.Clean(strings.Trim(m.Target, "/"))
			component, _, _ := strings.Cut(target, "/")
			if component != "content" && component != "static" && component != "assets" {
				continue
			}
			configured[component] = true
			mount := Mount{Source: path.Clean(m.Source), Target: target, Lang: strings.ToLower(m.Lang)}
			f, err := newMountFilter(m.Files, m.IncludeFiles, m.ExcludeFiles)
			if err != nil {
				return nil, fmt.Errorf("mount of %q: %v", m.Source, err)
			}
			mount.Exclude = f
			out = append(out, mount)
		}
	}
	if !configured["content"] {
		// Each language reads its contentDir; the site's own is mounted
		// once for every language that shares it, with no language of
		// its own (files say theirs by name: post.fr.md).
		root := path.Clean(cmp.Or(h.ContentDir, "content"))
		shared := false
		for _, l := range langs {
			if l.ContentDir == "" {
				shared = true
			}
		}
		if shared {
			out = append(out, Mount{Source: root, Target: "content"})
		}
		for _, l := range langs {
			if l.ContentDir != "" {
				out = append(out, Mount{Source: l.ContentDir, Target: "content", Lang: l.Code})
			}
		}
	}
	if !configured["static"] {
		dirs := staticDirs(h)
		if len(dirs) == 0 {
			dirs = []string{"static"}
		}
		for _, d := range dirs {
			out = append(out, Mount{Source: path.Clean(d), Target: "static"})
		}
	}
	if !configured["assets"] {
		out = append(out, Mount{Source: path.Clean(cmp.Or(deref(h.AssetDir), "assets")), Target: "assets"})
	}
	return out, nil
}

// localMounts makes each mount's source a path below the site's folder:
// an absolute one inside it becomes relative; one outside it (Hugo
// builds from "../content" or "/srv/content") is an error at the key
// that names it, as folio reads a site through its folder alone (an
// os.Root, which nothing leads out of).
func (l *siteLoader) localMounts(h *hugoKeys, mounts []Mount) error {
	site, err := filepath.Abs(l.src)
	if err != nil {
		return err
	}
	for i, m := range mounts {
		src := filepath.FromSlash(m.Source)
		if filepath.IsAbs(src) {
			if rel, err := filepath.Rel(site, src); err == nil && filepath.IsLocal(rel) {
				mounts[i].Source = filepath.ToSlash(rel)
				continue
			}
			if src == site {
				mounts[i].Source = "."
				continue
			}
		} else if filepath.IsLocal(src) || src == "." {
			continue
		}
		component, _, _ := strings.Cut(m.Target, "/")
		key, name := []string{"module", "mounts"}, "module.mounts source"
		switch {
		case h.Module != nil && slices.ContainsFunc(h.Module.Mounts, func(hm mountKeys) bool {
			c, _, _ := strings.Cut(path.Clean(strings.Trim(hm.Target, "/")), "/")
			return c == component
		}):
		case component == "content" && m.Lang != "":
			key, name = []string{"languages", m.Lang, "contentdir"}, "languages."+m.Lang+".contentDir"
		case component == "content":
			key, name = []string{"contentdir"}, "contentDir"
		case component == "static":
			key, name = []string{"staticdir"}, "staticDir"
		default:
			key, name = []string{"assetdir"}, "assetDir"
		}
		hint := ""
		if component == "content" {
			if !filepath.IsAbs(src) {
				src = filepath.Join(site, src)
			}
			hint = "; --content " + src + " reads that folder alone"
		}
		return fmt.Errorf("%s%s %q is outside the site's folder %s: folio reads a site only below its folder (move the folder into it%s)",
			l.raw.where(key).place(), name, m.Source, site, hint)
	}
	return nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func staticDirs(h *hugoKeys) []string {
	var out []string
	for _, d := range []*stringsKey{h.StaticDir, h.StaticDir0, h.StaticDir1, h.StaticDir2, h.StaticDir3,
		h.StaticDir4, h.StaticDir5, h.StaticDir6, h.StaticDir7, h.StaticDir8, h.StaticDir9, h.StaticDir10} {
		if d != nil {
			for _, s := range *d {
				if !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// themeImport is a theme or module the site's config imports: its path
// as written, the key that names it, and the folder folio reads it from,
// relative to the site's folder.
type themeImport struct {
	path string
	key  []string
	dir  string
}

// themeImports lists what the site imports, in Hugo's order of
// precedence: module.imports (those not disabled), then theme (a name or
// a list), each followed by its own imports, depth first (from its
// hugo.* or config.* file and config/_default/; not when the import says
// ignoreImports), each path once. Each is read from _vendor/<path> when
// _vendor/modules.txt lists it (hugo mod vendor), else from
// <themesDir>/<path> ("themes" by default), where Hugo looks for a theme
// and for a module it cannot download. folio downloads nothing.
func (l *siteLoader) themeImports(theme, themesDir any) []themeImport {
	dir, _ := themesDir.(string)
	if dir == "" {
		dir = "themes"
	}
	vendored := vendoredModules(l.fsys)
	var out []themeImport
	seen := map[string]bool{}
	// walk adds config's imports and theirs; key is the site's config
	// key they come under (nil: the site's own, each under its own key).
	var walk func(config map[string]any, key []string, depth int)
	walk = func(config map[string]any, key []string, depth int) {
		for _, imp := range importsOf(config) {
			if seen[imp.path] || depth > maxThemeDepth {
				continue
			}
			seen[imp.path] = true
			t := themeImport{path: imp.path, key: imp.key, dir: path.Join(dir, imp.path)}
			if key != nil {
				t.key = key
			}
			if vendored[imp.path] {
				t.dir = path.Join("_vendor", imp.path)
			}
			out = append(out, t)
			if !imp.ignoreImports {
				walk(l.themeConfig(t.dir), t.key, depth+1)
			}
		}
	}
	walk(map[string]any{"module": l.raw.m["module"], "theme": theme}, nil, 0)
	return out
}

// maxThemeDepth bounds how deep imports of imports are followed (Hugo
// stops at a cycle; a chain this long is one).
const maxThemeDepth = 16

// An importEntry is one import a config names: its path, the key it
// came from (module.imports or theme) and whether its own imports are
// skipped.
type importEntry struct {
	path          string
	key           []string
	ignoreImports bool
}

// importsOf reads a config's (lower-cased keys) module.imports (a list
// of tables, or one table, as Hugo's weak decoding takes it; one marked
// disable left out), then its theme (a name or a list).
func importsOf(config map[string]any) []importEntry {
	var out []importEntry
	module, _ := config["module"].(map[string]any)
	imports, _ := module["imports"].([]any)
	if one, ok := module["imports"].(map[string]any); ok {
		imports = []any{one}
	}
	for _, i := range imports {
		m, _ := i.(map[string]any)
		p, ok := m["path"].(string)
		disabled, _ := toBool(m["disable"], true)
		ignore, _ := toBool(m["ignoreimports"], true)
		if p = strings.TrimSpace(p); ok && p != "" && !disabled {
			out = append(out, importEntry{path: p, key: []string{"module", "imports"}, ignoreImports: ignore})
		}
	}
	var names []string
	switch t := config["theme"].(type) {
	case string:
		names = []string{t}
	case []any:
		for _, n := range t {
			if s, ok := n.(string); ok {
				names = append(names, s)
			}
		}
	case []string:
		names = t
	}
	for _, n := range names {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, importEntry{path: n, key: []string{"theme"}})
		}
	}
	return out
}

// themeConfig is what an imported theme's own config says of its
// imports, keys lower-cased: its hugo.* or config.* file (the first
// found, as Hugo looks), with config/_default/module.* and hugo.* over
// it. A file that does not read is no config: the theme's imports are
// then unknown, and its own folder still counts.
func (l *siteLoader) themeConfig(dir string) map[string]any {
	out := map[string]any{}
	read := func(name string, under string) bool {
		data, err := fs.ReadFile(l.fsys, name)
		if err != nil {
			return false
		}
		f, err := readConfigFile(name, data)
		if err != nil {
			return true
		}
		m := lowerTree(f.m)
		if under != "" {
			m = map[string]any{under: m}
		}
		setParams(out, m)
		return true
	}
	found := false
	for _, base := range []string{"hugo", "config"} {
		for _, ext := range []string{"toml", "yaml", "yml", "json"} {
			if !found && read(path.Join(dir, base+"."+ext), "") {
				found = true
			}
		}
	}
	for _, ext := range []string{"toml", "yaml", "yml", "json"} {
		read(path.Join(dir, "config", "_default", "hugo."+ext), "")
		read(path.Join(dir, "config", "_default", "config."+ext), "")
		read(path.Join(dir, "config", "_default", "module."+ext), "module")
	}
	return out
}

// vendoredModules are the module paths _vendor/modules.txt lists ("#
// github.com/x/y v1.2.3" lines): the ones Hugo reads from _vendor/.
func vendoredModules(fsys fs.FS) map[string]bool {
	data, err := fs.ReadFile(fsys, "_vendor/modules.txt")
	if err != nil {
		return nil
	}
	out := map[string]bool{}
	for line := range strings.Lines(string(data)) {
		if fields := strings.Fields(strings.Trim(strings.TrimSpace(line), "# ")); len(fields) == 2 {
			out[fields[0]] = true
		}
	}
	return out
}

// themeDirs is the folders of imports, each once, in order.
func themeDirs(imports []themeImport) []string {
	var out []string
	for _, imp := range imports {
		if !slices.Contains(out, imp.dir) {
			out = append(out, imp.dir)
		}
	}
	return out
}

// hostlessBase reports whether a Hugo baseURL is a path and no more
// ("/", "/blog/"), which Hugo accepts, and returns it with a trailing
// slash.
func hostlessBase(base string) (string, bool) {
	if !strings.HasPrefix(base, "/") || strings.HasPrefix(base, "//") {
		return "", false
	}
	u, err := url.Parse(base)
	if err != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	return base, true
}
