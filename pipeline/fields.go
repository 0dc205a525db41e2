package pipeline

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/gohugoio/hugo/common/paths"
	gotoml "github.com/pelletier/go-toml/v2"
)

// Hugo's key aliases: the first key present wins.
var (
	publishKeys = []string{"publishdate", "pubdate", "published"}
	lastmodKeys = []string{"lastmod", "modified"}
	expiryKeys  = []string{"expirydate", "unpublishdate"}
)

// fieldDecoder turns the untyped front-matter map into typed Post fields,
// reporting the first bad value with the line of its key.
type fieldDecoder struct {
	fm     map[string]any
	source string // the front matter text, to find a key's line
	line   int    // line of the front matter's first line
	loc    *time.Location
	err    error

	// org is set for Org keywords, where a keyword given on several
	// lines is a list (Hugo's rule). For a field that wants one string
	// (title, description, slug) Hugo 0.165 reads a list or a table, in
	// any format, as none and builds, so folio does the same with a
	// warning (repeats). A date given so is an error to both. A flag
	// Hugo reads as false without a word (draft: yes) is noted there too.
	org     bool
	repeats []Problem
}

func decodeFields(p *Post, fm map[string]any, source string, line int, loc *time.Location, org bool) error {
	d := &fieldDecoder{fm: fm, source: source, line: line, loc: loc, org: org}
	defer func() { p.keyWarnings = d.repeats }()
	if s := trimSlug(d.str("slug")); s != "" {
		p.Slug = s
	}
	p.Title = d.str("title")
	if p.Title == "" {
		p.Title = p.Slug
	}
	p.Description = d.str("description")
	if p.Description == "" {
		p.Description = d.str("summary")
	}
	p.Tags = d.list("tags")
	p.Categories = d.list("categories")
	p.Aliases = d.list("aliases")
	p.Category = d.str("category")
	if p.Category == "" {
		for _, c := range p.Categories {
			if c != "" {
				p.Category = c
				break
			}
		}
	}
	p.Draft = d.boolean("draft")
	if org {
		d.orgIncludes()
	}
	date := d.date("date")
	p.Date = d.firstDate(publishKeys)
	if p.Date.IsZero() {
		p.Date = date
	}
	p.Lastmod = d.firstDate(lastmodKeys)
	p.Expiry = d.firstDate(expiryKeys)
	if strings.ContainsFunc(p.Slug, unicode.IsControl) {
		// Hugo publishes every slug at its sanitised form (a tab between
		// words a hyphen, other control characters dropped); folio
		// escapes the rest, but a control character has no escape a
		// static host can match, so such a slug takes Hugo's form.
		p.Slug = paths.Sanitize(p.Slug)
	}
	if d.err == nil && strings.ContainsAny(p.Slug, "/\\") {
		d.err = errorAt(d.keyLine("slug"), "front matter: slug %q must not contain a slash", p.Slug)
	}
	if d.err == nil && strings.TrimSpace(p.Slug) == "" {
		d.err = errorAt(d.keyLine("slug"), "front matter: empty slug")
	}
	if d.err == nil && (p.Slug == "." || p.Slug == "..") {
		d.err = errorAt(d.keyLine("slug"), "front matter: slug %q is a step in a path, not a name: its URL is another page's (the section's, or the one above; Hugo writes this page over it); choose another slug", p.Slug)
	}
	return d.err
}

// orgInclude is an #+INCLUDE or #+SETUPFILE keyword line, as go-org
// reads a keyword (any case, a space or the line's end after the colon).
var orgInclude = regexp.MustCompile(`(?i)^[ \t]*#\+(?:include|setupfile):(?:\s|$)`)

// orgIncludes notes a warning at every #+INCLUDE and #+SETUPFILE line of
// Org keywords, which Hugo 0.165 drops there without a word (their file
// is neither inserted nor read for settings): the author means it to
// count, and render warns of the same lines in the body.
func (d *fieldDecoder) orgIncludes() {
	rest := d.source
	for i, more := 0, true; more; i++ {
		var l string
		l, rest, more = strings.Cut(rest, "\n")
		if orgInclude.MatchString(l) {
			d.repeats = append(d.repeats, Problem{Line: d.line + i, Severity: Warning,
				Message: "org: #+INCLUDE and #+SETUPFILE are not supported: folio leaves the file out (Hugo drops it too, among the keywords at the top)"})
		}
	}
}

func (d *fieldDecoder) fail(key, format string, args ...any) {
	if d.err == nil {
		d.err = errorAt(d.keyLine(key), "front matter: "+key+": "+format, args...)
	}
}

// notOneString reports whether v is a list or a table where key wants
// one string, and then notes the warning: Hugo 0.165 reads such a
// title, description, summary or slug as none and builds the page. In
// Org, the list is a keyword given on several lines (or as KEY[]).
func (d *fieldDecoder) notOneString(key string, v any) bool {
	what := ""
	switch v.(type) {
	case []any:
		what = "a list"
	case map[string]any:
		what = "a table"
	default:
		return false
	}
	msg := "front matter: " + key + ": " + what + ", which Hugo reads as no " + key + " (it builds the page): folio leaves the " + key + " empty too; write one string"
	if d.org {
		msg = "front matter: " + key + ": the keyword is given on several lines (or as a list), which Hugo reads as a list and leaves the " + key + " empty, as folio does; write it on one line"
	}
	d.repeats = append(d.repeats, Problem{Line: d.keyLine(key), Severity: Warning, Message: msg})
	return true
}

// keyLine finds the line a top-level key is written on; the front matter's
// first line when it cannot tell.
func (d *fieldDecoder) keyLine(key string) int {
	if line := keyLineIn(d.source, d.line, key); line > 0 {
		return line
	}
	return d.line
}

// keyLineIn finds the line a top-level key of the front matter text
// source (whose first line is first) is written on, 0 when it cannot
// tell. Unindented lines are tried first, so a YAML key nested under
// params does not shadow the top-level one (JSON is usually indented
// throughout, hence the second pass).
func keyLineIn(source string, first int, key string) int {
	for _, indented := range []bool{false, true} {
		rest, i := source, 0
		for more := true; more; i++ {
			var l string
			l, rest, more = strings.Cut(rest, "\n")
			if !indented && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) {
				continue
			}
			if isKeyLine(l, key) {
				return first + i
			}
		}
	}
	return 0
}

func isKeyLine(l, key string) bool {
	l = strings.TrimLeft(l, " \t{")
	l, org := strings.CutPrefix(l, "#+") // an Org keyword
	l = strings.TrimLeft(l, `"'`)
	if len(l) <= len(key) || !strings.EqualFold(l[:len(key)], key) {
		return false
	}
	rest := l[len(key):]
	if org {
		rest = strings.TrimPrefix(rest, "[]") // #+ALIASES[]: a list
	}
	rest = strings.TrimLeft(rest, `"' `+"\t")
	return rest != "" && (rest[0] == ':' || rest[0] == '=')
}

func (d *fieldDecoder) str(key string) string {
	v, ok := d.fm[key]
	if !ok || v == nil {
		return ""
	}
	switch v := v.(type) {
	case string:
		return strings.TrimSpace(v)
	case bool, int, int64, uint64, float64:
		// Hugo casts a number or a boolean to text (title: 2024).
		return str(v)
	}
	if d.notOneString(key, v) {
		return ""
	}
	d.fail(key, "want a string, got %s", describe(v))
	return ""
}

// boolean reads a flag as Hugo 0.165 casts it (spf13/cast's ToBool): a
// boolean, a number (true unless zero), or a string strconv.ParseBool
// reads as it is written, spaces and all. Anything else ("yes", " true",
// a list, a date) is false to Hugo, which builds the page without a word:
// folio reads it so too and says so, since the author likely meant
// otherwise.
func (d *fieldDecoder) boolean(key string) bool {
	switch v := d.fm[key].(type) {
	case nil:
		return false
	case bool:
		return v
	case int:
		return v != 0
	case int64:
		return v != 0
	case uint64:
		return v != 0
	case float64:
		return v != 0
	case string:
		if b, err := strconv.ParseBool(v); err == nil {
			return b
		}
		d.notFalse(key, strconv.Quote(v))
	default:
		d.notFalse(key, describe(v))
	}
	return false
}

// notFalse notes that key's value, described by what, is not a boolean
// and is read as false, as Hugo reads it.
func (d *fieldDecoder) notFalse(key, what string) {
	d.repeats = append(d.repeats, Problem{Line: d.keyLine(key), Severity: Warning,
		Message: "front matter: " + key + ": " + what + " is not true or false; Hugo 0.165 reads it as false, and so does folio: write true or false"})
}

// list accepts a list of scalars or a single string, as Hugo does, and
// drops empty entries.
func (d *fieldDecoder) list(key string) []string {
	var out []string
	switch v := d.fm[key].(type) {
	case nil:
	case string:
		if s := strings.TrimSpace(v); s != "" {
			out = append(out, s)
		}
	case []any:
		for _, e := range v {
			switch e := e.(type) {
			case nil:
				// An empty entry (tags: [go, ~], "- " alone): Hugo drops
				// it; emptyTermWarnings says so.
			case string:
				if s := strings.TrimSpace(e); s != "" {
					out = append(out, s)
				}
			case bool, int, int64, uint64, float64:
				out = append(out, fmt.Sprint(e))
			default:
				if key != "aliases" {
					// A term that is a list or a table: Hugo makes
					// no term of the whole list, and publishes the
					// page (emptyTermWarnings says so).
					return nil
				}
				d.fail(key, "want a list of strings, found %s", describe(e))
				return nil
			}
		}
	case []string:
		for _, s := range v {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	default:
		d.fail(key, "want a list of strings, got %s", describe(v))
	}
	if out == nil {
		out = []string{}
	}
	return out
}

func (d *fieldDecoder) firstDate(keys []string) time.Time {
	for _, k := range keys {
		if _, ok := d.fm[k]; ok {
			return d.date(k)
		}
	}
	return time.Time{}
}

func (d *fieldDecoder) date(key string) time.Time {
	v, ok := d.fm[key]
	if !ok || v == nil {
		return time.Time{}
	}
	t, err := toTime(v, d.loc)
	if err != nil {
		d.fail(key, "%v", err)
		return time.Time{}
	}
	return t.UTC().Truncate(time.Second)
}

// Date layouts Hugo accepts, with and without an offset. Those without one
// are read in the configured time zone.
var dateLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04:05-0700",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05.999999999Z0700",
	"2006-01-02 15:04:05 -0700",
	"2006-01-02 15:04:05 -07:00",
	"2006-01-02 15:04:05.999999999 -0700 MST", // Go's Time.String
	"2006-01-02 15:04:05.999999999",
	time.ANSIC,
	time.UnixDate,
	time.RubyDate,
	"2006-01-02 15:04",
	"2006-01-02",
	time.RFC1123Z,
	time.RFC1123,
	time.RFC822Z,
	time.RFC822,
	time.RFC850,
	"2 Jan 2006",
	"January 2, 2006",
	"Jan 2, 2006",
}

// namedZoneOnly reports whether layout gives a zone by name only.
func namedZoneOnly(layout string) bool {
	switch layout {
	case time.UnixDate, time.RFC1123, time.RFC822, time.RFC850:
		return true
	}
	return false
}

var numericYear = regexp.MustCompile(`^\d{4}$`)

func toTime(v any, loc *time.Location) (time.Time, error) {
	switch v := v.(type) {
	case time.Time:
		return v, nil
	case gotoml.LocalDate:
		return time.Date(v.Year, time.Month(v.Month), v.Day, 0, 0, 0, 0, loc), nil
	case gotoml.LocalDateTime:
		return time.Date(v.Year, time.Month(v.Month), v.Day, v.Hour, v.Minute, v.Second, v.Nanosecond, loc), nil
	case string:
		s := strings.TrimSpace(v)
		for _, layout := range dateLayouts {
			if t, err := time.ParseInLocation(layout, s, loc); err == nil {
				if namedZoneOnly(layout) {
					// Hugo (cast's ParseDateWith) reads the wall time in
					// the site's zone, whatever zone the name says ("PST",
					// even "UTC"): a name alone is no offset. Read in UTC,
					// where no name but UTC has an offset, the clock is
					// as written.
					w, _ := time.ParseInLocation(layout, s, time.UTC)
					t = time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), loc)
				}
				return t, nil
			}
		}
		if numericYear.MatchString(s) {
			y, _ := strconv.Atoi(s)
			return time.Date(y, 1, 1, 0, 0, 0, 0, loc), nil
		}
		return time.Time{}, fmt.Errorf("cannot parse %q as a date", v)
	default:
		return time.Time{}, fmt.Errorf("want a date, got %s", describe(v))
	}
}

func describe(v any) string {
	switch v := v.(type) {
	case []any:
		return "a list"
	case map[string]any:
		return "a table"
	case string:
		return strconv.Quote(v)
	case bool:
		return fmt.Sprintf("the boolean %v", v)
	case int, int64, uint64, float64:
		return fmt.Sprintf("the number %v", v)
	case time.Time:
		return "a date-time"
	default:
		return fmt.Sprintf("a %T", v)
	}
}

// trimSlug is a front matter slug as Hugo makes a page's URL of it: no
// hyphen at its ends ("Don't start or end with a -"), then no slash
// there (Hugo joins it to the page's folder: slug "/b68db71a" is
// /posts/b68db71a/). A slash inside is still one (an error: a slug is
// one segment to folio).
func trimSlug(s string) string {
	return strings.Trim(strings.Trim(strings.TrimSpace(s), "-"), "/")
}
