package pipeline

import (
	"path"
	"strings"
)

// EmbeddedLinkHooks reports whether Hugo 0.165 renders Markdown links
// and images with its embedded render hooks when the site has none of
// its own (markup.goldmark.renderHooks.{link,image}.useEmbedded): "auto",
// the default, turns them on for a multilingual site (folio knows no
// multihost one) unless duplicateResourceFiles is set; "fallback" and
// "always" turn them on, "never" off.
func (c *Config) EmbeddedLinkHooks() (link, image bool) {
	multi := len(c.Languages) > 1 && !c.Markup.Goldmark.DuplicateResourceFiles
	mode := func(kind string) bool {
		switch strings.ToLower(configString(c.Markup.Goldmark.RenderHooks, kind, "useEmbedded")) {
		case "fallback", "always":
			return true
		case "never":
			return false
		}
		return multi
	}
	return mode("link"), mode("image")
}

// configString is the string at keys (matched in any case) in a decoded
// configuration table, "" when there is none.
func configString(v any, keys ...string) string {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		v = nil
		for mk, mv := range m {
			if strings.EqualFold(mk, k) {
				v = mv
				break
			}
		}
	}
	s, _ := v.(string)
	return s
}

// BundleFile is where the site publishes the file of p's bundle that
// Hugo 0.165's .Resources.Get(name) finds on p's page (the embedded link
// and image hooks' lookup), unescaped from the site root
// ("/fr/posts/x/pic.fr.png"); ok is false when it finds none. A page's
// resources are the bundle's files of its own language and, for each
// name (without its language: pic.fr.png is pic.png) that its language
// has no file of, the file of the first other language, in the site's
// order, that publishes it; name, in any case, is such a file's name
// with or without its language. A file no page publishes is none.
func (s *Snapshot) BundleFile(p *Post, name string) (file string, ok bool) {
	if p == nil || p.Bundle == "" || p.Kind != KindPage || name == "" {
		return "", false
	}
	cm, ok := s.config.mountOfAs(p.File, false)
	if !ok {
		return "", false
	}
	name = strings.ToLower(name)
	bareQuery := strings.ToLower(s.config.bareName(name))
	// The bundle's files whose name, with or without its language, is
	// name, and those of name's own name without language (pic.png for
	// pic.fr.png), which may hide it: an English page whose pic.png is
	// its own has no pic.fr.png.
	type cand struct{ rel, lang, bare string }
	var found []cand
	for _, r := range p.Resources {
		if isContentFile(path.Base(r)) {
			continue
		}
		lang, ok := s.config.fileLang(cm, r)
		if !ok {
			continue
		}
		bare := strings.ToLower(s.config.bareName(r))
		if bare == name || bare == bareQuery || strings.ToLower(r) == name {
			found = append(found, cand{r, lang, bare})
		}
	}
	// Of each name without language the page has one file: its own
	// language's, else the first other language's that is published.
	langs := make([]string, 0, len(s.config.Languages))
	langs = append(langs, p.Lang)
	for _, l := range s.config.Languages {
		if l.Code != p.Lang {
			langs = append(langs, l.Code)
		}
	}
	have := map[string]bool{} // bare names the page's resources already hold
	for _, lang := range langs {
		for _, c := range found {
			if c.lang != lang || have[c.bare] {
				continue
			}
			route := s.bundleFileRoute(p, c.rel, lang)
			if route == "" {
				continue // no page of its language publishes it
			}
			have[c.bare] = true
			if c.bare == name || strings.ToLower(c.rel) == name {
				return route, true
			}
		}
	}
	return "", false
}

// bareName is a bundle file's path without the language its name
// carries ("img/pic.fr.png" is "img/pic.png").
func (c *Config) bareName(rel string) string {
	base := path.Base(rel)
	cn := c.parseContentName(base)
	if cn.lang == "" {
		return rel
	}
	return path.Join(path.Dir(rel), cn.base+path.Ext(base))
}

// bundleFileRoute is the path of the route of p's bundle file rel when
// lang's page of the bundle publishes it, "" otherwise.
func (s *Snapshot) bundleFileRoute(p *Post, rel, lang string) string {
	file := p.Bundle + "/" + rel
	var pages []*Page
	if lang == p.Lang {
		pages = append(pages, s.PageOf(p))
	} else {
		for _, k := range s.unitsBelow(p.Bundle) {
			u := unitAt(s.units, k)
			if u == nil || u.post == nil || u.post.Bundle != p.Bundle || u.post.Lang != lang || u.post.Kind != KindPage {
				continue
			}
			pages = append(pages, s.PageOf(u.post))
		}
	}
	for _, pg := range pages {
		if pg == nil || pg.File == "" {
			continue
		}
		route := "/" + path.Join(resourceBase(pg.File), rel)
		if r, ok := s.Route(route); ok && r.Kind == RouteFile && r.File == file {
			return route
		}
	}
	return ""
}
