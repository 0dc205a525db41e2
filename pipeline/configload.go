package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// SiteOptions say where a site's configuration is and which environment
// to merge.
type SiteOptions struct {
	// Source is the site's folder (--source); "" is the working folder.
	Source string
	// Environment is "development" (folio dev) or "production" (serve,
	// build, check): the folder of config/ merged over config/_default/.
	Environment string
	// Files are config files to read instead of the ones Hugo looks for
	// (--config), relative to the working folder. A file that is not
	// there is an error.
	Files []string
	// FS reads the site's folder instead of the disk (tests).
	FS fs.FS
}

// configNames are the names Hugo looks for in a site's root, in order:
// the first one found is the config file.
var configNames = []string{"hugo", "config"}

var configExts = []string{"toml", "yaml", "yml", "json"}

// ErrNoSiteConfig is returned (wrapped) by LoadSite when --config names a
// file that is not there.
var ErrNoSiteConfig = errors.New("no such config file")

// LoadSite finds and merges the configuration of the site in
// opts.Source as Hugo 0.165 does, and decodes it: hugo.{toml,yaml,json}
// (else config.*) in the site's root, then config/_default/ and the
// environment's folder over it, per-key files (params.toml,
// menus.en.toml, languages.yaml, …) included. folio's config.toml is read
// the same way; its keys keep their meaning. A site with no config at all
// gets the defaults. A key neither Hugo nor folio knows is a warning in
// cfg.Warnings that names the key likely meant; under [folio] it is an
// error, as is a value of the wrong type or a bad value, each naming its
// file, line and key.
func LoadSite(opts SiteOptions) (*Config, error) {
	src := opts.Source
	if src == "" {
		src = "."
	}
	fsys := opts.FS
	if fsys == nil {
		fsys = os.DirFS(src)
	}
	l := &siteLoader{fsys: fsys, src: src, raw: newRawConfig()}
	if err := l.readMain(opts.Files); err != nil {
		return nil, err
	}
	if err := l.readConfigDir("config", opts.Environment); err != nil {
		return nil, err
	}
	cfg, err := l.decode()
	if err != nil {
		return nil, err
	}
	cfg.Source, cfg.Environment = src, opts.Environment
	cfg.ConfigFiles, cfg.ConfigDirs = l.raw.files, l.dirs
	cfg.Warnings = append(cfg.Warnings, l.robotsTemplate(cfg)...)
	cfg.Warnings = append(cfg.Warnings, l.missingThemes()...)
	return cfg, nil
}

// missingThemes warns of each theme or module the config imports whose
// folder is missing or empty (a git submodule not checked out, a Hugo
// module never vendored). folio lays pages out with its own theme, so
// the site still builds, but the shortcodes, partials, render hooks,
// i18n and data the theme holds are not there: each shortcode of it
// keeps only its inner text.
func (l *siteLoader) missingThemes() []Problem {
	var out []Problem
	warned := map[string]bool{}
	for _, imp := range l.themes {
		if warned[imp.dir] {
			continue
		}
		if entries, err := fs.ReadDir(l.fsys, imp.dir); err == nil && len(entries) > 0 {
			continue
		}
		warned[imp.dir] = true
		pos := l.raw.where(imp.key)
		what := fmt.Sprintf("theme %q: %s is missing or empty (a git submodule not checked out? git submodule update --init)", imp.path, imp.dir)
		if isModulePath(imp.path) {
			what = fmt.Sprintf("module %q: neither %s nor %s is there, and folio downloads no Hugo module (hugo mod vendor copies it into _vendor/)", imp.path, path.Join("_vendor", imp.path), imp.dir)
		}
		out = append(out, Problem{Path: pos.file, Line: pos.line, Severity: Warning,
			Message: what + "; without it, its shortcodes, partials, render hooks, i18n and data are missing"})
	}
	return out
}

// isModulePath reports whether p names a Go module, as Hugo tells one
// from a theme's folder name: its first element holds a dot
// ("github.com/…").
func isModulePath(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return strings.Contains(first, ".")
}

// robotsTemplate warns about a layouts/robots.txt (the site's or a
// theme's): folio writes robots.txt from [folio.agents], or serves the
// site's static/robots.txt as it is, and runs no Hugo template for it.
func (l *siteLoader) robotsTemplate(cfg *Config) []Problem {
	var out []Problem
	for _, dir := range append([]string{"."}, cfg.Themes...) {
		name := path.Join(dir, "layouts", "robots.txt")
		if _, err := fs.Stat(l.fsys, name); err == nil {
			out = append(out, Problem{Path: l.display(name), Line: 1, Severity: Warning,
				Message: "folio does not run robots.txt templates: it writes robots.txt from [folio.agents] (params.folio.agents), or serves static/robots.txt as it is"})
		}
	}
	return out
}

// siteLoader reads and merges one site's config files.
type siteLoader struct {
	fsys fs.FS
	src  string
	raw  *rawConfig
	dirs []string // config folders found, as displayed
	// themes is what the config imports, found by siteSettings
	themes []themeImport
}

// display is how messages name a file of the site: the site's folder as
// given joined with the file's path.
func (l *siteLoader) display(rel string) string {
	return filepath.Join(l.src, filepath.FromSlash(rel))
}

// readMain reads the --config files, else the first of hugo.* and
// config.* in the site's root.
func (l *siteLoader) readMain(files []string) error {
	for _, name := range files {
		data, err := os.ReadFile(name)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("--config %s: %w", name, ErrNoSiteConfig)
		}
		if err != nil {
			return fmt.Errorf("--config %s: %w", name, err)
		}
		if err := l.mergeFile(name, data, nil); err != nil {
			return err
		}
	}
	if len(files) > 0 {
		return nil
	}
	for _, base := range configNames {
		for _, ext := range configExts {
			rel := base + "." + ext
			data, err := l.readFile(rel)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return err
			}
			return l.mergeFile(l.display(rel), data, nil)
		}
	}
	return nil
}

func (l *siteLoader) readFile(rel string) ([]byte, error) {
	f, err := l.fsys.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.IsDir() {
		return nil, fs.ErrNotExist
	}
	data, err := readAllLimited(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", l.display(rel), err)
	}
	return data, nil
}

// readConfigDir merges config/_default/ and then config/<env>/, each file
// at the key its name says: hugo.* and config.* at the root, params.toml
// under params, menus.en.toml under languages.en.menus, any other
// name.lang.ext under languages.lang.
func (l *siteLoader) readConfigDir(dir, env string) error {
	for _, sub := range []string{"_default", env} {
		if sub == "" {
			continue
		}
		root := path.Join(dir, sub)
		if info, err := fs.Stat(l.fsys, root); err != nil || !info.IsDir() {
			continue
		}
		err := fs.WalkDir(l.fsys, root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				l.dirs = append(l.dirs, l.display(p))
				return nil
			}
			ext := strings.TrimPrefix(strings.ToLower(path.Ext(p)), ".")
			if !slices.Contains(configExts, ext) {
				return nil
			}
			data, err := l.readFile(p)
			if err != nil {
				return err
			}
			return l.mergeFile(l.display(p), data, keyPathOf(path.Base(p)))
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// keyPathOf is where a file of config/_default/ goes in the config, from
// its name (Hugo's rule).
func keyPathOf(file string) []string {
	name := strings.TrimSuffix(file, path.Ext(file))
	if slices.Contains(configNames, name) {
		return nil
	}
	lang := ""
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name, lang = name[:i], name[i+1:]
	}
	if lang == "" {
		if name == "menu" {
			return []string{"menus"} // Hugo's name for it before 0.53
		}
		return []string{name}
	}
	switch name {
	case "menu", "menus":
		return []string{"languages", lang, "menus"}
	case "params":
		return []string{"languages", lang, "params"}
	}
	return []string{"languages", lang}
}

// mergeFile decodes one file and merges it at key path under. A per-key
// file may wrap its content in its own key (cascade.yaml holding
// cascade: […]), which is unwrapped.
func (l *siteLoader) mergeFile(name string, data []byte, under []string) error {
	f, err := readConfigFile(name, data)
	if err != nil {
		return err
	}
	if len(under) > 0 && len(f.m) == 1 {
		last := under[len(under)-1]
		for k, v := range f.m {
			if inner, ok := v.(map[string]any); ok && strings.EqualFold(k, last) {
				f.m = inner
				f.rebase(k)
			}
		}
	}
	renameMenu(f)
	l.raw.merge(f, under)
	return nil
}

// rebase drops the first key of every line entry: the file's content was
// unwrapped from under key.
func (f *configFile) rebase(key string) {
	lines := map[string]int{}
	prefix := keyName([]string{key}) + "."
	for k, v := range f.line {
		if rest, ok := strings.CutPrefix(k, prefix); ok {
			lines[rest] = v
		}
	}
	f.line = lines
}

// renameMenu renames menu to menus at the root and in each language, as
// Hugo does for configs written before 0.53.
func renameMenu(f *configFile) {
	rename := func(m map[string]any, prefix string) {
		for k, v := range m {
			if !strings.EqualFold(k, "menu") {
				continue
			}
			delete(m, k)
			if old, ok := m["menus"].(map[string]any); ok {
				if nv, ok := v.(map[string]any); ok {
					setParams(old, nv)
					continue
				}
			}
			m["menus"] = v
			for lk, line := range f.line {
				if rest, ok := strings.CutPrefix(lk, prefix+"menu"); ok && (rest == "" || rest[0] == '.') {
					f.line[prefix+"menus"+rest] = line
				}
			}
		}
	}
	rename(f.m, "")
	for k, v := range f.m {
		if !strings.EqualFold(k, "languages") {
			continue
		}
		langs, _ := v.(map[string]any)
		for code, lv := range langs {
			if lm, ok := lv.(map[string]any); ok {
				rename(lm, keyName([]string{k, code})+".")
			}
		}
	}
}

// decode turns the merged config into a Config.
func (l *siteLoader) decode() (*Config, error) {
	raw := l.raw
	keys := &rootKeys{}
	markup := DefaultMarkup()
	keys.Markup = &markup
	normalizeLineNos(raw.m)
	migrateExtensions(raw.m)
	dropMergeKeys(raw.m)
	d := &configDecoder{raw: raw}
	d.decodeTable(nil, raw.m, reflect.ValueOf(keys).Elem(), false, false, false)
	if pf, ok := paramsFolio(raw.m); ok {
		if keys.Folio == nil {
			keys.Folio = &folioKeys{}
		}
		d.decodeValue([]string{"params", "folio"}, pf, reflect.ValueOf(keys.Folio).Elem(), true, true, false)
	}
	if issue := d.firstIssue(d.typeErrs); issue != nil {
		return nil, errors.New(issue.String())
	}
	sortUnknown(d.unknown, siteSchema(), raw.header, raw.files)
	var closed []unknownKey
	var warnings []Problem
	for _, u := range d.unknown {
		if u.closed {
			closed = append(closed, u)
			continue
		}
		if h := retiredKeys[strings.ToLower(u.key.String())]; h != "" {
			u.hint = h
		}
		warnings = append(warnings, Problem{Path: u.pos.file, Line: max(u.line, 1), Message: "unknown key " + u.describe(false), Severity: Warning})
	}
	if len(closed) > 0 {
		return nil, unknownKeysError(closed)
	}
	cfg, err := l.build(keys)
	if err != nil {
		return nil, err
	}
	cfg.Warnings = append(warnings, cfg.Warnings...)
	return cfg, nil
}

// siteSchema is the schema of rootKeys, with folio's table also under
// params, where a Hugo config may keep it.
var siteSchema = sync.OnceValue(func() *schema {
	s := schemaOf(reflect.TypeFor[rootKeys]())
	out := &schema{known: slices.Clone(s.known)}
	for _, k := range s.known {
		if k[0] == "folio" {
			out.known = append(out.known, append([]string{"params"}, k...))
		}
	}
	return out
})

// retiredKeys are keys older Hugo versions read and 0.165 does not: the
// hint says what took their place.
var retiredKeys = map[string]string{
	"paginate":     "Hugo 0.165 ignores it: set pagination.pagerSize",
	"paginatepath": "Hugo 0.165 ignores it: set pagination.path",
	"blackfriday":  "Hugo 0.165 renders Markdown with Goldmark: set markup.goldmark",
}

// paramsFolio is params.folio, folio's table in a Hugo config.
func paramsFolio(m map[string]any) (any, bool) {
	params, _ := m["params"].(map[string]any)
	v, ok := params["folio"]
	return v, ok
}

// normalizeLineNos turns markup.highlight.lineNos "table" or "inline"
// into Hugo's meaning: line numbers on, in a table or not.
func normalizeLineNos(m map[string]any) {
	markup, _ := m["markup"].(map[string]any)
	hl, _ := markup["highlight"].(map[string]any)
	if s, ok := hl["linenos"].(string); ok {
		switch strings.ToLower(s) {
		case "table":
			hl["linenos"], hl["linenumbersintable"] = true, true
		case "inline":
			hl["linenos"], hl["linenumbersintable"] = true, false
		}
	}
}

// migrateExtensions reads markup.goldmark.extensions.footnote and
// .typographer written as a boolean, as configs written before Hugo made
// them tables (0.151 and 0.112) do and Hugo 0.165 still accepts: true is
// the defaults, false the extension off.
func migrateExtensions(m map[string]any) {
	markup, _ := m["markup"].(map[string]any)
	goldmark, _ := markup["goldmark"].(map[string]any)
	ext, _ := goldmark["extensions"].(map[string]any)
	for key, off := range map[string]map[string]any{
		"footnote":    {"enable": false},
		"typographer": {"disable": true},
	} {
		switch on, ok := ext[key].(bool); {
		case !ok:
		case on:
			delete(ext, key)
		default:
			ext[key] = off
		}
	}
}

// dropMergeKeys removes _merge from every table: Hugo's strategy for
// merging a theme's config into the site's, which folio does not merge,
// and which Hugo leaves out of what templates see (.Site.Params).
func dropMergeKeys(m map[string]any) {
	delete(m, "_merge")
	for _, v := range m {
		switch v := v.(type) {
		case map[string]any:
			dropMergeKeys(v)
		case []any:
			for _, e := range v {
				if t, ok := e.(map[string]any); ok {
					dropMergeKeys(t)
				}
			}
		}
	}
}
