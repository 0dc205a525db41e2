package render

import (
	"html/template"
	"io/fs"
	"strings"
	"sync"
	texttemplate "text/template"

	"folio/pipeline"
)

// # Inline shortcodes
//
// A call whose name ends in ".inline" is one of Hugo's inline
// shortcodes: with a closing tag, what it encloses is its template,
// which Hugo 0.165 parses and runs in its place, with the call as its
// dot (.Page, .Site, .Params, .Get, .Inner: the template's own text) as
// a shortcode template's; self-closing, it runs again the template the
// page defined earlier under that name. The name belongs to the page:
// another page cannot call it. Hugo runs them only when the config sets
// enableInlineShortcodes = true (a template in content is code, so its
// default is false), and otherwise writes nothing in their place.
// Unlike a shortcode file's, the template is Go's text/template, as
// Hugo 0.165 parses it: what it writes is not escaped.
// folio does the same, within the bounds of any shortcode template; a
// call to a name the page has not defined, and a call nested in one,
// are errors, as Hugo stops there.

// inlineSuffix ends the name of an inline shortcode.
const inlineSuffix = ".inline"

// expandInline renders the inline shortcode call n, whose shortcode is
// sc.
func (st *state) expandInline(n *pipeline.Node, sc *shortcode) expansion {
	if !st.r.opts.InlineShortcodes {
		st.warn(n.Line, "shortcode %q: an inline shortcode, which Hugo runs only when the config sets enableInlineShortcodes = true; it shows nothing", n.Name)
		return expansion{}
	}
	root := st.root()
	src, ok := root.inlines[n.Name]
	if n.HasInner {
		var b strings.Builder
		for _, c := range n.Inner {
			if c.Kind == pipeline.ShortcodeNode {
				st.issue(c.Line, "shortcode %q: inline shortcodes do not support nesting (Hugo stops here); it shows nothing", n.Name)
				return expansion{}
			}
			b.WriteString(c.Text)
		}
		src, ok = b.String(), true
		if root.inlines == nil {
			root.inlines = map[string]string{}
		}
		root.inlines[n.Name] = src
		sc.Inner = template.HTML(src)
	}
	if !ok {
		st.issue(n.Line, "shortcode %q: no earlier definition of it in this page (an inline shortcode is defined by a call with a closing tag, then called again in the same page); it shows nothing", n.Name)
		return expansion{}
	}
	return st.execInline(n.Name, src, sc)
}

// execInline runs the inline shortcode name, whose template is src,
// for the call sc. A template that does not parse or fails is an error
// at the call's line, and the call shows nothing.
func (st *state) execInline(name, src string, sc *shortcode) expansion {
	fail := func(err error) expansion {
		st.issue(sc.line, "shortcode %q: %s", name, err)
		return expansion{}
	}
	tpls := st.r.opts.Templates
	if tpls == nil {
		tpls = noTemplates()
	}
	c, err := tpls.get()
	if err != nil {
		return fail(err)
	}
	defer tpls.put(c)
	c.env.bind(st, sc)
	set, err := texttemplate.New(name).Funcs(texttemplate.FuncMap(tpls.funcMap(func() *tplEnv { return c.env }))).Parse(src)
	if err != nil {
		return fail(err)
	}
	for _, tm := range set.Templates() {
		rewriteTryTree(tm.Tree)
		instrumentTree(tm.Tree)
	}
	w := &limitedWriter{max: maxCallOutput}
	if err := set.ExecuteTemplate(w, name, sc); err != nil {
		return fail(execError(err))
	}
	if err := st.root().limits.charge(w.Len()); err != nil {
		return fail(err)
	}
	return st.callOutput(w.String(), sc, false)
}

// noTemplates are the templates of a site without any, for the inline
// shortcodes of a renderer that was given none.
var noTemplates = sync.OnceValue(func() *Templates { return LoadTemplates(emptyFS{}, nil, "") })

// emptyFS is a folder with nothing in it.
type emptyFS struct{}

func (emptyFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}
