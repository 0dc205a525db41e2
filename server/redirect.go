package server

import (
	"net/http"
	"strings"

	"folio/pipeline"
)

// moved answers 301 to location, cached as the pages are.
func (s *Server) moved(w http.ResponseWriter, m match, location string) {
	w.Header().Set("Location", location)
	w.Header().Set("Cache-Control", s.cacheControl(m.st))
	w.WriteHeader(http.StatusMovedPermanently)
}

// aliasPaths lists every alias of the site (a page's, a list's
// /page/1/, a language's redirect), with and without a trailing slash
// (both redirect).
// An alias that a row above claims answers that row instead; the
// exporter keeps only real 301s.
func aliasPaths(st *state) []string {
	var out []string
	for _, r := range st.snap.Routes() {
		if r.Kind != pipeline.RouteAlias {
			continue
		}
		out = append(out, pipeline.EscapePath(r.Path))
		if strings.HasSuffix(r.Path, "/") && r.Path != "/" {
			out = append(out, pipeline.EscapePath(strings.TrimSuffix(r.Path, "/")))
		}
	}
	return out
}
