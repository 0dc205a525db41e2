package render

import (
	"html/template"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// Code is highlighted with chroma into CSS classes (HighlightCSS), in
// Hugo's markup: <div class="highlight"><pre class="chroma"><code
// class="language-go" data-lang="go">. A language chroma does not know,
// or no language, gives a plain <pre><code>.

// maxHighlightPost bounds the code chroma tokenises per post: chroma
// manages a few hundred kilobytes a second, and a huge block is not read
// for its colours anyway. The code past it is plain.
const maxHighlightPost = 64 << 10

var (
	// highlighters maps a language as written to its *highlighter, or
	// to nil when chroma has no lexer for it: chroma's lookup of an
	// unknown name tries every lexer's file patterns.
	highlighters sync.Map
	cached       atomic.Int32
)

// A highlighter is a language's lexer and a formatter whose <pre> and
// <code> carry the language.
type highlighter struct {
	lexer  chroma.Lexer
	format *chromahtml.Formatter
}

// preWrapper writes Hugo's <pre> and <code> around the highlighted lines.
type preWrapper struct{ lang string }

func (p preWrapper) Start(code bool, _ string) string {
	lang := template.HTMLEscapeString(p.lang)
	return `<pre tabindex="0" class="chroma"><code class="language-` + lang + `" data-lang="` + lang + `">`
}

func (p preWrapper) End(code bool) string { return "</code></pre>" }

type stringWriter interface {
	io.Writer
	io.StringWriter
}

// writeCode writes a code block, taking what it highlights from *budget.
// code ends with a newline.
func writeCode(w stringWriter, lang, code string, budget *int) {
	lang = strings.TrimSpace(lang)
	if h := highlighterFor(lang); h != nil && len(code) <= *budget {
		*budget -= len(code)
		if tokens, ok := tokenise(h.lexer, code); ok {
			_, _ = w.WriteString(`<div class="highlight">`)
			_ = h.format.Format(w, styles.Fallback, chroma.Literator(tokens...))
			_, _ = w.WriteString("</div>\n")
			return
		}
	}
	_, _ = w.WriteString(`<pre tabindex="0"><code`)
	if lang != "" {
		_, _ = w.WriteString(` class="language-` + template.HTMLEscapeString(lang) + `" data-lang="` + template.HTMLEscapeString(lang) + `"`)
	}
	_, _ = w.WriteString(">")
	template.HTMLEscape(w, []byte(code))
	_, _ = w.WriteString("</code></pre>\n")
}

func highlighterFor(lang string) *highlighter {
	if lang == "" {
		return nil
	}
	if v, ok := highlighters.Load(lang); ok {
		h, _ := v.(*highlighter)
		return h
	}
	var h *highlighter
	if l := lexers.Get(strings.ToLower(lang)); l != nil {
		h = &highlighter{
			lexer:  chroma.Coalesce(l),
			format: chromahtml.New(chromahtml.WithClasses(true), chromahtml.WithPreWrapper(preWrapper{lang})),
		}
	}
	// Languages come from the content; a bound keeps a hostile post
	// from growing the cache without end.
	if cached.Add(1) < 4096 {
		highlighters.Store(lang, h)
	}
	return h
}

// tokenise runs the lexer, turning a panic inside chroma into "no
// highlighting".
func tokenise(lexer chroma.Lexer, code string) (tokens []chroma.Token, ok bool) {
	defer func() {
		if recover() != nil {
			tokens, ok = nil, false
		}
	}()
	it, err := lexer.Tokenise(nil, code)
	if err != nil {
		return nil, false
	}
	return it.Tokens(), true
}

var (
	cssOnce sync.Once
	css     string
)

// HighlightCSS is the stylesheet for the classes of highlighted code:
// chroma's "github" style, and "github-dark" for readers who prefer a
// dark scheme. Each style sits in its own media query: the dark style does
// not name every class the light one colours, so light rules left outside
// would paint dark text on the dark background.
func HighlightCSS() string {
	cssOnce.Do(func() {
		var b strings.Builder
		f := chromahtml.New(chromahtml.WithClasses(true))
		b.WriteString("@media not all and (prefers-color-scheme: dark) {\n")
		_ = f.WriteCSS(&b, styles.Get("github"))
		b.WriteString("}\n")
		b.WriteString("@media (prefers-color-scheme: dark) {\n")
		_ = f.WriteCSS(&b, styles.Get("github-dark"))
		b.WriteString("}\n")
		css = b.String()
	})
	return css
}
