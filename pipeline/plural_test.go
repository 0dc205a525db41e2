package pipeline

import (
	"strings"
	"testing"

	"github.com/gobuffalo/flect"
)

// TestPluralizeIsFlect holds pluralize to flect's Pluralize (Hugo's, for
// section titles) for every word of its tables, as written, capitalised,
// upper-cased, and as the last word of compounds of every form flect
// cuts into words.
func TestPluralizeIsFlect(t *testing.T) {
	words := []string{"", " ", "post", "Post", "POST", "posts", "news", "blog", "Blog", "café", "日本語", "naïve",
		"category", "Category", "box", "status", "bus", "quiz", "hero", "photo", "leaf", "knife", "life", "wife",
		"child", "person", "man", "woman", "datum", "medium", "index", "matrix", "vertex", "crisis", "analysis",
		"API", "api", "Api", "HTML", "html", "ID", "id", "Ids", "URL", "a", "s", "S", "x", "y", "ay", "2024", "v2",
		"foo bar", "fooBar", "FooBar", "foo_bar", "foo-bar", "foo:bar", "foo/bar", "foo.bar", "foo  bar ", " foo",
		"HTTPServer", "myAPI", "my api", "the HTML", "JSONData", "über", "Ölfeld", "mañana", "`code`", "it's", "don't",
		"a\tb", "a\nb", "x-ray", "mother-in-law", "news feed", "Fish", "FISH", "sheep", "Sheep", "series", "ox", "OX", "Ox"}
	t0 := pluralTables()
	for w := range t0.singleToPlural {
		words = append(words, w)
	}
	for w := range t0.pluralToSingle {
		words = append(words, w)
	}
	for _, r := range pluralSuffixes {
		words = append(words, r.singular, r.plural, "x"+r.singular, "X"+r.plural)
	}
	words = append(words, pluralAcronyms...)
	var all []string
	for _, w := range words {
		for _, v := range []string{w, strings.ToUpper(w), capitalize(w), strings.ToLower(w)} {
			all = append(all, v, "my "+v, "big-"+v, "old_"+v, "myOld"+capitalize(v), "A/"+v, v+" ", "HTML "+v)
		}
	}
	n := 0
	for _, w := range all {
		if got, want := pluralize(w), flect.Pluralize(w); got != want {
			if n++; n <= 20 {
				t.Errorf("pluralize(%q) = %q, flect says %q", w, got, want)
			}
		}
	}
	if n > 0 {
		t.Errorf("%d of %d words differ from flect", n, len(all))
	}
	t.Logf("%d words as flect pluralises them", len(all))
}
