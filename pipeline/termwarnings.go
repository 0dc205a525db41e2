package pipeline

import (
	"slices"
	"strings"
)

// emptyTermWarnings are the warnings about empty entries in a page's
// taxonomy lists (tags: [go, ""], a "- " alone): Hugo drops them, and so
// does folio, saying so.
func (s *Snapshot) emptyTermWarnings(p *Post) []Problem {
	var room [8]string // a post's read makes no list of the keys
	keys := append(room[:0], "tags", "categories")
	for _, t := range s.config.Taxonomies {
		keys = append(keys, strings.ToLower(t.Plural))
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	var out []Problem
	for _, k := range keys {
		list, ok := p.Params[k].([]any)
		if !ok {
			continue
		}
		if slices.ContainsFunc(list, nested) {
			out = append(out, Problem{Path: s.display(p.File), Line: 1, Severity: Warning,
				Message: "front matter: " + k + ": an entry is a list or a table, not a term: Hugo makes no term of the whole list, and nor does folio"})
			continue
		}
		for _, e := range list {
			if str, isString := e.(string); e == nil || isString && strings.TrimSpace(str) == "" {
				out = append(out, Problem{Path: s.display(p.File), Line: 1, Severity: Warning,
					Message: "front matter: " + k + ": an empty entry is left out, as Hugo leaves it out"})
				break
			}
		}
	}
	return out
}
