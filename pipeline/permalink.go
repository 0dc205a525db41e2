package pipeline

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gohugoio/hugo/hugofs/hglob"
)

// This file is Hugo 0.165's permalink rule (resources/page/permalinks.go),
// reimplemented: the first configured rule whose kind and path globs
// match a page gives the pattern, and its :tokens are expanded from the
// page.

// permaPage is what a permalink pattern can say about a page.
type permaPage struct {
	kind string
	// path is the page's logical path, as Hugo's .Path: lower-cased,
	// spaces as hyphens, no extension or language ("/posts/my-post").
	path  string
	date  time.Time
	title string
	slug  string // front matter slug, "" when unset
	// file is the file's base name (a bundle's folder name; "" for an
	// _index); contentBase the same as written, for :contentbasename.
	file, contentBase string
	// sections are the current section's path segments ("posts",
	// "go"); sectionSlugs each of those sections' slug, else title.
	sections     []string
	sectionSlugs []string
}

// permalinkRule finds the pattern for a page: "" when no rule matches.
func permalinkRule(rules Permalinks, kind, logical string) string {
	p := strings.ToLower(logical)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	for _, r := range rules {
		if r.Kind != "" {
			g, err := hglob.GetGlob(r.Kind)
			if err != nil || !g.Match(kind) {
				continue
			}
		}
		if r.Path != "" {
			g, err := hglob.GetGlob(r.Path)
			if err != nil || !g.Match(p) {
				continue
			}
		}
		return r.Pattern
	}
	return ""
}

var permaToken = regexp.MustCompile(`:\w+(\[.+?\])?`)

// referenceTime tells a Go date layout (":2006") from a token name: a
// layout formats it as something else.
var referenceTime = time.Date(2019, time.November, 9, 23, 1, 42, 1, time.UTC)

// expandPermalink expands pattern for p. An unknown token is an error
// naming it.
func (c *Config) expandPermalink(pattern string, p permaPage) (string, error) {
	pattern = strings.ReplaceAll(pattern, `\:`, "\x00")
	var err error
	out := permaToken.ReplaceAllStringFunc(pattern, func(tok string) string {
		v, ok := c.permaToken(tok[1:], p)
		if !ok && err == nil {
			err = fmt.Errorf("permalink %q: unknown token %s", pattern, tok)
		}
		return v
	})
	return strings.ReplaceAll(out, "\x00", ":"), err
}

func (c *Config) permaToken(attr string, p permaPage) (string, bool) {
	d := p.date
	switch attr {
	case "year":
		return strconv.Itoa(d.Year()), true
	case "month":
		return fmt.Sprintf("%02d", int(d.Month())), true
	case "monthname":
		return d.Month().String(), true
	case "day":
		return fmt.Sprintf("%02d", d.Day()), true
	case "weekday":
		return strconv.Itoa(int(d.Weekday())), true
	case "weekdayname":
		return d.Weekday().String(), true
	case "yearday":
		return strconv.Itoa(d.YearDay()), true
	case "section":
		if len(p.sections) > 0 {
			return p.sections[0], true
		}
		return "", true
	case "sectionslug":
		if len(p.sectionSlugs) > 0 {
			return c.urlize(p.sectionSlugs[0]), true
		}
		return "", true
	case "sections":
		return path.Join(p.sections...), true
	case "sectionslugs":
		return c.joinUrlized(p.sectionSlugs), true
	case "title":
		return c.urlize(p.title), true
	case "slug":
		if p.slug != "" {
			return c.urlize(p.slug), true
		}
		return c.urlize(p.title), true
	case "slugorfilename":
		if p.slug != "" {
			return c.urlize(p.slug), true
		}
		return c.urlize(p.file), true
	case "filename":
		return c.urlize(p.file), true
	case "contentbasename":
		return c.urlize(p.contentBase), true
	case "slugorcontentbasename":
		if p.slug != "" {
			return c.urlize(p.slug), true
		}
		return c.urlize(p.contentBase), true
	}
	if rest, ok := strings.CutPrefix(attr, "sections["); ok {
		return path.Join(sliceSpec("[" + rest)(p.sections)...), true
	}
	if rest, ok := strings.CutPrefix(attr, "sectionslugs["); ok {
		return c.joinUrlized(sliceSpec("[" + rest)(p.sectionSlugs)), true
	}
	if referenceTime.Format(attr) != attr {
		return d.Format(attr), true
	}
	return "", false
}

func (c *Config) joinUrlized(parts []string) string {
	out := make([]string, len(parts))
	for i, s := range parts {
		out[i] = c.urlize(s)
	}
	return path.Join(out...)
}

// sliceSpec is Hugo's [low:high], [n] and [last] cut of the sections,
// lenient out of range.
func sliceSpec(cut string) func([]string) []string {
	cut = strings.ToLower(strings.TrimSpace(cut))
	if len(cut) < 3 || cut[0] != '[' || cut[len(cut)-1] != ']' {
		return func([]string) []string { return nil }
	}
	index := func(s string, low bool, ss []string) int {
		switch {
		case s == "" && low:
			return 0
		case s == "":
			return len(ss)
		case s == "last":
			return len(ss) - 1
		}
		n, _ := strconv.Atoi(s)
		n = max(n, 0)
		if n >= len(ss) {
			if low {
				return -1
			}
			return len(ss)
		}
		return n
	}
	spec := cut[1 : len(cut)-1]
	lo, hi, ranged := strings.Cut(spec, ":")
	return func(ss []string) []string {
		if len(ss) == 0 {
			return nil
		}
		if !ranged {
			n := index(lo, true, ss)
			if n < 0 || ss[n] == "" {
				return nil
			}
			return []string{ss[n]}
		}
		a, b := index(lo, true, ss), index(hi, false, ss)
		if a < 0 || b < 0 || a > b {
			return nil
		}
		return ss[a:b]
	}
}
