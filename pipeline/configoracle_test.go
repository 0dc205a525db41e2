package pipeline_test

import (
	"encoding/json"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"folio/internal/hugotest"
	"folio/pipeline"
)

// fixtureSites are the Hugo sites under testdata/sites, each a real site
// that Hugo 0.165 builds.
func fixtureSites(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir("testdata/sites")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestConfigOracle: for every fixture site, environment and language,
// the settings folio reads from the merged config are the ones Hugo 0.165
// prints with hugo config.
func TestConfigOracle(t *testing.T) {
	hugotest.Binary(t)
	for _, name := range fixtureSites(t) {
		for _, env := range []string{"production", "development"} {
			t.Run(name+"/"+env, func(t *testing.T) {
				dir := hugotest.CopySite(t, filepath.Join("testdata/sites", name))
				cfg, err := pipeline.LoadSite(pipeline.SiteOptions{Source: dir, Environment: env})
				if err != nil {
					t.Fatal(err)
				}
				for _, lang := range cfg.Languages {
					hugo := hugotest.Config(t, dir, env, lang.Code)
					compareConfig(t, lang.Code, hugo, folioView(cfg, &lang))
				}
				compareMounts(t, cfg, hugotest.Mounts(t, dir, env))
			})
		}
	}
}

// folioView is what folio read, in the shape hugo config prints it.
func folioView(cfg *pipeline.Config, lang *pipeline.Language) map[string]any {
	menus := map[string]any{}
	for name, entries := range lang.Menus {
		var list []any
		for _, e := range entries {
			list = append(list, map[string]any{"name": e.Name, "url": e.URL, "pageref": e.PageRef, "weight": e.Weight, "identifier": e.Identifier, "parent": e.Parent})
		}
		menus[name] = list
	}
	var permalinks []any
	for _, r := range lang.Permalinks {
		permalinks = append(permalinks, map[string]any{"pattern": r.Pattern, "kind": r.Kind, "path": r.Path})
	}
	taxonomies := map[string]any{}
	for _, t := range lang.Taxonomies {
		taxonomies[t.Singular] = t.Plural
	}
	var kinds []any
	for k := range cfg.DisableKinds {
		kinds = append(kinds, k)
	}
	base := cfg.BaseURL
	if u, err := url.Parse(base); err == nil && !cfg.BaseSet && base != "" {
		base = u.Path // a Hugo baseURL that is a path: folio serves it on its address
	}
	return map[string]any{
		"baseurl":                        base,
		"title":                          lang.Title,
		"params":                         lang.Params,
		"menus":                          menus,
		"permalinks":                     permalinks,
		"taxonomies":                     taxonomies,
		"mainsections":                   lang.MainSections,
		"defaultcontentlanguage":         cfg.DefaultLanguage,
		"defaultcontentlanguageinsubdir": cfg.DefaultLanguageInSubdir,
		"pagination":                     map[string]any{"pagersize": cfg.Pagination.PagerSize, "path": cfg.Pagination.Path, "disablealiases": cfg.Pagination.DisableAliases},
		"rsslimit":                       cfg.RSSLimit,
		"summarylength":                  cfg.SummaryLength,
		"disablepathtolower":             cfg.DisablePathToLower,
		"removepathaccents":              cfg.RemovePathAccents,
		"disablekinds":                   kinds,
		"uglyurls":                       cfg.UglyURLs,
		"frontmatter":                    map[string]any{"date": cfg.Frontmatter.Date, "lastmod": cfg.Frontmatter.Lastmod, "publishdate": cfg.Frontmatter.PublishDate, "expirydate": cfg.Frontmatter.ExpiryDate},
		"unsafe":                         cfg.Markup.Unsafe,
		"highlight":                      map[string]any{"style": cfg.Markup.Highlight.Style, "noclasses": cfg.Markup.Highlight.NoClasses, "codefences": cfg.Markup.Highlight.CodeFences, "tabwidth": cfg.Markup.Highlight.TabWidth},
		"footnote":                       cfg.Markup.Goldmark.Extensions.Footnote.Enable,
		"typographer":                    !cfg.Markup.Goldmark.Extensions.Typographer.Disable,
		"languages":                      languageView(cfg),
	}
}

func languageView(cfg *pipeline.Config) map[string]any {
	out := map[string]any{}
	for _, l := range cfg.Languages {
		out[l.Code] = map[string]any{"weight": l.Weight, "label": l.Label}
	}
	return out
}

// hugoView picks the same settings out of hugo config's output.
func hugoView(h map[string]any) map[string]any {
	get := func(m any, keys ...string) any {
		for _, k := range keys {
			mm, _ := m.(map[string]any)
			m = mm[k]
		}
		return m
	}
	menus := map[string]any{}
	menusIn, _ := get(h, "menus").(map[string]any)
	for name, entries := range menusIn {
		var list []any
		for _, e := range entries.([]any) {
			em := e.(map[string]any)
			str := func(k string) any {
				if v, ok := em[k]; ok {
					return v
				}
				return ""
			}
			w := em["weight"]
			if w == nil {
				w = 0.0
			}
			list = append(list, map[string]any{"name": str("name"), "url": str("url"), "pageref": str("pageref"), "weight": w, "identifier": str("identifier"), "parent": str("parent")})
		}
		menus[name] = list
	}
	var permalinks []any
	if list, ok := h["permalinks"].([]any); ok {
		for _, p := range list {
			permalinks = append(permalinks, map[string]any{"pattern": get(p, "pattern"), "kind": get(p, "target", "kind"), "path": get(p, "target", "path")})
		}
	}
	langs := map[string]any{}
	langsIn, _ := get(h, "languages").(map[string]any)
	for code, l := range langsIn {
		if get(l, "disabled") == true {
			continue
		}
		label := get(l, "label")
		if label == nil {
			label = ""
		}
		langs[code] = map[string]any{"weight": get(l, "weight"), "label": label}
	}
	ugly := h["uglyurls"]
	switch u := ugly.(type) {
	case bool:
		ugly = pipeline.UglyURLs{All: u}
	case map[string]any:
		sections := map[string]bool{}
		for k, v := range u {
			sections[k] = v.(bool)
		}
		if len(sections) == 0 {
			sections = nil
		}
		ugly = pipeline.UglyURLs{Sections: sections}
	}
	// Hugo prints the base URL as written and links with a slash after
	// it, as folio keeps it.
	base, _ := h["baseurl"].(string)
	if base != "" && !strings.HasSuffix(base, "/") {
		base += "/"
	}
	return map[string]any{
		"baseurl":                        base,
		"title":                          h["title"],
		"params":                         h["params"],
		"menus":                          menus,
		"permalinks":                     permalinks,
		"taxonomies":                     h["taxonomies"],
		"mainsections":                   h["mainsections"],
		"defaultcontentlanguage":         h["defaultcontentlanguage"],
		"defaultcontentlanguageinsubdir": h["defaultcontentlanguageinsubdir"],
		"pagination":                     h["pagination"],
		"rsslimit":                       get(h, "services", "rss", "limit"),
		"summarylength":                  h["summarylength"],
		"disablepathtolower":             h["disablepathtolower"],
		"removepathaccents":              h["removepathaccents"],
		"disablekinds":                   h["disablekinds"],
		"uglyurls":                       ugly,
		"frontmatter":                    h["frontmatter"],
		"unsafe":                         get(h, "markup", "goldmark", "renderer", "unsafe"),
		"highlight":                      map[string]any{"style": get(h, "markup", "highlight", "style"), "noclasses": get(h, "markup", "highlight", "noclasses"), "codefences": get(h, "markup", "highlight", "codefences"), "tabwidth": get(h, "markup", "highlight", "tabwidth")},
		"footnote":                       get(h, "markup", "goldmark", "extensions", "footnote", "enable"),
		"typographer":                    get(h, "markup", "goldmark", "extensions", "typographer", "disable") != true,
		"languages":                      langs,
	}
}

// compareConfig compares key by key, after a JSON round trip so that
// numbers and nils compare as Hugo prints them.
func compareConfig(t *testing.T, lang string, hugo map[string]any, folio map[string]any) {
	t.Helper()
	h := normalizeJSON(t, hugoView(hugo))
	f := normalizeJSON(t, folio)
	for k := range h {
		hv, fv := h[k], f[k]
		if k == "permalinks" || k == "disablekinds" {
			hv, fv = sortedJSON(t, hv), sortedJSON(t, fv)
		}
		if !reflect.DeepEqual(hv, fv) {
			t.Errorf("%s: %s: hugo %v, folio %v", lang, k, jsonText(hv), jsonText(fv))
		}
	}
}

func normalizeJSON(t *testing.T, v map[string]any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	for k, v := range out {
		// An empty list or table and none are the same setting (hugo
		// config prints taxonomies: null for a key with no value).
		if l, ok := v.([]any); ok && len(l) == 0 {
			out[k] = nil
		}
		if m, ok := v.(map[string]any); ok && len(m) == 0 {
			out[k] = nil
		}
	}
	return out
}

// sortedJSON sorts a list by its elements' JSON text (Hugo's order for
// permalinks from a table is its map order).
func sortedJSON(t *testing.T, v any) any {
	l, ok := v.([]any)
	if !ok {
		return v
	}
	l = slices.Clone(l)
	slices.SortFunc(l, func(a, b any) int { return strings.Compare(jsonText(a), jsonText(b)) })
	return l
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// compareMounts: the content, static and assets mounts are Hugo's.
func compareMounts(t *testing.T, cfg *pipeline.Config, hugo []hugotest.Mount) {
	t.Helper()
	var want []pipeline.Mount
	for _, m := range hugo {
		component, _, _ := strings.Cut(m.Target, "/")
		if component != "content" && component != "static" && component != "assets" {
			continue
		}
		lang := ""
		if l := m.Sites.Matrix.Languages; len(l) == 1 {
			lang = l[0]
		}
		// A contentDir written with a final slash (content/en/) is
		// printed with it: the same folder.
		want = append(want, pipeline.Mount{Source: path.Clean(m.Source), Target: m.Target, Lang: lang})
	}
	order := func(a, b pipeline.Mount) int {
		return strings.Compare(a.Target+a.Source+a.Lang, b.Target+b.Source+b.Lang)
	}
	got := slices.Clone(cfg.Mounts)
	for i := range got {
		got[i].Exclude = nil // hugo config mounts does not print excludeFiles
	}
	slices.SortFunc(got, order)
	slices.SortFunc(want, order)
	if !slices.Equal(got, want) {
		t.Errorf("mounts:\nhugo  %v\nfolio %v", want, got)
	}
}
