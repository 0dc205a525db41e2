package pipeline

import (
	"maps"
	"slices"
	"strings"
)

// This file makes the next site model from the previous one when only
// regular pages changed, as a save in folio dev does: the changed pages
// get their routes again, and only the lists they are in (their section,
// the home page, their terms) are made anew, by splicing them in and out
// of the sorted lists; every other page, list and term is shared. A
// change only a full build settles (a section or taxonomy file, a term
// that comes or goes, a contested path, the main section moving) returns
// nil, and the snapshot builds the model afresh. TestPatchEqualsAssemble
// holds the two to the same result.

// postChange is one content file's visible page before and after an
// update; nil when it was or is not visible.
type postChange struct{ old, new *Post }

// patch returns the model with the changes, or nil.
func (m *siteModel) patch(in siteInput, changes []postChange) *siteModel {
	n := &siteModel{langs: slices.Clone(m.langs), routes: m.routes.Next(), pagers: m.pagers, contested: m.contested, clashes: m.clashes, hiddenAliases: m.hiddenAliases, staticTwins: m.staticTwins, ownFiles: m.ownFiles}
	copied := map[string]*langModel{}
	for _, c := range changes {
		p := c.new
		if p == nil {
			p = c.old
		}
		if p == nil {
			continue
		}
		if !regularPost(c.old) || !regularPost(c.new) || (c.old != nil && c.new != nil && (c.old.Lang != c.new.Lang || c.old.Dir != c.new.Dir)) {
			return nil
		}
		l := copied[p.Lang]
		if l == nil {
			old := m.lang(p.Lang)
			if old == nil {
				return nil
			}
			l = old.clone()
			copied[p.Lang] = l
			n.langs[slices.Index(n.langs, old)] = l
		}
		l.in, l.m = &in, n
		ok := l.patchPage(c)
		l.in, l.m = nil, nil
		if !ok {
			return nil
		}
	}
	return n
}

// regularPost reports whether p (nil counts) is a regular page's file.
func regularPost(p *Post) bool { return p == nil || p.Kind == KindPage }

// clone copies a language's model for a patch: the maps are new, the
// pages shared until replaced.
func (l *langModel) clone() *langModel {
	c := *l
	c.sections = maps.Clone(l.sections)
	c.regular = l.regular.Next()
	c.terms = maps.Clone(l.terms)
	c.taxonomies = maps.Clone(l.taxonomies)
	c.counts = maps.Clone(l.counts)
	c.termRefs = maps.Clone(l.termRefs)
	return &c
}

// patchPage replaces a regular page; false when it cannot be patched.
func (l *langModel) patchPage(c postChange) bool {
	var oldPg, newPg *Page
	if c.old != nil {
		oldPg, _ = l.regular.Get(c.old)
		l.regular.Del(c.old)
	}
	if c.new != nil {
		if l.isTaxonomyFile(c.new) || c.new.Build.Render == "never" || (c.old != nil && c.old.Build.Render == "never") {
			return false
		}
		newPg = l.regularPage(c.new)
		newPg.Pagers = 1
		l.regular.Set(c.new, newPg)
	}
	if c.old != nil && oldPg == nil {
		return false // a file of a taxonomy folder before
	}
	if (c.old != nil && len(c.old.Menus) > 0) || (c.new != nil && len(c.new.Menus) > 0) {
		menus := slices.DeleteFunc(slices.Clone(l.menuPages), func(pg *Page) bool { return pg == oldPg })
		if c.new != nil && len(c.new.Menus) > 0 {
			menus = append(menus, newPg)
		}
		l.menuPages = menus
	}
	if (c.new != nil && !l.hasSection(c.new)) || (c.old != nil && l.lastOfSection(c.old)) {
		return false // a top section comes with its first page, or goes with its last
	}
	if !l.patchMain(oldPg, newPg) || !l.patchRoutes(oldPg, newPg) || !l.patchTerms(oldPg, newPg) {
		return false
	}
	l.patchSectionList(oldPg, newPg)
	l.patchHomeList(oldPg, newPg)
	return true
}

// topSection is the top-level folder of a content file's page, "" for
// one at the root or in a taxonomy's folder (which makes no section).
func (l *langModel) topSection(p *Post) string {
	top, _, _ := strings.Cut(p.Dir, "/")
	if l.isTaxonomyDir(top) {
		return ""
	}
	return top
}

// hasSection reports whether the model has the top section of p's page.
func (l *langModel) hasSection(p *Post) bool {
	top := l.topSection(p)
	return top == "" || l.sections[top] != nil
}

// lastOfSection reports whether p's page is the last thing keeping its
// top section: a section with no _index and no subsection exists only
// while it has a page.
func (l *langModel) lastOfSection(p *Post) bool {
	top := l.topSection(p)
	sec := l.sections[top]
	if top == "" || sec == nil || sec.Post != nil || len(sec.Sections) > 0 {
		return false
	}
	for other := range l.regular.All {
		if other != p && l.topSection(other) == top {
			return false
		}
	}
	return true
}

// patchMain keeps the page counts per section; false when the main
// section, chosen by them, moves.
func (l *langModel) patchMain(oldPg, newPg *Page) bool {
	if l.counts == nil {
		return true // configured main sections
	}
	for _, d := range []struct {
		pg    *Page
		delta int
	}{{oldPg, -1}, {newPg, 1}} {
		if d.pg == nil {
			continue
		}
		if top, _, _ := strings.Cut(d.pg.Section, "/"); top != "" {
			l.counts[top] += d.delta
			if l.counts[top] == 0 {
				delete(l.counts, top)
			}
		}
	}
	return slices.Equal(mostPages(l.counts), l.main)
}

// patchRoutes takes the old page's routes out and puts the new page's
// in; false when a path is contested or taken by another page.
func (l *langModel) patchRoutes(oldPg, newPg *Page) bool {
	routes := &l.m.routes
	if oldPg != nil {
		for _, r := range l.pageRoutes(oldPg) {
			if l.m.contested[r.Path] {
				return false
			}
			if cur, ok := routes.Get(r.Path); ok && cur.owner == oldPg {
				routes.Del(r.Path)
			}
		}
	}
	if newPg != nil {
		for _, r := range l.pageRoutes(newPg) {
			if l.m.contested[r.Path] || r.Path == notFoundPath {
				return false
			}
			if _, taken := routes.Get(r.Path); taken {
				return false
			}
			if r.Kind == RoutePage {
				// A static file at the page's Markdown twin path answers
				// there and is the page's Markdown, with a warning, as a
				// full assemble says (siteModel.staticTwin).
				if f, ok := routes.Get(TwinPath(r.Path)); ok && f.Kind == RouteFile && r.Path != "/" {
					return false
				}
			}
			if strings.HasSuffix(r.Path, "/") {
				// A static folder's index.html is answered at the
				// folder's URL: an alias there is hidden, with a warning,
				// and a page there hides the file at both URLs, as a full
				// assemble makes them (siteModel's static files).
				if f, ok := routes.Get(r.Path + "index.html"); ok && f.Kind == RouteFile {
					return false
				}
			}
			if _, taken := l.m.pagerRoute(l.cfg, r.Path); taken {
				return false
			}
			routes.Set(r.Path, r)
		}
	}
	return true
}

// listedIn reports whether a page is in lists.
func listedIn(pg *Page) bool { return pg != nil && pg.Post.Build.Listed() }

// patchSectionList replaces the page in its section's list.
func (l *langModel) patchSectionList(oldPg, newPg *Page) {
	var sec string
	switch {
	case newPg != nil:
		sec = newPg.Section
	case oldPg != nil:
		sec = oldPg.Section
	}
	if sec == "" {
		return
	}
	list := l.sections[sec]
	pages := splicePages(list.Pages, oldPg, newPg)
	l.replaceSection(list, l.withPages(list, pages))
}

// patchHomeList replaces the page in the home page's list when it is in
// a main section.
func (l *langModel) patchHomeList(oldPg, newPg *Page) {
	inMain := func(pg *Page) bool {
		if pg == nil {
			return false
		}
		top, _, _ := strings.Cut(pg.Section, "/")
		return top != "" && slices.Contains(l.main, top)
	}
	if !inMain(oldPg) && !inMain(newPg) {
		return
	}
	home := l.sections[""]
	o, n := oldPg, newPg
	if !inMain(o) {
		o = nil
	}
	if !inMain(n) {
		n = nil
	}
	l.replaceSection(home, l.withPages(home, splicePages(home.Pages, o, n)))
}

// patchTerms replaces the page in its terms' lists; false when a term
// comes or goes, or the page spells a term otherwise than the term page
// does (whose title the first spelling gives).
func (l *langModel) patchTerms(oldPg, newPg *Page) bool {
	for _, t := range l.lang.Taxonomies {
		oldT, newT := l.termKeys(oldPg, t.Plural), l.termKeys(newPg, t.Plural)
		terms := l.terms[t.Plural]
		for key, term := range newT {
			if terms[key] == nil || !slices.Contains(terms[key].Spellings, term) || (pageFile(newPg) < terms[key].firstFile && terms[key].Term != term) {
				return false // a new term, or spelling (whose first may title it)
			}
		}
		for key, term := range oldT {
			if tp := terms[key]; tp != nil && tp.Term == term && tp.firstFile == pageFile(oldPg) && newT[key] != term {
				return false // the page that titles the term spells it otherwise now
			}
		}
		if len(oldT) == 0 && len(newT) == 0 {
			continue
		}
		refs := maps.Clone(l.termRefs[t.Plural])
		for key := range oldT {
			refs[key]--
		}
		for key := range newT {
			refs[key]++
		}
		l.termRefs = maps.Clone(l.termRefs)
		l.termRefs[t.Plural] = refs
		keys := slices.Sorted(maps.Keys(oldT))
		keys = slices.Compact(slices.Sorted(slices.Values(append(keys, slices.Collect(maps.Keys(newT))...))))
		for _, key := range keys {
			term := terms[key]
			if term == nil || (refs[key] == 0 && term.Post == nil) {
				return false // the term goes
			}
			var o, n *Page
			if _, ok := oldT[key]; ok && listedIn(oldPg) {
				o = oldPg
			}
			if _, ok := newT[key]; ok && listedIn(newPg) {
				n = newPg
			}
			if o != nil || n != nil {
				l.replaceTerm(t.Plural, key, term, l.withPages(term, splicePages(term.Pages, o, n)))
				terms = l.terms[t.Plural]
			}
		}
	}
	return true
}

// termKeys are a page's terms of a taxonomy, by key, as spelled.
func (l *langModel) termKeys(pg *Page, plural string) map[string]string {
	out := map[string]string{}
	if pg == nil {
		return out
	}
	for _, term := range pg.Post.Terms[plural] {
		if _, ok := out[l.termKey(term)]; !ok {
			out[l.termKey(term)] = term
		}
	}
	return out
}

// splicePages returns pages without old and with new in its place in
// Hugo's order; pages itself is not modified.
func splicePages(pages []*Page, old, new *Page) []*Page {
	out := make([]*Page, 0, len(pages)+1)
	for _, pg := range pages {
		if pg != old {
			out = append(out, pg)
		}
	}
	if new != nil {
		i, _ := slices.BinarySearchFunc(out, new, comparePages)
		out = slices.Insert(out, i, new)
	}
	return out
}

// withPages is a copy of a list page with other pages (and so maybe
// another number of pagers).
func (l *langModel) withPages(list *Page, pages []*Page) *Page {
	c := *list
	c.Pages = pages
	c.Pagers = l.pagers(&c)
	return &c
}

// replaceSection puts a new version of a home or section page in place:
// in the sections, its routes, its pagers, and its parent's subsections
// (which makes a new parent, and so on up).
func (l *langModel) replaceSection(old, new *Page) {
	l.sections[new.Section] = new
	l.repoint(old, new)
	if new.Section == "" {
		return
	}
	parent := l.currentSection(parentDir(new.Section))
	if i := slices.Index(parent.Sections, old); i >= 0 {
		p := *parent
		p.Sections = slices.Clone(parent.Sections)
		p.Sections[i] = new
		l.replaceSection(parent, &p)
	}
}

// replaceTerm puts a new version of a term page in place, and a new
// version of its taxonomy page listing it.
func (l *langModel) replaceTerm(plural, key string, old, new *Page) {
	terms := maps.Clone(l.terms[plural])
	terms[key] = new
	l.terms[plural] = terms
	l.repoint(old, new)
	if tax := l.taxonomies[plural]; tax != nil {
		if i := slices.Index(tax.Pages, old); i >= 0 {
			t := *tax
			t.Pages = slices.Clone(tax.Pages)
			t.Pages[i] = new
			l.taxonomies[plural] = &t
			l.repoint(tax, &t)
		}
	}
}

// repoint moves a list page's routes and pagers to its new version.
func (l *langModel) repoint(old, new *Page) {
	m := l.m
	if old.Rendered {
		for _, r := range l.listRoutes(old) {
			if cur, ok := m.routes.Get(r.Path); ok && cur.owner == old {
				cur.owner = new
				if cur.Page == old {
					cur.Page = new
				}
				if cur.Kind == RouteAlias {
					cur.Target = new.Path
				}
				m.routes.Set(r.Path, cur)
			}
		}
	}
	if old.pagerKey != "" && m.pagers[old.pagerKey] == old {
		if !m.ownPagers {
			m.pagers = maps.Clone(m.pagers)
			m.ownPagers = true
		}
		m.pagers[old.pagerKey] = new
	}
}
