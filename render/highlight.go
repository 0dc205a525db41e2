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

// A highlightBudget is what one post may still spend on highlighting:
// code bytes for chroma to tokenise, of which language names chroma must
// match against its lexers' file-name patterns take their share.
type highlightBudget struct {
	bytes int
	// looked holds the languages the post has asked for, so that a name
	// costs once however many blocks use it.
	looked map[string]*highlighter
}

const (
	// maxLangName bounds the language names looked up: a name chroma
	// does not know is matched against a thousand file-name patterns, in
	// time that grows with its length (a 100,000-character name took
	// 53 s). Real names ("javascript", "docker-compose.yml") are shorter.
	maxLangName = 32
	// lookupCost is what a lookup by file-name pattern costs the budget:
	// about 16 ms, the time chroma takes for this much code. It is
	// charged whether or not the name is in highlighters, so that the
	// page does not depend on what the process rendered before; a post
	// of 3,000 fences each naming an unknown language took 20 s.
	lookupCost = 8 << 10
)

// highlighter returns the language's highlighter, nil for a language
// chroma does not know, a name too long, or one the budget cannot pay
// to look up.
func (b *highlightBudget) highlighter(lang string) *highlighter {
	if lang == "" || len(lang) > maxLangName {
		return nil
	}
	if h, ok := b.looked[lang]; ok {
		return h
	}
	var h *highlighter
	if quickName(lang) || b.bytes >= lookupCost {
		if !quickName(lang) {
			b.bytes -= lookupCost
			patternLookups.Add(1)
		}
		h = highlighterFor(lang)
	}
	if b.looked == nil {
		b.looked = map[string]*highlighter{}
	}
	b.looked[lang] = h
	return h
}

var patternLookups atomic.Int64

// LanguageLookups counts the language names a post's budget paid to have
// chroma match against its file-name patterns, since the process started:
// the costly lookups that lookupCost bounds. Tests read it to see that a
// hostile post's work is bounded without timing it.
func LanguageLookups() int64 { return patternLookups.Load() }

// quickName reports whether chroma finds lang among its lexers' names
// and aliases, in a map, rather than by matching file-name patterns.
func quickName(lang string) bool {
	return lexerNames()[strings.ToLower(lang)]
}

var lexerNames = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{}
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		c := l.Config()
		names[strings.ToLower(c.Name)] = true
		for _, a := range c.Aliases {
			names[strings.ToLower(a)] = true
		}
	}
	return names
})

// writeCode writes a code block, taking what it highlights from budget.
// code ends with a newline.
func writeCode(w stringWriter, lang, code string, budget *highlightBudget) {
	lang = strings.TrimSpace(lang)
	if h := budget.highlighter(lang); h != nil && len(code) <= budget.bytes {
		budget.bytes -= len(code)
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

// highlighterFor looks a language up in chroma, through a cache shared
// by every post.
func highlighterFor(lang string) *highlighter {
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
