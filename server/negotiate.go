package server

import (
	"net/http"
	"strconv"
	"strings"

	"folio/pipeline"
)

// A media is what negotiation picked for a URL that has both an HTML and a
// Markdown representation.
type media int

const (
	mediaNone     media = iota // neither is acceptable: 406
	mediaHTML                  // text/html
	mediaMarkdown              // text/markdown
)

// negotiate reads an Accept header (RFC 9110 §12.5.1) the way CONTRACT's
// precise rules say: Markdown when text/markdown is named explicitly with
// q > 0 and its q is at least HTML's (a tie goes to Markdown); otherwise
// HTML when its q > 0, else Markdown when its q > 0, else none. Invalid
// members are ignored; a header with no valid member counts as absent;
// parameters other than q are ignored.
func negotiate(accept string) media {
	if accept == "" {
		return mediaHTML // no member, no valid one (most requests for a page)
	}
	htmlQ, mdQ, mdExplicit, valid := acceptQ(accept)
	if !valid {
		return mediaHTML
	}
	switch {
	case mdExplicit && mdQ > 0 && mdQ >= htmlQ:
		return mediaMarkdown
	case htmlQ > 0:
		return mediaHTML
	case mdQ > 0:
		return mediaMarkdown
	}
	return mediaNone
}

// acceptQ returns the q that text/html and text/markdown get from the most
// specific matching range, whether text/markdown was named exactly, and
// whether the header had any valid member.
func acceptQ(accept string) (htmlQ, mdQ float64, mdExplicit, valid bool) {
	// Specificity: 3 exact type, 2 type/*, 1 */*, 0 no match yet.
	htmlSpec, mdSpec := 0, 0
	for member := range strings.SplitSeq(accept, ",") {
		typ, sub, q, ok := parseMediaRange(member)
		if !ok {
			continue
		}
		valid = true
		for _, target := range [...]struct {
			sub  string
			q    *float64
			spec *int
		}{{"html", &htmlQ, &htmlSpec}, {"markdown", &mdQ, &mdSpec}} {
			spec := 0
			switch {
			case typ == "text" && sub == target.sub:
				spec = 3
			case typ == "text" && sub == "*":
				spec = 2
			case typ == "*" && sub == "*":
				spec = 1
			}
			// The most specific range decides; among equals, the highest q.
			if spec > *target.spec || (spec == *target.spec && spec > 0 && q > *target.q) {
				*target.spec, *target.q = spec, q
			}
		}
		if typ == "text" && sub == "markdown" && q > 0 {
			mdExplicit = true
		}
	}
	return htmlQ, mdQ, mdExplicit && mdSpec == 3, valid
}

// parseMediaRange parses one member "type/subtype;param=value;q=0.5".
func parseMediaRange(member string) (typ, sub string, q float64, ok bool) {
	// Cut, not Split: a request without Accept (most clients of a page)
	// reads here too, and must not allocate.
	mr, params, more := strings.Cut(member, ";")
	typ, sub, found := strings.Cut(strings.TrimSpace(mr), "/")
	typ, sub = strings.ToLower(strings.TrimSpace(typ)), strings.ToLower(strings.TrimSpace(sub))
	if !found || !isToken(typ) || !isToken(sub) || (typ == "*" && sub != "*") {
		return "", "", 0, false
	}
	q = 1
	for more {
		var p string
		p, params, more = strings.Cut(params, ";")
		k, v, hasEq := strings.Cut(strings.TrimSpace(p), "=")
		if !hasEq {
			return "", "", 0, false
		}
		if strings.EqualFold(strings.TrimSpace(k), "q") {
			f, ok := parseQ(strings.TrimSpace(v))
			if !ok {
				return "", "", 0, false
			}
			q = f
		}
	}
	return typ, sub, q, true
}

// parseQ parses an RFC 9110 qvalue: "0" or "1", optionally followed by a
// dot and up to three digits, never above 1. strconv.ParseFloat alone would
// also take "1e-1", ".5" or "+0.5", which are not qvalues.
func parseQ(v string) (float64, bool) {
	if len(v) == 0 || len(v) > 5 || (v[0] != '0' && v[0] != '1') {
		return 0, false
	}
	if len(v) > 1 {
		if v[1] != '.' {
			return 0, false
		}
		for i := 2; i < len(v); i++ {
			if v[i] < '0' || v[i] > '9' || (v[0] == '1' && v[i] != '0') {
				return 0, false
			}
		}
	}
	f, err := strconv.ParseFloat(v, 64)
	return f, err == nil
}

// isToken reports whether s is an RFC 9110 token (or "*").
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// acceptOf returns the request's Accept field value. A header sent as
// several lines is one comma-separated list (RFC 9110 §5.3), so they are
// joined rather than taking the first.
func acceptOf(r *http.Request) string {
	v := r.Header["Accept"] // Values("Accept"): the key is canonical
	if len(v) == 1 {
		return v[0]
	}
	return strings.Join(v, ", ")
}

// acceptable is the 406 problem's list of what a negotiating URL offers.
var acceptable = []string{"text/html", "text/markdown"}

// negotiated answers a URL that has an HTML and a Markdown representation,
// choosing by the request's Accept. Every answer from such a URL, 304, 406
// and HEAD included, carries Vary: Accept (the row Negotiates), so caches
// keep the two apart. The Markdown answer is the same representation as
// the post's own .md URL, which does not vary.
// staticTwin is the site's file at the path of the Markdown twin of m's
// page (static/posts/a.md for content/posts/a.md), which answers there
// in place of the twin (the site model's staticTwin); false when there
// is none. A list's further pages and the home page have none.
func staticTwin(m match) (pipeline.Route, bool) {
	pg := m.site.Page
	if pg == nil || m.site.Pager > 1 || pg.Path == "" || pg.Path == "/" || m.st == nil {
		return pipeline.Route{}, false
	}
	return lookupSiteFile(m.st, pipeline.TwinPath(pg.Path))
}

func (s *Server) negotiated(w http.ResponseWriter, r *http.Request, m match, html, markdown func() (*rep, error)) {
	var rp *rep
	var err error
	switch m.media = negotiate(acceptOf(r)); m.media {
	case mediaHTML:
		rp, err = html()
	case mediaMarkdown:
		if f, ok := staticTwin(m); ok {
			// The site's own file holds the page's twin path: it is the
			// page's Markdown, as it is at that path and in the export.
			m.site = f
			s.siteFile(w, r, m)
			return
		}
		rp, err = markdown()
	default:
		w.Header().Set("Vary", "Accept")
		s.problem(w, r, m, http.StatusNotAcceptable,
			"this page is available as text/html or text/markdown; the Accept header allows neither",
			"acceptable", acceptable)
		return
	}
	if err != nil {
		w.Header().Set("Vary", "Accept")
		s.internalError(w, r, m, err)
		return
	}
	s.serve(w, r, m, rp)
}
