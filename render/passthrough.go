package render

import (
	"strings"

	"github.com/gohugoio/hugo-goldmark-extensions/passthrough"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// Passthrough elements (markup.goldmark.extensions.passthrough, the
// math of a KaTeX or MathJax blog) are parsed by Hugo's own extension and
// rendered as Hugo renders them: by the page's render-passthrough hook
// (render-passthrough-inline.html or render-passthrough-block.html over
// render-passthrough.html) when the site has one, else as written,
// delimiters included, with nothing escaped, so that a script in the
// browser finds the math as the author typed it.
//
// One difference: unless raw HTML is allowed (markup.goldmark.renderer.
// unsafe), a "<" that would open a tag or a comment ("$a<b$") is written
// as "&lt;". Hugo writes it as it is, so the browser reads a tag there
// and the math is lost; a passthrough would also let raw HTML in where
// the site does not allow it. The text the reader's browser holds is the
// author's either way.

// passthroughHook is the context of render-passthrough[-TYPE].html:
// Hugo's PassthroughContext.
type passthroughHook struct {
	hookBase
	// Inner is the text between the delimiters.
	Inner string
	// Type is "inline" or "block".
	Type       string
	Attributes map[string]any
}

// passthroughRenderer renders the extension's nodes.
type passthroughRenderer struct {
	html.Config
}

// SetOption receives the renderer options (WithUnsafe).
func (r *passthroughRenderer) SetOption(name renderer.OptionName, value any) {
	r.Config.SetOption(name, value)
}

func (r *passthroughRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(passthrough.KindPassthroughInline, r.render)
	reg.Register(passthrough.KindPassthroughBlock, r.render)
}

func (r *passthroughRenderer) render(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	var (
		raw    string
		typ    string
		delims *passthrough.Delimiters
		start  int
	)
	switch n := node.(type) {
	case *passthrough.PassthroughInline:
		raw, typ, delims, start = string(n.Segment.Value(src)), "inline", n.Delimiters, n.Segment.Start
	case *passthrough.PassthroughBlock:
		var b strings.Builder
		lines := n.Lines()
		for i := range lines.Len() {
			seg := lines.At(i)
			b.Write(seg.Value(src))
		}
		raw, typ, delims = b.String(), "block", n.Delimiters
		if lines.Len() > 0 {
			start = lines.At(0).Start
		}
	default:
		return ast.WalkSkipChildren, nil
	}
	if st := stateOf(w); st != nil && delims != nil && len(raw) >= len(delims.Open)+len(delims.Close) {
		if h := st.hook("passthrough", typ); h != nil {
			line := st.line(start)
			// Inline and block elements share one count, as in Hugo.
			ctx := &passthroughHook{
				hookBase: hookBase{page: st.pageView(), ordinal: st.nextOrdinal(passthrough.KindPassthroughBlock), pos: position{file: st.post.File, line: line}},
				Inner:    raw[len(delims.Open) : len(raw)-len(delims.Close)],
				Type:     typ, Attributes: hookAttributes(node.Attributes(), nil),
			}
			if out, ok := st.runHook(h, ctx, line); ok {
				_, _ = w.WriteString(out)
				return ast.WalkSkipChildren, nil
			}
		}
	}
	if r.Unsafe {
		_, _ = w.WriteString(raw)
	} else {
		writeNoTags(w, raw)
	}
	return ast.WalkSkipChildren, nil
}

// writeNoTags writes s with every "<" that would open a tag, a closing
// tag, a comment or a processing instruction as "&lt;".
func writeNoTags(w util.BufWriter, s string) {
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 || i == len(s)-1 {
			_, _ = w.WriteString(s)
			return
		}
		_, _ = w.WriteString(s[:i])
		if c := s[i+1]; c == '/' || c == '!' || c == '?' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
			_, _ = w.WriteString("&lt;")
		} else {
			_ = w.WriteByte('<')
		}
		s = s[i+1:]
	}
}
