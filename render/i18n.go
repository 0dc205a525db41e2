package render

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/gohugoio/hugo/parser/metadecoders"
)

// loadI18n reads the site's translations for a language, then each
// theme's for the keys the site lacks: i18n/<lang>.toml (or .yaml, .yml,
// .json), in go-i18n's forms (key = "text", [key] other = "text", or a
// list of id and translation). Keys are lower-cased, as Hugo looks them
// up. A file that does not decode is a problem.
func (t *Templates) loadI18n(fsys fs.FS, roots []string, lang string) map[string]string {
	out := map[string]string{}
	if lang == "" {
		return out
	}
	for _, root := range roots {
		for _, ext := range []string{"toml", "yaml", "yml", "json"} {
			p := path.Join(root, "i18n", lang+"."+ext)
			data, err := t.read(fsys, p)
			if err != nil {
				continue
			}
			format := metadecoders.FormatFromString(ext)
			v, err := metadecoders.Default.Unmarshal(data, format)
			if err != nil {
				t.problems = append(t.problems, templateProblem(p, fmt.Errorf("template: %w", err)))
				continue
			}
			addTranslations(out, v)
		}
	}
	return out
}

// addTranslations adds to i18n the keys a decoded file has and it lacks.
func addTranslations(i18n map[string]string, v any) {
	add := func(key string, val any) {
		key = strings.ToLower(key)
		if _, ok := i18n[key]; ok {
			return
		}
		switch val := val.(type) {
		case string:
			i18n[key] = val
		case map[string]any:
			for _, form := range []string{"other", "one"} {
				if s, ok := val[form].(string); ok {
					i18n[key] = s
					return
				}
			}
		}
	}
	switch v := v.(type) {
	case map[string]any:
		for k, val := range v {
			add(k, val)
		}
	case []any:
		for _, e := range v {
			if m, ok := e.(map[string]any); ok {
				if id, ok := m["id"].(string); ok {
					add(id, m["translation"])
				}
			}
		}
	}
}

// translate is T and i18n on a page of lang: its language's
// translation, else the site's language's (Hugo's fallback to the
// default content language), "" for a key without one, as Hugo renders
// a missing translation.
func (t *Templates) translate(key, lang string) string {
	if t == nil {
		return ""
	}
	key = strings.ToLower(key)
	if s, ok := t.langI18n[lang][key]; ok {
		return s
	}
	return t.i18n[key]
}
