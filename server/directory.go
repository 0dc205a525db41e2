package server

import (
	"net/http"
	"strings"

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

// directoryRep is the directory page, made once per snapshot.
func (s *Server) directoryRep(st *state) (*rep, error) {
	return st.memo("page:directory", func() (*rep, error) {
		pg := s.newPage(st, "directory")
		cfg := st.snap.Config()
		pg.Title = directoryTitle
		pg.Description = directoryDescription(cfg)
		pg.Canonical = pg.Directory()
		pg.Markdown = directoryMarkdownURL(st)
		pg.Posts = views(st, st.snap.Posts())
		return htmlRep(st, pg, newest(st, st.snap.Posts()))
	})
}

// The directory's title and description, in its page and its Markdown.
const directoryTitle = "All posts"

func directoryDescription(cfg *pipeline.Config) string {
	return "Every post on " + cfg.Title + ", newest first."
}

// directoryURL is the absolute URL of the directory: the first main
// section's page (the home page when the site has none).
func directoryURL(st *state) string {
	cfg := st.snap.Config()
	if d := st.snap.Directory(); d != nil {
		return cfg.AbsURL(strings.TrimPrefix(pipeline.EscapePath(d.Path), "/"))
	}
	return siteURL(st)
}

// directoryMarkdownURL is the absolute URL of the directory's Markdown.
func directoryMarkdownURL(st *state) string {
	cfg := st.snap.Config()
	if d := st.snap.Directory(); d != nil {
		return cfg.AbsURL(strings.TrimPrefix(pipeline.EscapePath(pipeline.TwinPath(d.Path)), "/"))
	}
	_, twin := homeURLs(st) // /index.md, or the default language's home's
	return twin
}
