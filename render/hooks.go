package render

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Render hooks are a site's templates for Markdown's own elements, as
// Hugo runs them: layouts/_markup/render-link.html renders every link,
// render-image.html every image, render-heading.html every heading,
// render-codeblock.html (or render-codeblock-LANG.html) fenced code
// blocks, render-blockquote.html (or -alert, -regular) block quotes,
// render-table.html tables (tables.go), render-passthrough.html (or
// -inline, -block) the passthrough extension's elements (passthrough.go).
// They are found as Hugo finds them:
//
//   - in layouts/_markup/, layouts/_default/_markup/ (Hugo's older
//     place) and a section's layouts/SECTION/_markup/, the site's own
//     layouts first, then each theme's;
//   - the folder nearest the page wins (a section's generic
//     render-codeblock.html over the root's render-codeblock-go.html);
//     in one folder, the variant for the element (-go, -alert) over the
//     generic file; a language variant (render-link.en.html) over the
//     plain file.
//
// Hugo's own goat code block renderer (```goat diagrams as SVG) comes
// after the site's and themes' goat hooks at the root, before their
// generic code block hook. A hook's context is Hugo's (.Destination,
// .Text, .PlainText, .Title, .Page, .Ordinal, .Position, .Attributes,
// .Level, .Anchor, .Type, .Inner, .Options, .AlertType, .THead,
// .TBody…); its output is written as it comes, as Hugo writes it. Hooks
// run with the page's template budget (limits.go); one that fails is a
// problem at the element's line naming the template's file and line, and
// the element is rendered as without the hook (a table as Hugo's own
// table template renders it, a passthrough element as written). A
// .Position has the element's line; its column is always 1.
//
// The Markdown twin is made from the Markdown, not from the hooks'
// HTML: a mermaid block stays a ```mermaid fence, an alert a > [!NOTE]
// quote, math its $$ … $$ as written.

// hookKinds are the hooks run, by the name in render-KIND.html.
var hookKinds = map[string]bool{"link": true, "image": true, "heading": true, "codeblock": true, "blockquote": true, "passthrough": true, "table": true}

// A hookKey names one hook template: its folder below layouts ("" for
// _markup and _default/_markup, "docs" for docs/_markup), its kind, and
// its variant ("go" in render-codeblock-go, "" for the generic file).
type hookKey struct{ dir, kind, variant string }

// loadHooks loads the render hooks below one layouts folder (the site's,
// ri 0, or a theme's): every _markup folder in it.
func (t *Templates) loadHooks(fsys fs.FS, root string, ri int, files *int) {
	_ = fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		switch d.Name() {
		case "_shortcodes", "shortcodes", "_partials", "partials":
			return fs.SkipDir
		case "_markup":
		default:
			return nil
		}
		dir := strings.TrimPrefix(strings.TrimPrefix(path.Dir(p), root), "/")
		if dir == "_default" {
			dir = ""
		}
		t.loadingHooks = dir
		t.loadDir(fsys, p, files, func(name, tname string, rank int, _ string) {
			k, ok := hookKeyOf(dir, name)
			if !ok {
				return
			}
			if old, ok := t.hooks[k]; ok && (old.root < ri || old.rank >= rank) {
				return
			}
			t.hooks[k] = &siteTemplate{name: tname, root: ri, rank: rank}
			t.hookKinds[k.kind] = true
		})
		return fs.SkipDir
	})
}

// failedHook records a hook template that did not parse, so that the
// elements it renders say so.
func (t *Templates) failedHook(name, tname string, err error) {
	if k, ok := hookKeyOf(t.loadingHooks, name); ok {
		if _, taken := t.hooks[k]; !taken {
			t.hooks[k] = &siteTemplate{name: tname, failed: err}
			t.hookKinds[k.kind] = true
		}
	}
}

// hookKeyOf reads a hook's file name ("render-codeblock-mermaid").
func hookKeyOf(dir, name string) (hookKey, bool) {
	rest, ok := strings.CutPrefix(name, "render-")
	if !ok || strings.Contains(rest, "/") {
		return hookKey{}, false
	}
	kind, variant, _ := strings.Cut(rest, "-")
	if !hookKinds[kind] {
		return hookKey{}, false
	}
	return hookKey{dir: dir, kind: kind, variant: variant}, true
}

// hasHooks reports whether the site has render hooks of kind ("link",
// "codeblock"…).
func (t *Templates) hasHooks(kind string) bool { return t != nil && t.hookKinds[kind] }

// HasHooks reports whether the site has a render hook of any kind: then
// its templates render posts that call no shortcode too.
func (t *Templates) HasHooks() bool { return t != nil && len(t.hookKinds) > 0 }

// goatHook stands for Hugo's own goat code block renderer.
var goatHook = &siteTemplate{name: "goat"}

// hook finds the hook that renders an element of kind (with variant:
// a code block's language, a block quote's type) on st's page; nil for
// folio's own rendering.
func (st *state) hook(kind, variant string) *siteTemplate {
	t := st.r.opts.Templates
	embedded := kind == "codeblock" && variant == "goat"
	if !t.hasHooks(kind) {
		if embedded {
			return goatHook
		}
		return nil
	}
	dir := st.post.Dir
	for {
		if variant != "" {
			if h := t.hooks[hookKey{dir, kind, variant}]; h != nil {
				return h
			}
			if dir == "" && embedded {
				return goatHook
			}
		}
		if h := t.hooks[hookKey{dir, kind, ""}]; h != nil {
			return h
		}
		if dir == "" || dir == "." {
			return nil
		}
		if dir = path.Dir(dir); dir == "." {
			dir = ""
		}
	}
}

// hookBase is what every hook's context has: the page, the element's
// ordinal among its kind in the page, and its position.
type hookBase struct {
	page    *page
	ordinal int
	pos     position
}

func (h *hookBase) Page() *page        { return h.page }
func (h *hookBase) PageInner() *page   { return h.page }
func (h *hookBase) Ordinal() int       { return h.ordinal }
func (h *hookBase) Position() position { return h.pos }

// linkHook is the context of render-link.html: Hugo's LinkContext. The
// destination is folio's, resolved as a link's href is (a dangerous URL
// is empty unless raw HTML is allowed).
type linkHook struct {
	hookBase
	Destination string
	Title       string
	Text        template.HTML
	PlainText   string
	Attributes  map[string]any
}

// imageHook is the context of render-image.html.
type imageHook struct {
	linkHook
	// IsBlock is true for an image alone in its paragraph when
	// wrapStandAloneImageWithinParagraph is off; folio always wraps.
	IsBlock bool
}

// headingHook is the context of render-heading.html.
type headingHook struct {
	hookBase
	Level      int
	Anchor     string
	Text       template.HTML
	PlainText  string
	Attributes map[string]any
}

// codeblockHook is the context of render-codeblock[-LANG].html.
type codeblockHook struct {
	hookBase
	Type       string
	Inner      string
	Options    map[string]any
	Attributes map[string]any
}

// blockquoteHook is the context of render-blockquote[-TYPE].html.
type blockquoteHook struct {
	hookBase
	Type       string
	AlertType  string
	AlertTitle template.HTML
	AlertSign  string
	Text       template.HTML
	Attributes map[string]any
}

// maxHookNest bounds hooks run inside hooks (a link hook that
// markdownifies a link).
const maxHookNest = 8

// runHook runs a hook template for the element at line; ok is false when
// it failed, the failure reported, and the element is then rendered by
// folio.
func (st *state) runHook(t *siteTemplate, ctx any, line int) (out string, ok bool) {
	root := st.root()
	fail := func(err error) (string, bool) {
		if h := hugoOnlyOf(err); h != nil {
			st.warn(line, "render hook %s: %s; folio renders the element itself", path.Base(t.name), h.said())
		} else {
			st.issue(line, "render hook %s: %s", path.Base(t.name), err)
		}
		return "", false
	}
	if t.failed != nil {
		return fail(t.failed)
	}
	if root.hookDepth >= maxHookNest {
		return fail(fmt.Errorf("%w: render hooks nested more than %d deep", errLimit, maxHookNest))
	}
	// What the hook renders (markdownify, image warnings) is at its line.
	root.hookDepth++
	saved := root.lastLine
	root.lastLine = line
	defer func() { root.hookDepth--; root.lastLine = saved }()
	tpls := st.r.opts.Templates
	c, err := tpls.get()
	if err != nil {
		return fail(err)
	}
	defer tpls.put(c)
	c.env.bindHook(st, line, "render hook "+path.Base(t.name))
	w := &limitedWriter{max: maxCallOutput}
	if err := c.set.ExecuteTemplate(w, t.name, ctx); err != nil {
		return fail(execError(err))
	}
	if err := root.limits.charge(w.Len()); err != nil {
		return fail(err)
	}
	return w.String(), true
}

// base makes a hook's base context for an element of kind at line.
func (st *state) hookBase(kind ast.NodeKind, line int) hookBase {
	return hookBase{page: st.pageView(), ordinal: st.nextOrdinal(kind), pos: position{file: st.post.File, line: line}}
}

// nextOrdinal counts the elements of kind rendered, as Hugo's .Ordinal.
func (st *state) nextOrdinal(kind ast.NodeKind) int {
	if st.ordinals == nil {
		st.ordinals = map[ast.NodeKind]int{}
	}
	n := st.ordinals[kind]
	st.ordinals[kind]++
	return n
}

// nodeLine is the file line an element starts on.
func (st *state) nodeLine(n ast.Node) int {
	for c := n; c != nil; c = c.FirstChild() {
		if c.Type() == ast.TypeBlock && c.Lines().Len() > 0 {
			return st.line(c.Lines().At(0).Start)
		}
		if t, ok := c.(*ast.Text); ok {
			return st.line(t.Segment.Start)
		}
	}
	for _, ls := range st.links {
		if ls.node == n {
			return st.line(ls.close)
		}
	}
	if p := n.Parent(); p != nil && p.Kind() != ast.KindDocument {
		return st.nodeLine(p)
	}
	return max(st.post.BodyLine, 1)
}

// hookAttributes are an element's attributes as a hook sees them: event
// handlers left out, names in lower case, values as Hugo types them; a
// code block's highlighting options apart (options non-nil).
func hookAttributes(attrs []ast.Attribute, options map[string]any) map[string]any {
	out := map[string]any{}
	for _, a := range attrs {
		name := strings.ToLower(string(a.Name))
		if strings.HasPrefix(name, "on") {
			continue
		}
		var v any
		switch x := a.Value.(type) {
		case []byte:
			v = string(x)
		case bool, float64:
			v = x
		case []any:
			v = hlRanges(x)
		default:
			v = fmt.Sprint(x)
		}
		if options != nil && chromaOptions[name] {
			options[string(a.Name)] = v
			continue
		}
		out[name] = v
	}
	return out
}

// chromaOptions are the attributes Hugo hands a code block hook as
// .Options, in lower case.
var chromaOptions = map[string]bool{
	"anchorlinenos": true, "guesssyntax": true, "hl_lines": true, "hl_inline": true, "lineanchors": true,
	"linenos": true, "linenostart": true, "linenumbersintable": true, "noclasses": true, "style": true, "tabwidth": true,
}

// hlRanges reads hl_lines=[2 "4-5"] as Hugo does: zero-based ranges.
func hlRanges(v []any) [][2]int {
	var out [][2]int
	for _, l := range v {
		switch x := l.(type) {
		case float64:
			out = append(out, [2]int{int(x) - 1, int(x) - 1})
		case []byte:
			lo, hi, _ := strings.Cut(string(x), "-")
			a, err := strconv.Atoi(lo)
			if err != nil {
				continue
			}
			b := a
			if hi != "" {
				if b, err = strconv.Atoi(hi); err != nil {
					continue
				}
			}
			out = append(out, [2]int{a - 1, b - 1})
		}
	}
	return out
}

// codeBlockAttributes are a fenced block's {attributes}, from the block
// or its info string, as Hugo's code block hook gets them.
func codeBlockAttributes(n *ast.FencedCodeBlock, info []byte) []ast.Attribute {
	if n.Attributes() != nil {
		return n.Attributes()
	}
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
	holder := ast.NewTextBlock() // as Hugo: set one by one, the last of a name wins
	for _, a := range attrs {
		holder.SetAttribute(a.Name, a.Value)
	}
	return holder.Attributes()
}
