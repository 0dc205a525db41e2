package server

import (
	"bytes"
	"net/http"
	"strings"
	"unicode/utf8"

	"folio/pipeline"
)

// rss answers /rss.xml: RSS 2.0 of the newest feed.limit posts.
func (s *Server) rss(w http.ResponseWriter, r *http.Request, m match) {
	st := m.st
	rp, _ := st.memo("rss.xml", func() (*rep, error) {
		posts := st.snap.Posts()
		if n := st.snap.Config().Feed.Limit; n > 0 && n < len(posts) {
			posts = posts[:n]
		}
		cfg := st.snap.Config()
		ch := channel{title: cfg.Title, link: cfg.BaseURL, description: cfg.Description, self: cfg.AbsURL("rss.xml")}
		if rootEmpty(st) {
			ch.link = siteURL(st) // nothing at /
		}
		return newRep("application/rss+xml; charset=utf-8", feedBody(st, ch, posts), newest(st, posts)), nil
	})
	s.serve(w, r, m, rp)
}

// A channel is what a feed says of itself: its title, the page it is of,
// its description and its own URL.
type channel struct{ title, link, description, self string }

// feedBody writes the feed by hand rather than with encoding/xml: the
// contract fixes every element, and hand-written output keeps the
// atom:link namespace prefix that encoding/xml cannot emit.
func feedBody(st *state, ch channel, posts []*pipeline.Post) []byte {
	cfg := st.snap.Config()
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">` + "\n<channel>\n")
	xmlElem(&b, "  ", "title", ch.title)
	xmlElem(&b, "  ", "link", ch.link)
	xmlElem(&b, "  ", "description", ch.description)
	xmlElem(&b, "  ", "language", cfg.Language)
	if len(posts) > 0 && !posts[0].Date.IsZero() {
		// The newest post's publish date, not the clock: the feed's bytes
		// depend on the content alone. (Pages without a date sort last:
		// a first one without means none has one.)
		xmlElem(&b, "  ", "lastBuildDate", rssTime(posts[0]))
	}
	b.WriteString(`  <atom:link href="` + xmlEscape(ch.self) + `" rel="self" type="application/rss+xml"/>` + "\n")
	for _, p := range posts {
		url := cfg.AbsURL(st.snap.URLOf(p))
		b.WriteString("  <item>\n")
		xmlElem(&b, "    ", "title", p.Title)
		xmlElem(&b, "    ", "link", url)
		b.WriteString(`    <guid isPermaLink="true">` + xmlEscape(url) + "</guid>\n")
		if !p.Date.IsZero() {
			xmlElem(&b, "    ", "pubDate", rssTime(p))
		}
		xmlElem(&b, "    ", "description", p.Description)
		for _, c := range feedCategories(p) {
			xmlElem(&b, "    ", "category", c)
		}
		b.WriteString("  </item>\n")
	}
	b.WriteString("</channel>\n</rss>\n")
	return b.Bytes()
}

// rssTime is RFC 1123 with a numeric zone, in UTC.
func rssTime(p *pipeline.Post) string {
	return p.Date.UTC().Format("Mon, 02 Jan 2006 15:04:05 -0700")
}

// feedCategories is the post's category, then each tag.
func feedCategories(p *pipeline.Post) []string {
	var out []string
	if p.Category != "" {
		out = append(out, p.Category)
	}
	for _, t := range p.Tags {
		if t != "" {
			out = append(out, t)
		}
	}
	return out
}

func xmlElem(b *bytes.Buffer, indent, name, text string) {
	b.WriteString(indent + "<" + name + ">" + xmlEscape(text) + "</" + name + ">\n")
}

// xmlEscape escapes text for element content and attribute values, and
// drops what XML 1.0 cannot carry at all: control characters other than
// tab, newline and carriage return, U+FFFE, U+FFFF, surrogates and bytes
// that are not UTF-8.
func xmlEscape(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case c == utf8.RuneError && size == 1:
		case !xmlChar(c):
		case c == '&':
			b.WriteString("&amp;")
		case c == '<':
			b.WriteString("&lt;")
		case c == '>':
			b.WriteString("&gt;")
		case c == '"':
			b.WriteString("&quot;")
		case c == '\'':
			b.WriteString("&apos;")
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// xmlChar reports whether XML 1.0 allows c (§2.2 Char).
func xmlChar(c rune) bool {
	return c == 0x9 || c == 0xA || c == 0xD ||
		(c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF)
}
