package server

import (
	"html/template"
	"net/http"
	"sync/atomic"

	"folio/agents"
	"folio/pipeline"
)

// article answers /<section>/<slug>/: the HTML page, or the post's
// Markdown when the request's Accept prefers it.
func (s *Server) article(w http.ResponseWriter, r *http.Request, m match) {
	st, p := m.st, m.post
	s.negotiated(w, r, m,
		func() (*rep, error) { return s.articleRep(st, p) },
		func() (*rep, error) { return s.markdownRep(st, p) })
}

// articleRep is the article page of p, made once per snapshot.
func (s *Server) articleRep(st *state, p *pipeline.Post) (*rep, error) {
	k := st.memoKeys(p)
	return st.memoSlot(&k.pageRep, k.page, func() (*rep, error) {
		return htmlRep(st, s.articlePage(st, p), modified(p))
	})
}

// postKey names p in the memo keys of its answers: "page:"+postKey and
// "md:"+postKey.
func postKey(p *pipeline.Post) string { return "post:" + p.File }

// postKeys are the memo keys of a post's page and Markdown, boxed, and
// their entries in the memo once looked up (memoSlot).
type postKeys struct {
	page, md       any
	pageRep, mdRep atomic.Pointer[lazyRep]
}

// memoKeys returns p's memo keys in st, made once: a request for a post
// then looks its answer up without making a string (a pointer key boxes
// without allocating), and from the second on without looking the key
// up in the memo. Release drops them with the answers.
func (st *state) memoKeys(p *pipeline.Post) *postKeys {
	if v, ok := st.postKeys.Load(p); ok {
		return v.(*postKeys)
	}
	k := postKey(p)
	v, _ := st.postKeys.LoadOrStore(p, &postKeys{page: "page:" + k, md: "md:" + k})
	return v.(*postKeys)
}

// articlePage is the template data of p's page.
func (s *Server) articlePage(st *state, p *pipeline.Post) *pageData {
	v := newPostView(st, p)
	v.Content = s.rendered(st, p).HTML
	pg := s.newPage(st, "article")
	pg.Title, pg.Description = p.Title, p.Description
	pg.Canonical, pg.Markdown = v.URL, v.MarkdownURL
	pg.Post = v
	pg.OGType = "article"
	pg.signals = st.snap.Signals(p)
	cfg := st.snap.Config()
	pg.JSONLD = template.JS(agents.BlogPosting(agents.Article{
		Title: p.Title, Description: p.Description, URL: v.URL, MarkdownURL: v.MarkdownURL,
		Author: cfg.Author, Language: cfg.Language, Published: p.Date, Modified: p.Lastmod, Tags: p.Tags,
		SiteName: cfg.Title, SiteURL: siteURL(st),
	}))
	return pg
}
