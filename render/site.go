package render

import (
	"cmp"
	"fmt"
	"strings"

	"folio/pipeline"
)

// site is the site as templates see it: .Site, Hugo's page.Site, with
// the fields shortcodes use, .Data (the data folder) included. When the
// rendering's resolver is a SiteIndex, the site's pages are there as
// Hugo lists them (.Pages, .RegularPages, .Sections, .Home, .Taxonomies,
// GetPage: sitelists.go); without one (a post rendered on its own) the
// site has no other page.
type site struct {
	st     *state
	opts   *Site
	params map[string]any
}

func (st *state) site() *site {
	root := st.root()
	if root.siteView == nil {
		s := st.r.opts.Site
		if ls := st.r.opts.LangSites[root.post.Lang]; ls != nil {
			s = ls // a page of another language sees its language's site
		}
		if s == nil {
			s = &Site{}
		}
		root.siteView = &site{st: root, opts: s}
	}
	return root.siteView
}

func (s *site) Title() string     { return s.opts.Title }
func (s *site) BaseURL() string   { return s.st.r.baseURL }
func (s *site) Copyright() string { return s.opts.Copyright }

// Params are the site's params; never nil, so .Site.Params.x is nil
// rather than an error when the site has none.
func (s *site) Params() map[string]any {
	if s.params == nil {
		s.params = s.st.r.opts.Templates.aliasKeys(lowerKeys(s.opts.Params)).(map[string]any)
	}
	return s.params
}

// Param looks a (dotted) key up in the site's params.
func (s *site) Param(key string) any { return lookupPath(s.Params(), strings.ToLower(key)) }

// Language is the language of the page's site: in a multilingual site,
// the page's own (a French page's .Site.Language.Lang is "fr", as each
// of Hugo's sites is one language's).
func (s *site) Language() *language { return &language{s.opts} }

// Languages are the site's languages in Hugo's order (weight, then
// code): its own alone for a site of one.
func (s *site) Languages() []*language {
	if len(s.opts.Languages) == 0 {
		return []*language{s.Language()}
	}
	out := make([]*language, len(s.opts.Languages))
	for i, l := range s.opts.Languages {
		out[i] = &language{l}
	}
	return out
}
func (s *site) LanguageCode() string { return s.Language().LanguageCode() }
func (s *site) Lang() string         { return s.Language().Lang() }
func (s *site) IsServer() bool       { return false }

// langPrefix is the folder of the page's language in a multilingual
// site's URLs ("fr"), "" for the default language's at the root.
func (st *state) langPrefix() string {
	six, ok := st.res.(*SiteIndex)
	if !ok {
		return ""
	}
	cfg := six.snap.Config()
	lang := cmp.Or(st.root().post.Lang, cfg.DefaultLanguage)
	if len(cfg.Languages) < 2 || (lang == cfg.DefaultLanguage && !cfg.DefaultLanguageInSubdir) {
		return ""
	}
	return lang
}

// IsMultiLingual reports whether the site has more than one language.
func (s *site) IsMultiLingual() bool { return len(s.st.r.opts.LangSites) > 0 }

// Home is the home page.
func (s *site) Home() any {
	if l := s.st.lists(); l != nil {
		l = l.ready()
		return l.page(l.sections[""])
	}
	return &pageRef{t: Page{URL: s.st.r.baseURL, Title: s.opts.Title, Visible: true}}
}

// Pages, RegularPages and Sections are the site's pages, its regular
// pages and its top sections, in Hugo's default order.
func (s *site) Pages() pageList { return s.list(func(l *siteLists) pageList { return l.global().all }) }
func (s *site) RegularPages() pageList {
	return s.list(func(l *siteLists) pageList { return l.global().regular })
}
func (s *site) Sections() pageList {
	return s.list(func(l *siteLists) pageList {
		l = l.kids()
		return l.childrenOf(l.sections[""]).sections
	})
}

func (s *site) list(f func(*siteLists) pageList) pageList {
	if l := s.st.lists(); l != nil {
		return f(l)
	}
	return pageList{}
}

// Taxonomies are the site's taxonomies (taxonomy.go).
func (s *site) Taxonomies() map[string]taxonomy {
	if l := s.st.lists(); l != nil {
		return l.termLists().terms
	}
	return map[string]taxonomy{}
}

// Data is the site's data folder (data/*.yaml, .toml, .json).
func (s *site) Data() map[string]any {
	if t := s.st.r.opts.Templates; t != nil && t.data != nil {
		return t.data
	}
	return map[string]any{}
}
func (s *site) Hugo() hugoInfo { return hugoInfo{multi: s.IsMultiLingual()} }

// GetPage finds a page by its path from the content root, else by its
// name; nil when none. As Hugo's, it takes the old forms too:
// "home", "section" "posts" (two arguments, the second the path).
func (s *site) GetPage(ref ...string) (any, error) {
	var refs []string
	for _, r := range ref {
		if r != "" && r != "/" {
			refs = append(refs, r)
		}
	}
	key := "/"
	switch {
	case len(refs) > 2:
		return nil, fmt.Errorf("too many arguments to .Site.GetPage: %v. Use lookups on the form {{ .Site.GetPage \"/posts/mypage-md\" }}", ref)
	case len(refs) == 0 || refs[0] == pipeline.KindHome:
	case len(refs) == 1 && len(ref) == 2 && refs[0] == pipeline.KindSection:
	case len(refs) == 1:
		key = refs[0]
	default:
		key = refs[1]
	}
	return s.st.getPage(key, siteGetLookup)
}

// language is .Site.Language.
type language struct{ s *Site }

func (l *language) Lang() string {
	if l.s.Language != "" {
		return l.s.Language
	}
	return "en"
}
func (l *language) LanguageName() string { return l.s.LanguageName }
func (l *language) Label() string        { return l.s.LanguageName }
func (l *language) Weight() int          { return l.s.Weight }
func (l *language) LanguageCode() string {
	if l.s.LanguageCode != "" {
		return l.s.LanguageCode
	}
	return l.Lang()
}
func (l *language) Locale() string            { return l.LanguageCode() }
func (l *language) LanguageDirection() string { return l.s.LanguageDirection }
func (l *language) Direction() string         { return l.s.LanguageDirection }
func (l *language) String() string            { return l.Lang() }

// hugoInfo is the hugo function's value and .Site.Hugo: the Hugo version
// folio follows, as a site's templates expect to find it; multi reports
// a multilingual site.
type hugoInfo struct{ multi bool }

func (h hugoInfo) IsMultilingual() bool { return h.multi }

func (hugoInfo) Version() string     { return "0.165.0" }
func (hugoInfo) Environment() string { return "production" }
func (hugoInfo) IsProduction() bool  { return true }
func (hugoInfo) IsDevelopment() bool { return false }
func (hugoInfo) IsServer() bool      { return false }
func (hugoInfo) IsExtended() bool    { return false }
func (hugoInfo) Generator() string   { return `<meta name="generator" content="Hugo 0.165.0">` }
func (hugoInfo) CommitHash() string  { return "" }
func (hugoInfo) BuildDate() string   { return "" }
func (hugoInfo) WorkingDir() string  { return "" }
func (hugoInfo) IsMultihost() bool   { return false }
func (hugoInfo) GoVersion() string   { return "" }
func (h hugoInfo) String() string    { return h.Version() }
