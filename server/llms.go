package server

import (
	"net/http"
	"strings"
	"unicode"

	"folio/pipeline"
)

// llmsTxt answers /llms.txt (llmstxt.org): the site's title and summary,
// then one link per post to its Markdown, which is what an agent reads. A
// site's own static/llms.txt is served instead, as it is: Hugo publishes
// it, and its author wrote it for agents.
func (s *Server) llmsTxt(w http.ResponseWriter, r *http.Request, m match) {
	st := m.st
	if s.siteOwn(w, r, m, "/llms.txt") {
		return
	}
	rp, _ := st.memo("llms.txt", func() (*rep, error) {
		return newRep("text/plain; charset=utf-8", llmsBody(st), newest(st, st.snap.Posts())), nil
	})
	s.serve(w, r, m, rp)
}

// llmsHeader is the title and summary llms.txt and llms-full.txt open
// with.
func llmsHeader(cfg *pipeline.Config) string {
	h := "# " + mdLine(cfg.Title) + "\n\n"
	if d := mdLine(cfg.Description); d != "" {
		h += "> " + d + "\n"
	}
	return h
}

func llmsBody(st *state) []byte {
	cfg := st.snap.Config()
	var b strings.Builder
	b.WriteString(llmsHeader(cfg) + "\n")
	b.WriteString("## Posts\n\n")
	for _, p := range st.snap.Posts() {
		b.WriteString("- [" + linkText(p.Title) + "](" + linkURL(cfg.AbsURL(st.snap.MarkdownURLOf(p))) + ")")
		if d := mdLine(p.Description); d != "" {
			b.WriteString(": " + d)
		}
		b.WriteString("\n")
	}
	if pages := otherPages(st); len(pages) > 0 {
		b.WriteString("\n## Pages\n\n")
		for _, pg := range pages {
			b.WriteString(itemLine(newItemView(st, pg)))
		}
	}
	return []byte(b.String())
}

// otherPages are the site's pages that are not posts, in path order: its
// other pages, its sections, taxonomies and terms, in every language (the
// home page is llms.txt's own header).
func otherPages(st *state) []*pipeline.Page {
	posts := map[*pipeline.Post]bool{}
	for _, p := range st.snap.Posts() {
		posts[p] = true
	}
	var out []*pipeline.Page
	for _, r := range st.snap.Routes() {
		if r.Kind != pipeline.RoutePage || r.Path == "/" || (r.Page.Post != nil && posts[r.Page.Post]) || r.Page == st.snap.Directory() {
			continue
		}
		out = append(out, r.Page)
	}
	return out
}

// oneLine folds line breaks and runs of white space into single spaces, so
// a multi-line description cannot break the list, and drops the other
// control characters, which no reader wants in a text file.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.Map(dropControl, s)), " ")
}

func dropControl(r rune) rune {
	if unicode.IsControl(r) && !unicode.IsSpace(r) {
		return -1
	}
	return r
}

// linkText escapes what would end a Markdown link's text early, or make
// a link or HTML of it: a title or description can add no line, heading
// or link to llms.txt, llms-full.txt or a list's Markdown.
var linkTextEscaper = strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`, `<`, `\<`, `>`, `\>`)

func linkText(s string) string { return linkTextEscaper.Replace(oneLine(s)) }

// mdLine is text on one line of a Markdown document, as linkText.
func mdLine(s string) string { return linkText(s) }

// linkURL percent-encodes the parentheses a slug may hold (url.PathEscape
// leaves them), which would end a Markdown link destination early.
var linkURLEscaper = strings.NewReplacer("(", "%28", ")", "%29")

func linkURL(u string) string { return linkURLEscaper.Replace(u) }
