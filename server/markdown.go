package server

import (
	"net/http"
	"strconv"
	"strings"

	"folio/pipeline"
	"folio/render"
)

const markdownType = "text/markdown; charset=utf-8"

// markdownRep is p as Markdown, exactly as CONTRACT's "Markdown body"
// fixes it: front matter, "# Title", then the rendered Markdown alternate
// with shortcodes expanded and links absolute. The negotiated article URL
// serves these same bytes (see negotiated), so both share one ETag.
func (s *Server) markdownRep(st *state, p *pipeline.Post) (*rep, error) {
	k := st.memoKeys(p)
	return st.memoSlot(&k.mdRep, k.md, func() (*rep, error) {
		cfg := st.snap.Config()
		page := cfg.AbsURL(st.snap.URLOf(p))
		body := render.MarkdownDocument(p, page, s.rendered(st, p).Markdown)
		return markdownOf(body, page, modified(p), st.snap.Signals(p)), nil
	})
}

// postList is a list page's Markdown: one line per post linking to its
// Markdown, with its date and description, or none when the list is
// empty.
func postList(st *state, posts []*pipeline.Post, none string) string {
	cfg := st.snap.Config()
	var b strings.Builder
	for _, p := range posts {
		b.WriteString("- [" + linkText(p.Title) + "](" + linkURL(cfg.AbsURL(st.snap.MarkdownURLOf(p))) + ")")
		if d := jsonTime(p.Date); d != "" {
			b.WriteString(" — " + d[:10])
		}
		if d := mdLine(p.Description); d != "" {
			b.WriteString(": " + d)
		}
		b.WriteString("\n")
	}
	if len(posts) == 0 {
		b.WriteString(none + "\n")
	}
	return b.String()
}

// directoryMarkdownRep is the blog directory as Markdown (/<section>.md,
// and /<section>/ when negotiated): front matter, then one line per post
// linking to its Markdown.
func (s *Server) directoryMarkdownRep(st *state) (*rep, error) {
	return st.memo("md:directory", func() (*rep, error) {
		cfg := st.snap.Config()
		page := directoryURL(st)
		body := render.PageDocument(directoryTitle, directoryDescription(cfg), page, postList(st, st.snap.Posts(), "No posts yet."))
		return markdownOf(body, page, newest(st, st.snap.Posts()), cfg.Agents.Signals), nil
	})
}

// homeMarkdownRep is the home page as Markdown (/index.md, and / when
// negotiated): the site's title and description, then the newest posts as
// links to their Markdown, and where the rest are.
func (s *Server) homeMarkdownRep(st *state) (*rep, error) {
	return st.memo("md:home", func() (*rep, error) {
		cfg := st.snap.Config()
		posts := st.snap.Posts()
		newestPosts := posts[:min(homeLimit, len(posts))]
		var b strings.Builder
		if len(posts) > 0 {
			b.WriteString("## Latest posts\n\n")
		}
		b.WriteString(postList(st, newestPosts, "Nothing published yet."))
		if len(posts) > 0 {
			b.WriteString("\nAll " + strconv.Itoa(len(posts)) + " posts: " + directoryMarkdownURL(st) + "\n")
		}
		b.WriteString("\nFor agents: " + cfg.AbsURL("llms.txt") + " (every post), " + cfg.AbsURL(apiPagePath) +
			" (the API), " + cfg.AbsURL(skillPath) + " (how to search this blog).\n")
		page, _ := homeURLs(st)
		body := render.PageDocument(cfg.Title, cfg.Description, page, b.String())
		return markdownOf(body, page, newest(st, newestPosts), cfg.Agents.Signals), nil
	})
}

// homeMarkdown answers /index.md where the home page is at / (elsewhere).
func (s *Server) homeMarkdown(w http.ResponseWriter, r *http.Request, m match) {
	rp, err := s.homeMarkdownRep(m.st)
	if err != nil {
		s.internalError(w, r, m, err)
		return
	}
	s.serve(w, r, m, rp)
}
