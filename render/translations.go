package render

import (
	"slices"

	"folio/pipeline"
)

// Translations are linked as Hugo 0.165 links them: pages of different
// languages are translations of each other when they have the same
// translationKey, the front matter's or, without one, their path in the
// content (posts/a.md and posts/a.fr.md, or posts/a.md of a content
// mount with lang en and of one with lang fr). .Translations are the
// other languages' pages, .AllTranslations the page's own too, both in
// the languages' order.

// translationKey is a page's translation key: its translationKey, else
// its Hugo path; "" for a page that has neither.
func translationKey(pg *pipeline.Page) string {
	if p := pg.Post; p != nil {
		if p.TranslationKey != "" {
			return p.TranslationKey
		}
		return pagePath(p)
	}
	return listKey(pg)
}

// translations are the pages of each translation key, one a language,
// in the languages' order: made once per index, on first use.
func (six *SiteIndex) translationsOf(pg *pipeline.Page) []*pipeline.Page {
	six.transOnce.Do(func() {
		order := map[string]int{}
		for i, l := range six.snap.Config().Languages {
			order[l.Code] = i
		}
		six.trans = map[string][]*pipeline.Page{}
		for _, p := range six.snap.Pages() {
			if p.Hidden {
				continue
			}
			key := p.Kind + "\x00" + translationKey(p)
			ps := six.trans[key]
			if slices.ContainsFunc(ps, func(q *pipeline.Page) bool { return q.Lang == p.Lang }) {
				continue // the language's first page of the key is its translation
			}
			i, _ := slices.BinarySearchFunc(ps, order[p.Lang], func(q *pipeline.Page, o int) int { return order[q.Lang] - o })
			six.trans[key] = slices.Insert(ps, i, p)
		}
	})
	key := pg.Kind + "\x00" + translationKey(pg)
	if ps := six.trans[key]; slices.Contains(ps, pg) {
		return ps
	}
	return []*pipeline.Page{pg}
}

// AllTranslations are the page and its translations, in the languages'
// order.
func (p *sitePage) AllTranslations() pageList {
	var out pageList
	for _, pg := range p.l.six.translationsOf(p.pg) {
		out = append(out, p.l.six.lists(pg.Lang, p.l.r).page(pg))
	}
	return out
}

// Translations are the page's translations, without the page.
func (p *sitePage) Translations() pageList {
	return slices.DeleteFunc(p.AllTranslations(), func(q *sitePage) bool { return q.pg == p.pg })
}

// IsTranslated reports whether the page has a translation.
func (p *sitePage) IsTranslated() bool { return len(p.l.six.translationsOf(p.pg)) > 1 }

// TranslationKey is the key that links the page to its translations.
func (p *sitePage) TranslationKey() string { return translationKey(p.pg) }

// translationFile is where the site publishes the file named name of the
// bundle of one of p's translations that is in a folder of its own (a
// content mount of its language), the first in the languages' order
// that has one (pipeline.Snapshot.BundleFile).
func (six *SiteIndex) translationFile(p *pipeline.Post, name string) (string, bool) {
	pg := six.snap.PageOf(p)
	if pg == nil || p.Bundle == "" {
		return "", false
	}
	for _, t := range six.translationsOf(pg) {
		if t.Post == nil || t.Post.Bundle == "" || t.Post.Bundle == p.Bundle {
			continue
		}
		if file, ok := six.snap.BundleFile(t.Post, name); ok {
			return file, true
		}
	}
	return "", false
}
