package render

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"folio/pipeline"

	"golang.org/x/text/collate"
)

// .Site.Taxonomies as Hugo 0.165 makes it (page.TaxonomyList): each
// taxonomy by plural, each of its terms by the term lower-cased, each
// term's pages with their weight in the taxonomy (front matter
// <plural>_weight), lightest first, then in the default order.

// taxonomy is one taxonomy's terms: Hugo's page.Taxonomy.
type taxonomy map[string]weightedPages

// weightedPages are a term's pages: Hugo's page.WeightedPages.
type weightedPages []weightedPage

// weightedPage is a page of a term with its weight in the taxonomy; it
// is the page too (.Title, .Permalink…), as Hugo's is.
type weightedPage struct {
	*sitePage
	Weight int
	owner  *sitePage // the term's page
}

// makeTaxonomies makes .Site.Taxonomies from the term pages.
func (l *siteLists) makeTaxonomies() {
	l.terms = map[string]taxonomy{}
	for _, lang := range l.six.snap.Config().Languages {
		if lang.Code != l.lang {
			continue
		}
		for _, t := range lang.Taxonomies {
			l.terms[t.Plural] = taxonomy{}
		}
	}
	for pg, c := range l.children {
		if pg.Kind != pipeline.KindTerm || !listedGlobally(pg) || len(c.pages) == 0 {
			continue
		}
		tax := l.terms[pg.Taxonomy]
		if tax == nil {
			continue
		}
		owner := l.page(pg)
		var wp weightedPages
		for _, p := range c.pages {
			wp = append(wp, weightedPage{sitePage: p, Weight: termWeight(p.post(), pg.Taxonomy), owner: owner})
		}
		slices.SortStableFunc(wp, func(a, b weightedPage) int {
			if a.Weight != b.Weight {
				return cmp.Compare(a.Weight, b.Weight)
			}
			return compareKeys(&a.key, &b.key)
		})
		tax[strings.ToLower(pg.Term)] = wp
	}
}

// Page is the weighted page's page.
func (w weightedPage) Page() *sitePage { return w.sitePage }

// Pages are the pages, in order.
func (wp weightedPages) Pages() pageList {
	out := make(pageList, len(wp))
	for i, w := range wp {
		out[i] = w.sitePage
	}
	return out
}

// Count and Len are the number of pages.
func (wp weightedPages) Count() int { return len(wp) }
func (wp weightedPages) Len() int   { return len(wp) }

// Page is the term's page.
func (wp weightedPages) Page() *sitePage {
	if len(wp) == 0 {
		return nil
	}
	return wp[0].owner
}

// Get is a term's pages; Count their number.
func (t taxonomy) Get(term string) weightedPages { return t[strings.ToLower(term)] }
func (t taxonomy) Count(term string) int         { return len(t[strings.ToLower(term)]) }

// Page is the taxonomy's page, nil when it has no terms.
func (t taxonomy) Page() *sitePage {
	for _, wp := range t {
		if p := wp.Page(); p != nil {
			return p.Parent()
		}
	}
	return nil
}

// orderedTaxonomy is a taxonomy as a list: Hugo's page.OrderedTaxonomy.
type orderedTaxonomy []orderedTaxonomyEntry

// orderedTaxonomyEntry is a term and its pages.
type orderedTaxonomyEntry struct {
	Name string
	weightedPages
}

// Term is the term; Count the number of its pages; Pages its pages.
func (e orderedTaxonomyEntry) Term() string    { return e.Name }
func (e orderedTaxonomyEntry) Count() int      { return len(e.weightedPages) }
func (e orderedTaxonomyEntry) Pages() pageList { return e.weightedPages.Pages() }

// TaxonomyArray is the terms in key order (Hugo's is a map's: any).
func (t taxonomy) TaxonomyArray() orderedTaxonomy {
	out := make(orderedTaxonomy, 0, len(t))
	for _, k := range slices.Sorted(maps.Keys(t)) {
		out = append(out, orderedTaxonomyEntry{Name: k, weightedPages: t[k]})
	}
	return out
}

// Alphabetical is the terms by name, in the language's collation.
func (t taxonomy) Alphabetical() orderedTaxonomy {
	out := t.TaxonomyArray()
	if len(out) == 0 {
		return out
	}
	coll := collate.New(out[0].weightedPages[0].l.tag) // a term has pages
	slices.SortStableFunc(out, func(a, b orderedTaxonomyEntry) int { return coll.CompareString(a.Name, b.Name) })
	return out
}

// ByCount is the terms with the most pages first, then by name.
func (t taxonomy) ByCount() orderedTaxonomy {
	out := t.TaxonomyArray()
	slices.SortStableFunc(out, func(a, b orderedTaxonomyEntry) int {
		if c := cmp.Compare(len(b.weightedPages), len(a.weightedPages)); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// Reverse is the list in reverse order.
func (o orderedTaxonomy) Reverse() orderedTaxonomy {
	out := slices.Clone(o)
	slices.Reverse(out)
	return out
}
