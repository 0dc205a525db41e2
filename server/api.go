package server

import (
	"net/http"

	"folio/pipeline"
)

// Owned by the API issue. Until it lands these answer 501.

func (s *Server) postsJSON(w http.ResponseWriter, r *http.Request) {
	s.problem(w, r, http.StatusNotImplemented, "not built yet")
}

func (s *Server) cursorPage(w http.ResponseWriter, r *http.Request) {
	s.problem(w, r, http.StatusNotImplemented, "not built yet")
}

func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	s.problem(w, r, http.StatusNotImplemented, "not built yet")
}

func (s *Server) rss(w http.ResponseWriter, r *http.Request) {
	s.problem(w, r, http.StatusNotImplemented, "not built yet")
}

func (s *Server) llmsTxt(w http.ResponseWriter, r *http.Request) {
	s.problem(w, r, http.StatusNotImplemented, "not built yet")
}

func (s *Server) sitemap(w http.ResponseWriter, r *http.Request) {
	s.problem(w, r, http.StatusNotImplemented, "not built yet")
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	s.problem(w, r, http.StatusNotImplemented, "not built yet")
}

func (s *Server) articleMarkdown(w http.ResponseWriter, r *http.Request, st *state, p *pipeline.Post) {
	s.problem(w, r, http.StatusNotImplemented, "not built yet")
}

func (s *Server) resource(w http.ResponseWriter, r *http.Request, st *state, p *pipeline.Post, file string) {
	s.problem(w, r, http.StatusNotImplemented, "not built yet")
}
