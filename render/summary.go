package render

import (
	"html"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"folio/pipeline"
)

// Summaries are Hugo 0.165's: the front matter's description, else its
// summary, else the content before <!--more-->, else the automatic
// summary: the content up to the end of the paragraph in which the
// summaryLength-th word falls (70 words by default), the whole content
// when it has fewer. As a description (the post's in JSON, RSS, llms.txt
// and the twin) it is plain text on one line.

// DefaultSummaryLength is Hugo's summaryLength.
const DefaultSummaryLength = 70

// Description is the post's description as Hugo makes its summary, in
// plain text on one line; "" only for a post without text. The rendering
// resolves no links (its text is all a description needs).
func (r *Renderer) Description(p *pipeline.Post) string {
	if p == nil {
		return ""
	}
	if p.Description != "" {
		return p.Description
	}
	res := r.render(p, nil, false)
	summary := string(res.Summary)
	if !hasDivider(p.Body) {
		summary = autoSummary(string(res.HTML), r.summaryLength())
	}
	return oneLine(plainify(summary))
}

func (r *Renderer) summaryLength() int {
	if r.opts.SummaryLength > 0 {
		return r.opts.SummaryLength
	}
	return DefaultSummaryLength
}

// hasDivider reports a <!--more--> at the body's top level.
func hasDivider(body []pipeline.Node) bool {
	for i := range body {
		if body[i].Kind == pipeline.MoreNode {
			return true
		}
	}
	return false
}

// oneLine decodes entities and makes runs of white space one space.
func oneLine(s string) string {
	return strings.Join(strings.Fields(html.UnescapeString(s)), " ")
}

var (
	htmlTagWord  = regexp.MustCompile(`^</?[A-Za-z]+>?$`)
	htmlAttrWord = regexp.MustCompile(`^[A-Za-z]+=["']`)
)

// autoSummary is Hugo's ExtractSummaryFromHTML for Markdown: words are
// counted paragraph by paragraph (what lies before each </p>), words that
// look like HTML tags or attributes not counted; the summary ends after
// the </p> of the paragraph where the count reaches n.
func autoSummary(h string, n int) string {
	count := 0
	for j := 0; j < len(h); {
		end := strings.Index(h[j:], "</p>")
		if end < 0 {
			break
		}
		para := h[j : j+end]
		wi := 0
		for i, r := range para {
			if unicode.IsSpace(r) || i+utf8.RuneLen(r) == len(para) {
				count += countWord(para[wi:i])
				wi = i
				if count >= n {
					break
				}
			}
		}
		if count >= n {
			return strings.TrimSpace(h[:j+end+len("</p>")])
		}
		j += end + len("</p>")
	}
	return strings.TrimSpace(h)
}

func countWord(w string) int {
	w = strings.TrimSpace(w)
	if w == "" || w == ">" || htmlTagWord.MatchString(w) || htmlAttrWord.MatchString(w) {
		return 0
	}
	return 1
}
