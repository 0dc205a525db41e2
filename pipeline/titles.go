package pipeline

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jdkato/prose/transform"
)

// This file is how Hugo titles the pages it makes without a file: a
// section's name pluralised (pluralizeListTitles) and title-cased
// (capitalizeListTitles, in titleCaseStyle), a term as written and
// title-cased, a taxonomy's name. Hugo does it with flect and prose's
// title converter; so does folio: prose at the same version, and flect's
// Pluralize written again (plural.go).

// titleCase is Hugo's CreateTitle for the configured titleCaseStyle.
func (c *Config) titleCase(s string) string {
	switch strings.ToLower(c.TitleCaseStyle) {
	case "go":
		return goTitle(s)
	case "chicago":
		return transform.NewTitleConverter(transform.ChicagoStyle).Title(s)
	case "none":
		return s
	case "firstupper":
		r, n := utf8.DecodeRuneInString(s)
		return string(unicode.ToUpper(r)) + s[n:]
	}
	return transform.NewTitleConverter(transform.APStyle).Title(s)
}

// goTitle is the deprecated strings.Title: each word's first letter
// upper-cased.
func goTitle(s string) string {
	prev := ' '
	return strings.Map(func(r rune) rune {
		defer func() { prev = r }()
		if unicode.IsSpace(prev) || unicode.IsPunct(prev) {
			return unicode.ToTitle(r)
		}
		return r
	}, s)
}

// sectionTitle is the title of a section without an _index title.
func (c *Config) sectionTitle(name string) string {
	if c.PluralizeListTitles {
		name = Pluralize(name)
	}
	if c.CapitalizeListTitles {
		name = c.titleCase(name)
	}
	return name
}

// TermTitle is the title Hugo gives a term written so, when the term
// has no _index title.
func (c *Config) TermTitle(term string) string { return c.termTitle(term) }

// termTitle is the title of a term without an _index title.
func (c *Config) termTitle(term string) string {
	if c.CapitalizeListTitles {
		return c.titleCase(term)
	}
	return term
}

// taxonomyTitle is the title of a taxonomy without an _index title.
func (c *Config) taxonomyTitle(plural string) string {
	if c.CapitalizeListTitles {
		plural = c.titleCase(plural)
	}
	return strings.ReplaceAll(plural, "-", " ")
}

// urlPath is the path of an image destination, "" for one on another
// host; relative paths stay relative.
func urlPath(dest string) (string, error) {
	u, err := url.Parse(dest)
	if err != nil {
		return "", err
	}
	if u.Scheme != "" || u.Host != "" {
		return "", nil
	}
	return u.Path, nil
}
