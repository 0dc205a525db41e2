package server

import (
	"net/http"
	"strings"
	"time"

	"folio/pipeline"
	"folio/render"
)

const markdownType = "text/markdown; charset=utf-8"

// articleMarkdown answers /<section>/<slug>.md, the post's markdownUrl.
func (s *Server) articleMarkdown(w http.ResponseWriter, r *http.Request, m match) {
	rp, err := s.markdownRep(m.st, m.post)
	if err != nil {
		s.internalError(w, r, m, err)
		return
	}
	s.serve(w, r, m, rp)
}

// markdownRep is p as Markdown, exactly as CONTRACT's "Markdown body"
// fixes it: front matter, "# Title", then the rendered Markdown alternate
// with shortcodes expanded and links absolute. The negotiated article URL
// serves these same bytes (see negotiated), so both share one ETag.
func (s *Server) markdownRep(st *state, p *pipeline.Post) (*rep, error) {
	return st.memo("md:"+postKey(p), func() (*rep, error) {
		cfg := st.snap.Config()
		body := render.MarkdownDocument(p, cfg.BaseURL, cfg.Section, s.rendered(st, p).Markdown)
		return markdownOf(body, cfg.AbsURL(p.Path(cfg.Section)), modified(p)), nil
	})
}

// directoryMarkdownRep is the blog directory as Markdown (/<section>.md,
// and /<section>/ when negotiated): the site's title and description, then
// one line per post linking to its Markdown.
func (s *Server) directoryMarkdownRep(st *state) (*rep, error) {
	return st.memo("md:directory", func() (*rep, error) {
		cfg := st.snap.Config()
		var b strings.Builder
		b.WriteString("# " + oneLine(cfg.Title) + "\n\n")
		if d := oneLine(cfg.Description); d != "" {
			b.WriteString(d + "\n\n")
		}
		for _, p := range st.snap.Posts() {
			b.WriteString("- [" + linkText(p.Title) + "](" + linkURL(cfg.AbsURL(p.MarkdownPath(cfg.Section))) + ")")
			b.WriteString(" — " + jsonTime(p.Date)[:10])
			if d := oneLine(p.Description); d != "" {
				b.WriteString(": " + d)
			}
			b.WriteString("\n")
		}
		if len(st.snap.Posts()) == 0 {
			b.WriteString("No posts yet.\n")
		}
		return markdownOf([]byte(b.String()), cfg.AbsURL(cfg.Section+"/"), newest(st, st.snap.Posts())), nil
	})
}

// markdownOf is a Markdown representation whose canonical page is page.
func markdownOf(body []byte, page string, mod time.Time) *rep {
	rp := newRep(markdownType, body, mod)
	rp.link = "<" + page + `>; rel="canonical"`
	return rp
}
