package pipeline

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// This file reads the front matter Hugo uses to place a page (url,
// weight, build, headless, menus, taxonomy terms, its dates by the
// frontmatter config) into PageMeta. With fields.go it is the only code
// that reads the untyped front-matter map.

// decodePageMeta fills p.PageMeta from its front matter. taxonomies are
// the page's language's.
func (c *Config) decodePageMeta(p *Post, taxonomies []Taxonomy) {
	fm := p.Params
	m := p.PageMeta
	m.SlugParam = trimSlug(str(fm["slug"]))
	m.TitleParam = strings.TrimSpace(str(fm["title"]))
	m.URL = strings.TrimSpace(str(fm["url"]))
	m.LinkTitle = strings.TrimSpace(str(fm["linktitle"]))
	m.TranslationKey = str(fm["translationkey"])
	if n, ok := toInt(fm["weight"], true); ok {
		m.Weight = int(n)
	}
	m.Build = buildOptions(fm)
	m.Terms = map[string][]string{}
	for _, t := range taxonomies {
		if terms := termList(fm[t.Plural]); len(terms) > 0 {
			m.Terms[t.Plural] = terms
		}
	}
	m.Menus = menuEntries(fm)
	if v, ok := fm["outputs"]; ok {
		m.Outputs = lowerAll(stringList(v))
	}
	m.Created = c.pageDate(p)
	link, _ := c.EmbeddedLinkHooks()
	m.Images = imageRefs(p.Body, link)
}

// str is a front-matter value as text: a string, or a number or a
// boolean written out, as Hugo's cast.ToString makes them (title: 2024).
func str(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool, int, int64, uint64:
		return fmt.Sprint(v)
	}
	return ""
}

// stringList is a list of strings or one string; other scalars are
// written out, empty entries dropped.
// termList is a taxonomy's front matter value as its terms: stringList,
// but none at all when an entry is a list or a table, as Hugo makes none
// of such a value.
func termList(v any) []string {
	if list, ok := v.([]any); ok && slices.ContainsFunc(list, nested) {
		return nil
	}
	return stringList(v)
}

// nested reports whether a front matter value is a list or a table.
func nested(v any) bool {
	switch v.(type) {
	case []any, []string, map[string]any:
		return true
	}
	return false
}

func stringList(v any) []string {
	var out []string
	add := func(e any) {
		switch e := e.(type) {
		case string:
			if s := strings.TrimSpace(e); s != "" {
				out = append(out, s)
			}
		case bool, int, int64, uint64, float64:
			out = append(out, fmt.Sprint(e))
		}
	}
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			add(e)
		}
	case []string:
		for _, e := range v {
			add(e)
		}
	default:
		add(v)
	}
	return out
}

// buildOptions reads build (or _build), and headless: true, which is
// render and list never.
func buildOptions(fm map[string]any) BuildOptions {
	b := BuildOptions{List: "always", Render: "always", PublishResources: true}
	if h, ok := toBool(fm["headless"], true); ok && h {
		b.List, b.Render = "never", "never"
	}
	opts, ok := fm["build"].(map[string]any)
	if !ok {
		opts, _ = fm["_build"].(map[string]any)
	}
	for k, v := range opts {
		switch strings.ToLower(k) {
		case "list":
			b.List = buildValue(v, "always", "never")
		case "render":
			b.Render = buildValue(v, "always", "never")
		case "publishresources":
			if on, ok := toBool(v, true); ok {
				b.PublishResources = on
			}
		}
	}
	return b
}

// buildValue reads a build option: a word, or a boolean (true is on,
// false off) as Hugo accepted before the words.
func buildValue(v any, on, off string) string {
	switch v := v.(type) {
	case bool:
		if v {
			return on
		}
		return off
	case string:
		switch s := strings.ToLower(v); s {
		case "true":
			return on
		case "false":
			return off
		default:
			return s
		}
	}
	return on
}

// menuEntries reads menu (or menus): a menu name, a list of names, or a
// table of names to entry settings.
func menuEntries(fm map[string]any) []MenuEntry {
	v, ok := fm["menus"]
	if !ok {
		v = fm["menu"]
	}
	var out []MenuEntry
	switch v := v.(type) {
	case string:
		out = append(out, MenuEntry{Menu: v})
	case []any:
		for _, name := range stringList(v) {
			out = append(out, MenuEntry{Menu: name})
		}
	case map[string]any:
		for _, name := range sortedKeys(v) {
			e := v[name]
			entry := MenuEntry{Menu: name}
			if em, ok := e.(map[string]any); ok {
				for k, val := range em {
					switch strings.ToLower(k) {
					case "name":
						entry.Name = str(val)
					case "weight":
						if n, ok := toInt(val, true); ok {
							entry.Weight = int(n)
						}
					case "parent":
						entry.Parent = str(val)
					case "identifier":
						entry.Identifier = str(val)
					case "pre":
						entry.Pre = str(val)
					case "post":
						entry.Post = str(val)
					case "title":
						entry.Title = str(val)
					case "params":
						entry.Params, _ = val.(map[string]any)
					}
				}
			}
			out = append(out, entry)
		}
	}
	return out
}

// pageDate is Hugo's .Date: the first set of the frontmatter.date
// handlers (front matter keys, ":filename", ":default").
func (c *Config) pageDate(p *Post) time.Time {
	for _, k := range c.Frontmatter.Date {
		switch k {
		case ":default":
			for _, d := range defaultFrontmatter().Date {
				if t := p.dateParam(d, c.Location); !t.IsZero() {
					return t
				}
			}
		case ":filename":
			if t, _, ok := filenameDate(p.PageMeta.Base); ok {
				return t
			}
		default:
			if t := p.dateParam(k, c.Location); !t.IsZero() {
				return t
			}
		}
	}
	return time.Time{}
}

// dateParam is the front matter date under key, zero when unset or not
// a date.
func (p *Post) dateParam(key string, loc *time.Location) time.Time {
	v, ok := p.Params[key]
	if !ok || v == nil {
		return time.Time{}
	}
	if loc == nil {
		loc = time.UTC
	}
	t, err := toTime(v, loc)
	if err != nil {
		return time.Time{}
	}
	return t.Truncate(time.Second) // in its own zone: permalinks' :month is the author's
}

var filenameDatePattern = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2})-?(.*)$`)

// filenameDate reads a date from the start of a file name
// ("2024-01-02-hello"), and the rest of the name, which is the page's
// base name then.
func filenameDate(base string) (time.Time, string, bool) {
	m := filenameDatePattern.FindStringSubmatch(base)
	if m == nil {
		return time.Time{}, "", false
	}
	t, err := time.Parse("2006-01-02", m[1])
	if err != nil {
		return time.Time{}, "", false
	}
	return t, m[2], true
}

// imagePattern is a Markdown link's text and destination. It starts with
// the literal "[", which regexp skips to with a string search: a pattern
// that may start with "!" (`(!?)\[`) made it try every position of every
// body, 9 % of a whole-site build's CPU (b3f51f4). An image is a match
// after a "!".
var imagePattern = regexp.MustCompile(`\[[^\]]*\]\(\s*<?([^)\s>]+)`)

// imageRefs lists the files a body names that may be in assets/:
// Markdown images, and the values of shortcode parameters that look like
// a file's path (figure's src, a theme's video or gallery shortcodes),
// which Hugo's image hook, its figure and such shortcodes publish from
// assets/ with resources.Get; with links, the relative destinations of
// Markdown links that look like a file's path too, which Hugo's embedded
// link hook publishes so.
func imageRefs(body []Node, links bool) []string {
	var out []string
	var walk func([]Node)
	walk = func(nodes []Node) {
		for i := range nodes {
			n := &nodes[i]
			switch n.Kind {
			case TextNode:
				for _, m := range imagePattern.FindAllStringSubmatchIndex(n.Text, -1) {
					dest := n.Text[m[2]:m[3]]
					if image := m[0] > 0 && n.Text[m[0]-1] == '!'; image ||
						(links && looksLikeFile(dest) && !strings.Contains(dest, ":") && !strings.HasPrefix(dest, "#")) {
						out = append(out, dest)
					}
				}
			case ShortcodeNode:
				for _, v := range n.Positional {
					if looksLikeFile(v) {
						out = append(out, v)
					}
				}
				for _, k := range sortedKeys(anyMap(n.Named)) {
					if v := n.Named[k]; looksLikeFile(v) {
						out = append(out, v)
					}
				}
				walk(n.Inner)
			}
		}
	}
	walk(body)
	return out
}

// looksLikeFile reports whether a shortcode parameter may name a file: a
// path with an extension and no spaces.
func looksLikeFile(v string) bool {
	ext := path.Ext(v)
	return len(ext) > 1 && len(ext) <= 6 && !strings.ContainsAny(v, " \t\n<>\"")
}

func anyMap(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k := range m {
		out[k] = nil
	}
	return out
}
