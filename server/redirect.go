package server

import (
	"net/http"
	"strings"
)

// redirect sends a 301 to the canonical page of the post the row found: a
// post's URL without its final slash, or one of its aliases.
func (s *Server) redirect(w http.ResponseWriter, r *http.Request, m match) {
	cfg := m.st.snap.Config()
	s.moved(w, m, cfg.AbsURL(m.post.Path(cfg.Section)))
}

// redirectSection sends /<section> to /<section>/.
func (s *Server) redirectSection(w http.ResponseWriter, r *http.Request, m match) {
	cfg := m.st.snap.Config()
	s.moved(w, m, cfg.AbsURL(cfg.Section+"/"))
}

// moved answers 301 to location, cached as the pages are.
func (s *Server) moved(w http.ResponseWriter, m match, location string) {
	w.Header().Set("Location", location)
	w.Header().Set("Cache-Control", s.cacheControl(m.st))
	w.WriteHeader(http.StatusMovedPermanently)
}

// aliasPaths lists every alias of st's posts, with and without a trailing
// slash (both redirect). An alias that a row above claims answers that
// row instead; the exporter keeps only real 301s.
func aliasPaths(st *state) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range st.snap.Posts() {
		for _, a := range p.Aliases {
			a = strings.Trim(a, "/")
			if a == "" || seen[a] {
				continue
			}
			seen[a] = true
			out = append(out, "/"+escapePath(a), "/"+escapePath(a)+"/")
		}
	}
	return out
}
