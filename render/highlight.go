package render

import (
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/dlclark/regexp2/v2"
)

// Code is highlighted with chroma into CSS classes (HighlightCSS), in
// Hugo's markup: <div class="highlight"><pre tabindex="0" class="chroma"><code
// class="language-go" data-lang="go">, with markup.highlight's options
// (line numbers inline or in a table, linked line numbers, highlighted
// lines, the first line's number, the tab width) from the site's
// configuration, a fenced block's {attributes} and the highlight
// shortcode's second argument. A language chroma does not know, or no
// language, gives a plain <pre><code>, as in Hugo.

// maxHighlightPost bounds the code chroma tokenises per post: chroma
// manages a few hundred kilobytes a second, and a huge block is not read
// for its colours anyway. The code past it is plain.
const maxHighlightPost = 64 << 10

// highlightClock is how often regexp2, the engine of chroma's lexers,
// reads the clock that times its matches. chroma stops a match after
// 250 ms of wall time, and regexp2 adds one clock period to that: with
// its default of 100 ms, a match descheduled for a third of a second on
// a busy machine failed, and the lexer took another rule, so a page came
// out in other colours, or with a shortcode's placeholder split and left
// in the page, depending on the load. With this period a match stops
// after 5 to 10 s only, which no scheduling delay of a working process
// reaches, and which still bounds a lexer's pathological pattern (the
// bytes a post may highlight are bounded too, maxHighlightPost).
const highlightClock = 5 * time.Second

func init() { regexp2.SetTimeoutCheckPeriod(highlightClock) }

var (
	// highlighters maps a language as written to its *highlighter, or
	// to nil when chroma has no lexer for it: chroma's lookup of an
	// unknown name tries every lexer's file patterns.
	highlighters sync.Map
	cached       atomic.Int32
)

// A highlighter is a language's lexer and a formatter whose <pre> and
// <code> carry the language, with the default options.
type highlighter struct {
	lexer  chroma.Lexer
	format *chromahtml.Formatter
}

// preWrapper writes Hugo's <pre> and <code> around the highlighted lines.
type preWrapper struct{ lang string }

func (p preWrapper) Start(code bool, _ string) string {
	if !code {
		return `<pre tabindex="0" class="chroma"><code>`
	}
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

// highlight writes code as Hugo's highlight function does, with h's
// options, from the post's budget.
func (st *state) highlight(w stringWriter, code, lang string, h Highlight) {
	writeHighlighted(w, lang, code, h, nil, &st.root().highlightBudget)
}

// writeHighlighted writes code highlighted with h's options; attrs are
// the other attributes of a fenced block, for the wrapping <div>. Code
// past the budget, or in a language chroma does not know, is plain.
func writeHighlighted(w stringWriter, lang, code string, h Highlight, attrs []ast.Attribute, budget *highlightBudget) {
	lang = strings.TrimSpace(lang)
	var hl *highlighter
	if lang != "" {
		hl = budget.highlighter(lang)
	}
	if hl == nil && h.GuessSyntax && len(code) <= budget.bytes {
		// As Hugo, for no language or one chroma does not know: the lexer
		// chroma's analysers guess, else its fallback lexer; the guess
		// costs as much as highlighting.
		budget.bytes -= len(code)
		l := lexers.Analyse(code)
		if l == nil {
			l = lexers.Fallback
		}
		lang = strings.ToLower(l.Config().Name)
		hl = &highlighter{lexer: chroma.Coalesce(l), format: chromahtml.New(chromahtml.WithClasses(true), chromahtml.WithPreWrapper(preWrapper{lang}))}
	}
	if hl != nil && len(code) <= budget.bytes {
		budget.bytes -= len(code)
		if tokens, ok := tokenise(hl.lexer, code); ok {
			writeDiv(w, h.WrapperClass, attrs)
			f := hl.format
			if !h.defaults() {
				f = chromahtml.New(h.formatOptions(lang)...)
			}
			_ = f.Format(w, styles.Fallback, chroma.Literator(tokens...))
			_, _ = w.WriteString("</div>")
			return
		}
	}
	_, _ = w.WriteString(`<pre tabindex="0"><code`)
	if lang != "" {
		_, _ = w.WriteString(` class="language-` + template.HTMLEscapeString(lang) + `" data-lang="` + template.HTMLEscapeString(lang) + `"`)
	}
	_, _ = w.WriteString(">")
	template.HTMLEscape(w, []byte(code))
	_, _ = w.WriteString("</code></pre>")
}

// writeDiv writes the wrapping <div>: the wrapper class, a class
// attribute added to it, then the other attributes.
func writeDiv(w stringWriter, class string, attrs []ast.Attribute) {
	_, _ = w.WriteString(`<div class="` + template.HTMLEscapeString(cmp.Or(class, "highlight")))
	for _, a := range attrs {
		if string(a.Name) == "class" {
			_, _ = w.WriteString(" " + template.HTMLEscapeString(attrString(a.Value)))
			break
		}
	}
	_, _ = w.WriteString(`"`)
	for _, a := range attrs {
		if string(a.Name) != "class" {
			_, _ = w.WriteString(" " + template.HTMLEscapeString(string(a.Name)) + `="` + template.HTMLEscapeString(attrString(a.Value)) + `"`)
		}
	}
	_, _ = w.WriteString(">")
}

func attrString(v any) string {
	switch v := v.(type) {
	case []byte:
		return string(v)
	case string:
		return v
	}
	return fmt.Sprint(v)
}

// defaults reports whether h formats as the cached formatters do.
func (h Highlight) defaults() bool {
	return !h.LineNos && !h.AnchorLineNos && h.HlLines == "" && h.hlRanges == nil && (h.TabWidth == 4 || h.TabWidth == 0) && h.LineNoStart <= 1
}

// formatOptions are chroma's options for h, as Hugo's toHTMLOptions.
func (h Highlight) formatOptions(lang string) []chromahtml.Option {
	anchors := ""
	if h.LineAnchors != "" {
		anchors = h.LineAnchors + "-"
	}
	opts := []chromahtml.Option{
		chromahtml.TabWidth(cmp.Or(h.TabWidth, 4)),
		chromahtml.WithLineNumbers(h.LineNos),
		chromahtml.BaseLineNumber(max(h.LineNoStart, 0)),
		chromahtml.LineNumbersInTable(h.LineNumbersInTable),
		chromahtml.WithClasses(true),
		chromahtml.WithLinkableLineNumbers(h.AnchorLineNos, anchors),
		chromahtml.WithPreWrapper(preWrapper{lang}),
	}
	if ranges := h.ranges(); ranges != nil {
		opts = append(opts, chromahtml.HighlightLines(ranges))
	}
	return opts
}

// ranges are the highlighted lines as chroma counts them.
func (h Highlight) ranges() [][2]int {
	if h.hlRanges != nil {
		return h.hlRanges
	}
	if h.HlLines == "" {
		return nil
	}
	start := h.LineNoStart
	var out [][2]int
	for _, field := range strings.Fields(h.HlLines) {
		lo, hi, isRange := strings.Cut(field, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return out
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				return out
			}
		}
		out = append(out, [2]int{a + start - 1, b + start - 1})
	}
	return out
}

// applyHighlightOptions applies options written as Hugo's highlight
// function takes them, "linenos=table,hl_lines=2 4-5,linenostart=10".
func applyHighlightOptions(h *Highlight, opts string) error {
	opts = strings.Trim(opts, " ")
	if opts == "" {
		return nil
	}
	m := map[string]string{}
	for _, kv := range strings.Split(opts, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.Contains(v, "=") {
			return fmt.Errorf("invalid highlight option: %s", strings.TrimSpace(k))
		}
		m[strings.ToLower(strings.TrimSpace(k))] = v
	}
	return h.set(m)
}

// set applies options by lower-case name, weakly typed as Hugo decodes
// them.
func (h *Highlight) set(m map[string]string) error {
	if v, ok := m["linenostart"]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("highlight option linenostart: %q is not a number", v)
		}
		h.LineNoStart = n
	}
	for k, v := range m {
		var err error
		switch k {
		case "linenos":
			switch v {
			case "table", "inline":
				h.LineNos, h.LineNumbersInTable = true, v == "table"
			default:
				h.LineNos = v != "false"
			}
		case "hl_lines":
			h.HlLines = v
		case "anchorlinenos":
			h.AnchorLineNos, err = strconv.ParseBool(v)
		case "lineanchors":
			h.LineAnchors = v
		case "linenumbersintable":
			h.LineNumbersInTable, err = strconv.ParseBool(v)
		case "tabwidth":
			h.TabWidth, err = strconv.Atoi(v)
		case "guesssyntax":
			h.GuessSyntax, err = strconv.ParseBool(v)
		case "style", "noclasses", "hl_inline", "linenostart", "wrapperclass":
			// The style is the stylesheet's; classes are always written.
		}
		if err != nil {
			return fmt.Errorf("highlight option %s: %q is not valid", k, v)
		}
	}
	return nil
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

// HighlightCSSFor is the stylesheet for markup.highlight.style: chroma's
// style of that name (its fallback for a name chroma does not know), or
// HighlightCSS when style is "". A site that chose a style gets it; the
// classes are the same.
func HighlightCSSFor(style string) string {
	if style == "" {
		return HighlightCSS()
	}
	st := styles.Get(style)
	if st == nil {
		st = styles.Fallback
	}
	var b strings.Builder
	_ = chromahtml.New(chromahtml.WithClasses(true)).WriteCSS(&b, st)
	return b.String()
}

// HighlightCSS is the stylesheet of the renderer's configured style.
func (r *Renderer) HighlightCSS() string { return HighlightCSSFor(r.markup.Highlight.Style) }

// codeAttributes reads a fenced block's {attributes}: the highlighting
// options go into h (as Hugo's codeblocks extension applies them), the
// others are returned for the wrapping <div>. Event handlers (on*) are
// dropped, as Hugo drops them.
func codeAttributes(h *Highlight, info []byte) []ast.Attribute {
	open := bytes.IndexByte(info, '{')
	if open < 0 {
		return nil
	}
	end := bytes.IndexByte(info[open:], '}')
	if end < 0 {
		return nil
	}
	attrs, ok := parser.ParseAttributes(text.NewReader(info[open : open+end+1]))
	if !ok {
		return nil
	}
	opts := map[string]string{}
	var out []ast.Attribute
	for _, a := range attrs {
		name := strings.ToLower(string(a.Name))
		switch {
		case strings.HasPrefix(name, "on"):
		case name == "hl_lines":
			if list, ok := a.Value.([]any); ok {
				h.hlRanges = hlList(list)
			} else {
				opts[name] = attrString(a.Value)
			}
		case highlightOption[name]:
			opts[name] = attrString(a.Value)
		default:
			out = append(out, ast.Attribute{Name: []byte(name), Value: a.Value})
		}
	}
	_ = h.set(opts)
	if h.hlRanges != nil {
		for i := range h.hlRanges {
			h.hlRanges[i][0] += h.LineNoStart
			h.hlRanges[i][1] += h.LineNoStart
		}
	}
	return out
}

// highlightOption lists the attribute names of a fenced block that are
// highlighting options, lower-cased.
var highlightOption = map[string]bool{
	"anchorlinenos": true, "guesssyntax": true, "hl_lines": true, "lineanchors": true, "linenos": true,
	"linenostart": true, "linenumbersintable": true, "noclasses": true, "style": true, "tabwidth": true,
}

// hlList reads hl_lines given as a list ([2, "4-5"]), counted from 0.
func hlList(list []any) [][2]int {
	var out [][2]int
	for _, v := range list {
		switch v := v.(type) {
		case float64:
			out = append(out, [2]int{int(v) - 1, int(v) - 1})
		case []byte:
			lo, hi, isRange := strings.Cut(string(v), "-")
			a, err := strconv.Atoi(lo)
			if err != nil {
				continue
			}
			b := a
			if isRange {
				if b, err = strconv.Atoi(hi); err != nil {
					continue
				}
			}
			out = append(out, [2]int{a - 1, b - 1})
		}
	}
	return out
}
