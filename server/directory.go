package server

import (
	"net/http"

	"folio/pipeline"
)

// directory answers /<section>/: every post with a search box, or the
// directory's Markdown when the request's Accept prefers it.
func (s *Server) directory(w http.ResponseWriter, r *http.Request, m match) {
	st := m.st
	s.negotiated(w, r, m,
		func() (*rep, error) { return s.directoryRep(st) },
		func() (*rep, error) { return s.directoryMarkdownRep(st) })
}

// directoryMarkdown answers /<section>.md, the directory as Markdown. It
// does not negotiate.
func (s *Server) directoryMarkdown(w http.ResponseWriter, r *http.Request, m match) {
	rp, err := s.directoryMarkdownRep(m.st)
	if err != nil {
		s.internalError(w, r, m, err)
		return
	}
	s.serve(w, r, m, rp)
}

// directoryRep is the directory page, made once per snapshot.
func (s *Server) directoryRep(st *state) (*rep, error) {
	return st.memo("page:directory", func() (*rep, error) {
		pg := s.newPage(st, "directory")
		cfg := st.snap.Config()
		pg.Title = directoryTitle
		pg.Description = directoryDescription(cfg)
		pg.Canonical = pg.Directory()
		pg.Markdown = cfg.AbsURL(cfg.Section + ".md")
		pg.Posts = views(st, st.snap.Posts())
		return htmlRep(st, pg, newest(st, st.snap.Posts()))
	})
}

// The directory's title and description, in its page and its Markdown.
const directoryTitle = "All posts"

func directoryDescription(cfg *pipeline.Config) string {
	return "Every post on " + cfg.Title + ", newest first."
}
