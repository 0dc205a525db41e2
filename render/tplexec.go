package render

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"reflect"
	"regexp"
	"strings"
	"time"

	"folio/render/funcs"

	"github.com/yuin/goldmark/util"
)

// execShortcode runs a site's shortcode template for a call. A template
// that fails (it did not parse, it called errorf, it went past a bound,
// it asked for what is not there) is an error at the call's line naming
// the template's file and line; the call then keeps its inner text.
func (st *state) execShortcode(t *siteTemplate, sc *shortcode) expansion {
	fallback := func(err error) expansion {
		if h := hugoOnlyOf(err); h != nil {
			st.warn(sc.line, "shortcode %q: %s; its inner text is kept", sc.Name, h.said())
		} else {
			st.issue(sc.line, "shortcode %q: %s", sc.Name, err)
		}
		out := string(sc.Inner)
		if !sc.markup {
			out, _ = st.renderMarkdown(out, false)
		}
		return expansion{out: out, md: st.innerTwin(sc)}
	}
	if t.failed != nil {
		return fallback(t.failed)
	}
	tpls := st.r.opts.Templates
	c, err := tpls.get()
	if err != nil {
		return fallback(err)
	}
	defer tpls.put(c)
	c.env.bind(st, sc)
	w := &limitedWriter{max: maxCallOutput}
	if err := c.set.ExecuteTemplate(w, t.name, sc); err != nil {
		return fallback(execError(err))
	}
	if err := st.root().limits.charge(w.Len()); err != nil {
		return fallback(err)
	}
	return st.callOutput(w.String(), sc, t.version1)
}

// callOutput is the expansion of a call whose template wrote out.
func (st *state) callOutput(out string, sc *shortcode, version1 bool) expansion {
	md := out
	markdown := sc.markup && !version1 // the output is Markdown
	if !markdown || hasTag(out) {
		h := out
		if markdown {
			h, _ = st.renderMarkdown(out, false)
		}
		md = htmlToMarkdown(h)
	}
	return expansion{out: out, md: md, block: strings.Contains(md, "\n\n")}
}

// limitedWriter is a buffer that fails past max bytes.
type limitedWriter struct {
	bytes.Buffer
	max int
}

func (w *limitedWriter) Write(p []byte) (int, error) {
	if w.Len()+len(p) > w.max {
		return 0, fmt.Errorf("%w: a shortcode's output larger than %d bytes", errLimit, w.max)
	}
	return w.Buffer.Write(p)
}

// templateError is what a template said with errorf.
type templateError struct{ msg string }

func (e *templateError) Error() string { return e.msg }

// callingPrefix is text/template's "at <f>: error calling f: ".
var callingPrefix = regexp.MustCompile(`^(at [^:]*: )?error calling ([^:]+): `)

var execPrefix = regexp.MustCompile(`^template: ([^:]+):(\d+):\d+: executing "[^"]*" at <([^>]*)>: `)

// execError words an execution error for an author: the template's file
// and line, then what went wrong, without Go's type names.
func execError(err error) error {
	var te *templateError
	if errors.As(err, &te) {
		return te
	}
	if h := hugoOnlyOf(err); h != nil {
		return h // a partial calling a function of Hugo's
	}
	msg := err.Error()
	where := ""
	if m := execPrefix.FindStringSubmatch(msg); m != nil {
		where = m[1] + ":" + m[2] + ": "
		msg = msg[len(m[0]):]
		if m[3] != "" {
			msg = "at " + m[3] + ": " + msg
		}
	} else if m := templateErr.FindStringSubmatch(msg); m != nil {
		where = m[1] + ":" + m[2] + ": "
		msg = m[3]
	}
	if m := callingPrefix.FindStringSubmatch(msg); m != nil {
		msg = msg[len(m[0]):]
		if !strings.HasPrefix(m[2], "__folio") {
			msg = m[2] + ": " + msg
		}
	}
	msg = goTypes.Replace(msg)
	return errors.New("template " + where + msg)
}

// goTypes names folio's types as Hugo's documentation names them.
var goTypes = strings.NewReplacer(
	"*render.shortcode", "the shortcode (.)", "*render.page", "Page", "*render.site", "Site",
	"*render.resource", "Resource", "render.resources", "Resources", "*render.pageRef", "Page",
	"*render.file", "File", "*render.language", "Language", "*funcs.Scratch", "Scratch",
	"*render.linkHook", "the link (.)", "*render.imageHook", "the image (.)", "*render.headingHook", "the heading (.)",
	"*render.codeblockHook", "the code block (.)", "*render.blockquoteHook", "the block quote (.)",
	"*render.passthroughHook", "the passthrough element (.)", "*render.tableHook", "the table (.)",
	"render.tableCell", "the table cell", "render.aliasData", "the alias page (.)", "*render.aliasPage", "Page",
)

// tplEnv is the execution a clone's functions work for: funcs.Env.
type tplEnv struct {
	t   *Templates
	set *template.Template
	st  *state
	// line is the line of the call or element the template renders,
	// what names its template in messages ("shortcode \"notice\"").
	line int
	what string
	// nest counts the templates being executed inside each other.
	nest int
}

func (e *tplEnv) bind(st *state, sc *shortcode) {
	e.st, e.line, e.what, e.nest = st, sc.line, fmt.Sprintf("shortcode %q", sc.Name), 0
}

// bindHook binds the env to a render hook's execution.
func (e *tplEnv) bindHook(st *state, line int, what string) {
	e.st, e.line, e.what, e.nest = st, line, what, 0
}

func (e *tplEnv) reset() { e.st, e.line, e.what, e.nest = nil, 0, "", 0 }

func (e *tplEnv) limits() *limits { return &e.st.root().limits }

func (e *tplEnv) step() error { return e.limits().step() }

// Steps implements funcs.Env.
func (e *tplEnv) Steps(n int) error {
	if n <= 0 {
		return nil
	}
	return e.limits().stepN(n)
}

func (e *tplEnv) enter() error {
	e.nest++
	if e.nest > maxTemplateNest {
		return fmt.Errorf("%w: templates and partials nested more than %d deep", errLimit, maxTemplateNest)
	}
	return e.step()
}

func (e *tplEnv) leave() { e.nest-- }

// Size implements funcs.Env.
func (e *tplEnv) Size(v any) error {
	if n, ok := v.(funcs.Bytes); ok {
		return e.limits().charge(int(n))
	}
	if err := e.limits().size(v); err != nil {
		return err
	}
	return e.limits().charge(sizeOf(v))
}

// sizeOf estimates the bytes a value takes.
func sizeOf(v any) int {
	switch v := v.(type) {
	case string:
		return len(v)
	case []string:
		n := 0
		for _, s := range v {
			n += len(s) + 16
		}
		return n
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		return rv.Len() * 16
	}
	return 16
}

// Markdownify implements funcs.Env.
func (e *tplEnv) Markdownify(s string) (template.HTML, error) {
	h, err := e.st.renderString(s, true)
	if err != nil {
		return "", err
	}
	return template.HTML(trimShortHTML(h)), nil
}

// Highlight implements funcs.Env.
func (e *tplEnv) Highlight(code, lang, opts string) (template.HTML, error) {
	h := e.st.r.markup.Highlight
	if err := applyHighlightOptions(&h, opts); err != nil {
		return "", err
	}
	var b strings.Builder
	e.st.highlight(&b, code, lang, h)
	return template.HTML(b.String()), nil
}

// CanHighlight implements funcs.Env: the lookup highlighting would make,
// from the post's budget (a name chroma must match against its file-name
// patterns costs the budget as a fenced block naming it does).
func (e *tplEnv) CanHighlight(lang string) bool {
	return e.st.root().highlightBudget.highlighter(lang) != nil
}

// Partial implements funcs.Env: the partial's output, or the value it
// returned.
func (e *tplEnv) Partial(name string, ctx any) (any, error) {
	tn, ok := e.t.partial(name)
	if !ok {
		if err := e.t.failedPartial(name); err != nil {
			return nil, fmt.Errorf("partial %q: %w", name, err)
		}
		if absent := e.t.absent; len(absent) > 0 {
			return nil, fmt.Errorf("partial %q not found (%s, which may hold it, %s missing: the warning at the config's theme or module says how to get it)",
				name, strings.Join(absent, ", "), map[bool]string{true: "is", false: "are"}[len(absent) == 1])
		}
		return nil, fmt.Errorf("partial %q not found", name)
	}
	nest := e.nest
	w := &limitedWriter{max: maxCallOutput}
	err := e.set.ExecuteTemplate(w, tn, ctx)
	e.nest = nest
	var ret *funcs.Returned
	if errors.As(err, &ret) {
		return ret.Value, nil
	}
	if err != nil {
		var te *templateError
		if errors.As(err, &te) || errors.Is(err, errLimit) {
			return nil, err
		}
		return nil, fmt.Errorf("partial %q: %w", name, execError(err))
	}
	return template.HTML(w.String()), nil
}

// PartialExists implements funcs.Env.
func (e *tplEnv) PartialExists(name string) bool {
	_, ok := e.t.partial(name)
	return ok
}

// URL implements funcs.Env: absolute URLs, as folio writes every URL of a
// body. abs is absURL: a path starting with "/" is from the host; relURL
// keeps the base URL's path before it.
func (e *tplEnv) URL(s string, abs bool) string {
	if strings.HasPrefix(s, "//") || strings.Contains(s, "://") || strings.HasPrefix(s, "mailto:") || strings.HasPrefix(s, "#") {
		return s
	}
	base := e.st.r.base
	root := base.Scheme + "://" + base.Host
	p := strings.TrimPrefix(s, "/")
	if abs && strings.HasPrefix(s, "/") {
		return root + "/" + p
	}
	return e.st.r.baseURL + p
}

// LangURL implements funcs.Env: the URL below the folder of the page's
// language, as Hugo's relLangURL and absLangURL (none for the default
// language unless it is in a folder too), the folder not added twice.
func (e *tplEnv) LangURL(s string, abs bool) string {
	if strings.HasPrefix(s, "//") || strings.Contains(s, "://") || strings.HasPrefix(s, "mailto:") || strings.HasPrefix(s, "#") {
		return s
	}
	if prefix := e.st.langPrefix(); prefix != "" {
		rest := strings.TrimPrefix(s, "/")
		if rest != prefix && !strings.HasPrefix(rest, prefix+"/") {
			if strings.HasPrefix(s, "/") {
				s = "/" + prefix + s
			} else {
				s = prefix + "/" + s
			}
		}
	}
	return e.URL(s, abs)
}

// Ref implements funcs.Env.
func (e *tplEnv) Ref(page any, args any, rel bool) (string, error) {
	return e.st.refFunc(args, e.line)
}

// Now implements funcs.Env.
func (e *tplEnv) Now() time.Time {
	if !e.st.r.opts.Now.IsZero() {
		return e.st.r.opts.Now
	}
	return time.Now()
}

// Translate implements funcs.Env: the site's translation, "" for a key
// without one (Hugo's output for a missing translation).
func (e *tplEnv) Translate(key string, ctx any) string {
	return e.t.translate(key, e.st.root().post.Lang)
}

// Warn implements funcs.Env.
func (e *tplEnv) Warn(msg string) { e.st.warn(e.line, "%s: %s", e.what, msg) }

// Error implements funcs.Env.
func (e *tplEnv) Error(msg string) error { return &templateError{msg: msg} }

// Site implements funcs.Env.
func (e *tplEnv) Site() any { return e.st.site() }

// Hugo implements funcs.Env.
func (e *tplEnv) Hugo() any { return e.st.site().Hugo() }

// Emojify implements funcs.Env.
func (e *tplEnv) Emojify(s string) template.HTML { return template.HTML(emojify(s)) }

// Anchorize implements funcs.Env.
func (e *tplEnv) Anchorize(s string) string {
	return anchorName(string(util.ResolveEntityNames([]byte(s))), e.st.r.markup.AutoIDType)
}
