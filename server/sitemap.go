package server

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"time"

	"folio/pipeline"
)

// The sitemaps protocol's limits for one sitemap: 50,000 URLs and 50 MiB
// uncompressed (sitemaps.org/protocol.html). A site with more has a
// sitemap index at /sitemap.xml naming its sitemaps, /sitemap-1.xml on:
// at the site's root, since a sitemap may only list URLs at or below its
// own folder.
var (
	sitemapMaxURLs  = 50_000   // a variable for tests under -race only
	sitemapMaxBytes = 50 << 20 // bytes, uncompressed
)

// sitemap answers /sitemap.xml: every HTML page (sitemapEntries) with
// the date its content last changed; or,
// past the protocol's limits, the index of the sitemaps that hold them.
func (s *Server) sitemap(w http.ResponseWriter, r *http.Request, m match) {
	st := m.st
	rp, _ := st.memo("sitemap.xml", func() (*rep, error) {
		parts := sitemapParts(st)
		if len(parts) == 1 {
			return newRep("application/xml", parts[0].body, parts[0].lastModified(st)), nil
		}
		return newRep("application/xml", sitemapIndex(st, parts), newest(st, st.snap.Posts())), nil
	})
	s.serve(w, r, m, rp)
}

// sitemapPart answers /sitemap-N.xml, the Nth sitemap of the index; a
// site within the limits has none.
func (s *Server) sitemapPart(w http.ResponseWriter, r *http.Request, m match) {
	st := m.st
	parts := sitemapParts(st)
	n, err := strconv.Atoi(m.value)
	if err != nil || n < 1 || n > len(parts) || len(parts) == 1 || strconv.Itoa(n) != m.value {
		s.notFound(w, r, m)
		return
	}
	rp, _ := st.memo("sitemap-"+m.value, func() (*rep, error) {
		return newRep("application/xml", parts[n-1].body, parts[n-1].lastModified(st)), nil
	})
	s.serve(w, r, m, rp)
}

// sitemapPartPaths are the sitemaps of the index, for the export. A
// site that cannot fill more than one sitemap (sitemapFits) has none,
// and its sitemap is not made for the list: a build over its previous
// output lists every path and asks again only for those whose
// fingerprint changed (making the sitemap of 10,000 posts to count its
// parts was 30 ms of such a build).
func sitemapPartPaths(st *state) []string {
	if sitemapFits(st) {
		return nil
	}
	parts := sitemapParts(st)
	if len(parts) == 1 {
		return nil
	}
	out := make([]string, len(parts))
	for i := range parts {
		out[i] = sitemapPartPath(i + 1)
	}
	return out
}

// sitemapFits reports whether sitemapEntries fit in one sitemap, by
// their number and a bound of their bytes that makes none of them: a
// page's loc is the base URL and its path, each byte of which
// EscapePath writes as at most 3 and xmlEscape each of those as at most
// 6; its date at most sitemapDateBound. (Every route of a page is
// counted, those sitemapEntries leaves out too.) false says only that
// they may not.
func sitemapFits(st *state) bool {
	cfg := st.snap.Config()
	home, _ := homeURLs(st)
	n := 2
	size := len(sitemapHead) + len(sitemapTail) + sitemapEntryBound(len(home)) + sitemapEntryBound(len(cfg.AbsURL(apiPagePath)))
	for r := range st.snap.EachRoute() {
		if r.Kind != pipeline.RoutePage {
			continue
		}
		n++
		size += sitemapEntryBound(len(cfg.BaseURL) + 3*len(r.Path))
		if n > sitemapMaxURLs || size > sitemapMaxBytes {
			return false
		}
	}
	return true
}

// sitemapDateBound is more than the length of any lastmod's date
// (jsonTime: "2006-01-02T15:04:05Z", longer only past the year 9999).
const sitemapDateBound = 64

// sitemapEntryBound is more than the bytes sitemapURL writes for a loc
// of n bytes before escaping.
func sitemapEntryBound(n int) int {
	return len("  <url><loc></loc><lastmod></lastmod></url>\n") + 6*n + sitemapDateBound
}

func sitemapPartPath(n int) string { return "/sitemap-" + strconv.Itoa(n) + ".xml" }

// A sitemapDoc is one sitemap's bytes and its newest date.
type sitemapDoc struct {
	body     []byte
	modified time.Time
}

// lastModified is the sitemap's Last-Modified: its newest date, but
// never after the snapshot's instant.
func (d sitemapDoc) lastModified(st *state) time.Time {
	if now := st.snap.Now(); !now.IsZero() && d.modified.After(now) {
		return now
	}
	return d.modified
}

// sitemapParts are the state's sitemaps, made once: one, or as many as
// the protocol's limits take.
func sitemapParts(st *state) []sitemapDoc {
	return stateValue(st, "sitemap-parts", func() []sitemapDoc {
		return splitSitemap(sitemapEntries(st), sitemapMaxURLs, sitemapMaxBytes)
	})
}

// A sitemapEntry is one page of the sitemap.
type sitemapEntry struct {
	loc string
	mod time.Time
}

// sitemapEntries are every HTML page: the home page, the API page, and
// every page of the site (articles and other pages, sections, taxonomies,
// terms, in every language).
func sitemapEntries(st *state) []sitemapEntry {
	cfg := st.snap.Config()
	// Content dates as written, a future one too (a site that publishes
	// future posts, buildFuture): never the clock, so that every process
	// writes the same sitemap for the same content. Last-Modified is
	// another matter (sitemapDoc.lastModified).
	all := newestDate(st.snap.Posts())
	home, _ := homeURLs(st)
	out := []sitemapEntry{{home, all}, {cfg.AbsURL(apiPagePath), all}}
	for r := range st.snap.EachRoute() {
		if r.Kind != pipeline.RoutePage || r.Path == "/" || cfg.AbsURL(strings.TrimPrefix(pipeline.EscapePath(r.Path), "/")) == home {
			continue
		}
		mod := pageModified(r.Page)
		if mod.IsZero() || r.Page == st.snap.Directory() {
			mod = all // nothing dated, or it lists every post
		}
		out = append(out, sitemapEntry{cfg.AbsURL(strings.TrimPrefix(pipeline.EscapePath(r.Path), "/")), mod})
	}
	return out
}

const (
	sitemapHead = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n"
	sitemapTail = "</urlset>\n"
)

// splitSitemap writes entries as sitemaps of at most maxURLs entries and
// maxBytes bytes each (one at least, empty when there are none).
func splitSitemap(entries []sitemapEntry, maxURLs, maxBytes int) []sitemapDoc {
	var out []sitemapDoc
	var b bytes.Buffer
	var mod time.Time
	n := 0
	flush := func() {
		b.WriteString(sitemapTail)
		out = append(out, sitemapDoc{body: bytes.Clone(b.Bytes()), modified: mod})
		b.Reset()
		mod, n = time.Time{}, 0
	}
	var entry bytes.Buffer
	for _, e := range entries {
		entry.Reset()
		sitemapURL(&entry, e.loc, e.mod)
		if n > 0 && (n == maxURLs || b.Len()+entry.Len()+len(sitemapTail) > maxBytes) { // b holds the head
			flush()
		}
		if b.Len() == 0 {
			b.WriteString(sitemapHead)
		}
		b.Write(entry.Bytes())
		mod = latest(mod, e.mod)
		n++
	}
	if b.Len() == 0 {
		b.WriteString(sitemapHead)
	}
	flush()
	return out
}

// sitemapIndex is /sitemap.xml past the limits: each sitemap with the
// newest date of its pages.
func sitemapIndex(st *state, parts []sitemapDoc) []byte {
	cfg := st.snap.Config()
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i, p := range parts {
		b.WriteString("  <sitemap><loc>" + xmlEscape(cfg.AbsURL(sitemapPartPath(i + 1)[1:])) + "</loc>")
		if !p.modified.IsZero() {
			b.WriteString("<lastmod>" + jsonTime(p.modified) + "</lastmod>")
		}
		b.WriteString("</sitemap>\n")
	}
	b.WriteString("</sitemapindex>\n")
	return b.Bytes()
}

func sitemapURL(b *bytes.Buffer, loc string, mod time.Time) {
	b.WriteString("  <url><loc>" + xmlEscape(loc) + "</loc>")
	if !mod.IsZero() {
		b.WriteString("<lastmod>" + jsonTime(mod) + "</lastmod>")
	}
	b.WriteString("</url>\n")
}
