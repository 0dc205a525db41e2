package render

import (
	"cmp"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"folio/pipeline"
)

// MarkupOf is the rendering side of the site's markup configuration, as
// the config loader read it (Hugo's markup table and enableEmoji).
func MarkupOf(cfg *pipeline.Config) *Markup {
	g, h := cfg.Markup.Goldmark, cfg.Markup.Highlight
	ext := g.Extensions
	t := ext.Typographer
	return &Markup{
		HardWraps: g.Renderer.HardWraps,
		Typographer: Typographer{
			Disable:          t.Disable,
			LeftSingleQuote:  t.LeftSingleQuote,
			RightSingleQuote: t.RightSingleQuote,
			LeftDoubleQuote:  t.LeftDoubleQuote,
			RightDoubleQuote: t.RightDoubleQuote,
			EnDash:           t.EnDash,
			EmDash:           t.EmDash,
			Ellipsis:         t.Ellipsis,
			LeftAngleQuote:   t.LeftAngleQuote,
			RightAngleQuote:  t.RightAngleQuote,
			Apostrophe:       t.Apostrophe,
		},
		Footnote:        ext.Footnote.Enable,
		DefinitionList:  ext.DefinitionList,
		Table:           ext.Table,
		Strikethrough:   ext.Strikethrough,
		Linkify:         ext.Linkify,
		TaskList:        ext.TaskList,
		LinkifyProtocol: ext.LinkifyProtocol,
		Emoji:           cfg.EnableEmoji,
		Extras: Extras{
			Delete:      ext.Extras.Delete.Enable,
			Insert:      ext.Extras.Insert.Enable,
			Mark:        ext.Extras.Mark.Enable,
			Subscript:   ext.Extras.Subscript.Enable,
			Superscript: ext.Extras.Superscript.Enable,
		},
		Passthrough: Passthrough{
			Enable: ext.Passthrough.Enable,
			Inline: delimiterPairs(ext.Passthrough.Delimiters.Inline),
			Block:  delimiterPairs(ext.Passthrough.Delimiters.Block),
		},
		CJK: CJK{
			Enable:              ext.CJK.Enable,
			EastAsianLineBreaks: ext.CJK.EastAsianLineBreaks,
			Style:               ext.CJK.EastAsianLineBreaksStyle,
			EscapedSpace:        ext.CJK.EscapedSpace,
		},
		TOCStart:       cfg.Markup.TableOfContents.StartLevel,
		TOCEnd:         cfg.Markup.TableOfContents.EndLevel,
		TOCOrdered:     cfg.Markup.TableOfContents.Ordered,
		AutoHeadingID:  g.Parser.AutoHeadingID,
		AutoIDType:     g.Parser.AutoIDType,
		AttributeTitle: g.Parser.Attribute.Title,
		AttributeBlock: g.Parser.Attribute.Block,
		Highlight: Highlight{
			Style:              styleOf(h.Style),
			CodeFences:         h.CodeFences,
			GuessSyntax:        h.GuessSyntax,
			LineNos:            h.LineNos,
			LineNumbersInTable: h.LineNumbersInTable,
			AnchorLineNos:      h.AnchorLineNos,
			LineAnchors:        h.LineAnchors,
			LineNoStart:        h.LineNoStart,
			HlLines:            h.HlLines,
			TabWidth:           h.TabWidth,
			WrapperClass:       h.WrapperClass,
		},
	}
}

// delimiterPairs are the passthrough delimiters of the configuration:
// the first two strings of each entry (the loader refused shorter ones).
func delimiterPairs(ds [][]string) [][2]string {
	var out [][2]string
	for _, d := range ds {
		if len(d) >= 2 {
			out = append(out, [2]string{d[0], d[1]})
		}
	}
	return out
}

// HighlightStyle is the chroma style of the site's code colours, "" for
// folio's own light and dark pair (see styleOf).
func HighlightStyle(cfg *pipeline.Config) string { return styleOf(cfg.Markup.Highlight.Style) }

// styleOf keeps folio's own light and dark pair for Hugo's default style,
// which a site that never chose one did not ask for.
func styleOf(style string) string {
	if style == pipeline.DefaultMarkup().Highlight.Style {
		return ""
	}
	return style
}

// OptionsFor is the rendering side of the site's configuration: the base
// URL and section, markup, what templates see of the site, the summary
// length, and the site's own templates read from site (its root folder,
// nil for none).
func OptionsFor(cfg *pipeline.Config, site fs.FS) Options {
	o := Options{
		BaseURL:       cfg.BaseURL,
		Section:       cfg.Section,
		Unsafe:        cfg.Markup.Unsafe,
		Markup:        MarkupOf(cfg),
		Site:          SiteOf(cfg),
		LangSites:     langSites(cfg),
		SummaryLength: cfg.SummaryLength,

		RefLinksNotFoundURL: cfg.RefLinksNotFoundURL,
		RefLinksWarning:     cfg.RefLinksWarning,
		InlineShortcodes:    cfg.EnableInlineShortcodes,
	}
	if o.LangSites != nil {
		// Every language's site knows them all, in Hugo's order.
		all := make([]*Site, 0, len(cfg.Languages))
		for _, l := range cfg.Languages {
			all = append(all, cmp.Or(o.LangSites[l.Code], o.Site))
		}
		for _, s := range all {
			s.Languages = all
		}
	}
	if site != nil {
		o.Templates = LoadTemplates(site, cfg.Themes, o.Site.Language, slices.Sorted(maps.Keys(o.LangSites))...)
	}
	return o
}

// SiteOf is what templates see of the site (.Site) in its configuration.
func SiteOf(cfg *pipeline.Config) *Site {
	s := &Site{Title: cfg.Title, Copyright: cfg.Copyright, Params: cfg.Params, Language: cfg.Language, LanguageCode: cfg.Language}
	for _, l := range cfg.Languages {
		if l.Default || len(cfg.Languages) == 1 {
			s.Language, s.LanguageName, s.LanguageDirection, s.Weight = l.Code, l.Label, l.Direction, l.Weight
			s.LanguageCode = cmp.Or(l.Locale, l.Code)
			if l.Title != "" {
				s.Title = l.Title
			}
			break
		}
	}
	return s
}

// langSites are what the pages of each language other than SiteOf's see
// of the site: the language's title and params (its own over the
// site's), names and locale; nil for a site of one language.
func langSites(cfg *pipeline.Config) map[string]*Site {
	if len(cfg.Languages) < 2 {
		return nil
	}
	def := SiteOf(cfg).Language
	out := map[string]*Site{}
	for _, l := range cfg.Languages {
		if l.Code != def {
			out[l.Code] = &Site{Title: cmp.Or(l.Title, cfg.Title), Copyright: cfg.Copyright, Params: l.Params,
				Language: l.Code, LanguageName: l.Label, LanguageDirection: l.Direction, LanguageCode: cmp.Or(l.Locale, l.Code), Weight: l.Weight}
		}
	}
	return out
}

// SiteProblems are the problems of a Hugo site's own templates, i18n and
// data files (a template that does not parse, a data file that does not
// decode), each at its file, joined to the site's folder, and line.
func SiteProblems(cfg *pipeline.Config) []pipeline.Problem {
	if cfg.Source == "" {
		return nil
	}
	ps := LoadTemplates(os.DirFS(cfg.Source), cfg.Themes, SiteOf(cfg).Language, slices.Sorted(maps.Keys(langSites(cfg)))...).Problems()
	for i := range ps {
		ps[i].Path = filepath.Join(cfg.Source, filepath.FromSlash(ps[i].Path))
	}
	return ps
}
