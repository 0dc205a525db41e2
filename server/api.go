package server

import (
	"net/http"

	"folio/pipeline"
)

// Until the render package lands, the Markdown alternate answers 501.

func (s *Server) articleMarkdown(w http.ResponseWriter, r *http.Request, st *state, p *pipeline.Post) {
	s.problem(w, r, http.StatusNotImplemented, "not built yet")
}

func (s *Server) resource(w http.ResponseWriter, r *http.Request, st *state, p *pipeline.Post, file string) {
	s.problem(w, r, http.StatusNotImplemented, "not built yet")
}
