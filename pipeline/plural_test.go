package pipeline

import (
	"strings"
	"testing"

	"github.com/gobuffalo/flect"
)

// flectWords are the words the flect tests try: every word of flect's
// tables and suffixes, and some of every kind, each as written,
// capitalised, upper- and lower-cased, and as the last word of compounds
// of every form flect cuts into words.
func flectWords() []string {
	words := []string{"", " ", "post", "Post", "POST", "posts", "news", "blog", "Blog", "café", "日本語", "naïve",
		"category", "Category", "box", "status", "bus", "quiz", "hero", "photo", "leaf", "knife", "life", "wife",
		"child", "person", "man", "woman", "datum", "medium", "index", "matrix", "vertex", "crisis", "analysis",
		"API", "api", "Api", "HTML", "html", "ID", "id", "Ids", "URL", "a", "s", "S", "x", "y", "ay", "2024", "v2",
		"foo bar", "fooBar", "FooBar", "foo_bar", "foo-bar", "foo:bar", "foo/bar", "foo.bar", "foo  bar ", " foo",
		"HTTPServer", "myAPI", "my api", "the HTML", "JSONData", "über", "Ölfeld", "mañana", "`code`", "it's", "don't",
		"a\tb", "a\nb", "x-ray", "mother-in-law", "news feed", "Fish", "FISH", "sheep", "Sheep", "series", "ox", "OX", "Ox",
		"people", "children", "data", "categories", "Categories", "users", "my-first_post", "my first post"}
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
	return all
}

// TestInflectIsFlect holds Pluralize (Hugo's for section titles and the
// pluralize template function), Singularize, Humanize and Ordinalize (the
// singularize and humanize template functions) to flect's, Hugo's, on
// flectWords and some numbers.
func TestInflectIsFlect(t *testing.T) {
	words := append(flectWords(), "0", "1", "2", "3", "4", "11", "12", "13", "21", "22", "23", "101", "111", "112",
		"-1", "-11", "-22", "1000000", "007", "+5", "1.5", "1e3", "x1")
	for _, f := range []struct {
		name        string
		folio, want func(string) string
	}{
		{"Pluralize", Pluralize, flect.Pluralize},
		{"Singularize", Singularize, flect.Singularize},
		{"Humanize", Humanize, flect.Humanize},
		{"Ordinalize", Ordinalize, flect.Ordinalize},
	} {
		n := 0
		for _, w := range words {
			if f.name == "Humanize" && strings.TrimSpace(w) != "" && len(wordParts(w, pluralTables().acronyms)) == 0 {
				continue // separators alone: flect fails (an index out of range); folio keeps them
			}
			if got, want := f.folio(w), f.want(w); got != want {
				if n++; n <= 10 {
					t.Errorf("%s(%q) = %q, flect says %q", f.name, w, got, want)
				}
			}
		}
		if n > 0 {
			t.Errorf("%s: %d of %d words differ from flect", f.name, n, len(words))
		}
	}
	t.Logf("%d words as flect inflects them", len(words))
}

// TestInflectLongCapitals: a long run of capitals (a template may call
// humanize on any text) is one word, as flect makes it. Before, each
// capital upper-cased the word so far to look it up as an acronym: 100,000
// capitals took 11-16 s; the length of the longest acronym now bounds the
// lookups (BenchmarkHumanizeCapitals).
func TestInflectLongCapitals(t *testing.T) {
	for _, s := range []string{strings.Repeat("AB", 500), "NASA" + strings.Repeat("X", 300), "the " + strings.Repeat("ÉCOLE", 200) + " way"} {
		for _, f := range []struct {
			name       string
			folio, its func(string) string
		}{{"Pluralize", Pluralize, flect.Pluralize}, {"Singularize", Singularize, flect.Singularize}, {"Humanize", Humanize, flect.Humanize}} {
			if got, want := f.folio(s), f.its(s); got != want {
				t.Errorf("%s of %d capitals: ...%q, flect ...%q", f.name, len(s), got[max(0, len(got)-8):], want[max(0, len(want)-8):])
			}
		}
	}
	caps := strings.Repeat("AB", 50_000)
	if got := Humanize(caps); got != caps {
		t.Errorf("Humanize of 100,000 capitals: %d bytes, want them as they were", len(got))
	}
	if got := Pluralize(caps); got != caps+"s" {
		t.Errorf("Pluralize of 100,000 capitals: ...%q, want the word with s", got[max(0, len(got)-4):])
	}
}

func BenchmarkHumanizeCapitals(b *testing.B) {
	caps := strings.Repeat("AB", 5_000)
	for b.Loop() {
		Humanize(caps)
	}
}
