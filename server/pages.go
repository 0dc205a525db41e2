package server

import (
	"net/http"

	"folio/pipeline"
)

// Owned by the site issue: HTML pages. Until it lands these answer 501.

func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	s.problem(w, r, http.StatusNotImplemented, "home page not built yet")
}

func (s *Server) directory(w http.ResponseWriter, r *http.Request) {
	s.problem(w, r, http.StatusNotImplemented, "directory page not built yet")
}

func (s *Server) directoryMarkdown(w http.ResponseWriter, r *http.Request) {
	s.problem(w, r, http.StatusNotImplemented, "directory markdown not built yet")
}

func (s *Server) article(w http.ResponseWriter, r *http.Request, st *state, p *pipeline.Post) {
	s.problem(w, r, http.StatusNotImplemented, "article page not built yet")
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request, st *state) {
	s.problem(w, r, http.StatusNotFound, "no such page: "+r.URL.Path)
}

func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	s.notFound(w, r, s.load())
}

func (s *Server) sdk(w http.ResponseWriter, r *http.Request) {
	s.notFound(w, r, s.load())
}
