package server

import (
	"net/http"
	"strings"

	"folio/pipeline"
)

// routes is the one routing table. GET patterns also answer HEAD; other
// methods never get this far (see ServeHTTP).
func (s *Server) routes(section string) *http.ServeMux {
	mux := http.NewServeMux()
	sec := "/" + section

	mux.HandleFunc("GET /{$}", s.home)
	mux.HandleFunc("GET "+sec+"/{$}", s.directory)
	mux.HandleFunc("GET "+sec+".md", s.directoryMarkdown)
	mux.HandleFunc("GET "+sec+"/{rest...}", s.post)
	mux.HandleFunc("GET "+sec, s.redirectSection)

	mux.HandleFunc("GET /api/posts.json", s.postsJSON)
	mux.HandleFunc("GET /api/posts/cursor/{file}", s.cursorPage)
	mux.HandleFunc("GET /openapi.json", s.openAPI)
	mux.HandleFunc("GET /rss.xml", s.rss)
	mux.HandleFunc("GET /llms.txt", s.llmsTxt)
	mux.HandleFunc("GET /sitemap.xml", s.sitemap)
	mux.HandleFunc("GET /healthz", s.healthz)

	mux.HandleFunc("GET /sdk/blog-client.js", s.sdk)
	mux.HandleFunc("GET /static/{file...}", s.static)
	if s.opts.Dev {
		mux.HandleFunc("GET /_folio/events", s.liveEvents)
		mux.HandleFunc("GET "+livePath, s.liveScript)
	}

	// Everything else: a post alias, or 404.
	mux.HandleFunc("GET /", s.fallback)
	return mux
}

// post dispatches /<section>/<rest>: the article page ("slug/"), its
// Markdown ("slug.md"), a bundle file ("slug/file"), or a redirect to the
// canonical URL ("slug").
func (s *Server) post(w http.ResponseWriter, r *http.Request) {
	st := s.load()
	switch p, kind, file := postRouteOf(st.snap, r.PathValue("rest")); kind {
	case routeArticle:
		s.article(w, r, st, p)
	case routeResource:
		s.resource(w, r, st, p, file)
	case routeMarkdown:
		s.articleMarkdown(w, r, st, p)
	case routeRedirect:
		s.redirect(w, r, st, p)
	default:
		s.fallbackState(w, r, st)
	}
}

// A postRoute is what a path under the section names.
type postRoute int

const (
	routeNone postRoute = iota
	routeArticle
	routeResource
	routeMarkdown
	routeRedirect
)

// postRouteOf resolves rest, the decoded path after "/<section>/", to a
// post of snap and what of it is asked for (file: the bundle file's name).
func postRouteOf(snap *pipeline.Snapshot, rest string) (p *pipeline.Post, kind postRoute, file string) {
	slug, file, hasSlash := strings.Cut(rest, "/")
	switch {
	case hasSlash && file == "":
		if p := snap.Post(slug); p != nil {
			return p, routeArticle, ""
		}
	case hasSlash:
		if p := snap.Post(slug); p != nil {
			return p, routeResource, file
		}
	case strings.HasSuffix(rest, ".md"):
		if p := snap.Post(strings.TrimSuffix(rest, ".md")); p != nil {
			return p, routeMarkdown, ""
		}
		if p := snap.Post(rest); p != nil {
			return p, routeRedirect, ""
		}
	default:
		if p := snap.Post(rest); p != nil {
			return p, routeRedirect, ""
		}
	}
	return nil, routeNone, ""
}

// negotiates reports whether GET on p chooses between HTML and Markdown by
// Accept (the section's page and each article's): every answer there,
// 405 and OPTIONS included, carries Vary: Accept.
func negotiates(snap *pipeline.Snapshot, p string) bool {
	rest, ok := strings.CutPrefix(p, "/"+snap.Config().Section+"/")
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	_, kind, _ := postRouteOf(snap, rest)
	return kind == routeArticle
}

// fallback answers paths no route claims: a post alias redirects, anything
// else is 404.
func (s *Server) fallback(w http.ResponseWriter, r *http.Request) {
	s.fallbackState(w, r, s.load())
}

func (s *Server) fallbackState(w http.ResponseWriter, r *http.Request, st *state) {
	if p := st.snap.Alias(r.URL.Path); p != nil {
		s.redirect(w, r, st, p)
		return
	}
	s.notFound(w, r, st)
}

// redirect sends a 301 to the post's canonical page.
func (s *Server) redirect(w http.ResponseWriter, r *http.Request, st *state, p *pipeline.Post) {
	cfg := st.snap.Config()
	w.Header().Set("Location", cfg.AbsURL(p.Path(cfg.Section)))
	w.Header().Set("Cache-Control", s.cacheControl(st))
	w.WriteHeader(http.StatusMovedPermanently)
}

// redirectSection sends /<section> to /<section>/, cached as the post
// redirects are.
func (s *Server) redirectSection(w http.ResponseWriter, r *http.Request) {
	st := s.load()
	w.Header().Set("Location", st.snap.Config().AbsURL(st.snap.Config().Section+"/"))
	w.Header().Set("Cache-Control", s.cacheControl(st))
	w.WriteHeader(http.StatusMovedPermanently)
}

// isAPIPath reports whether errors on p are problem+json rather than an
// HTML page: the API, and .json and .md paths.
func isAPIPath(p string) bool {
	return strings.HasPrefix(p, "/api/") || strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".md")
}
