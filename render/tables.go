package render

import (
	"html/template"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// A table is rendered as Hugo's own render-table.html renders it
// (cells aligned by an align attribute rather than Hugo's style, which
// the Content-Security-Policy forbids), or by the site's
// render-table.html hook, which gets Hugo's TableContext: .THead and
// .TBody (rows of cells, each with its rendered .Text and its
// .Alignment, "left", "center", "right" or ""), .Attributes (from a
// {.class} line after the table), .Ordinal, .Page and .Position.

// tableHook is the context of render-table.html.
type tableHook struct {
	hookBase
	THead, TBody []tableRow
	Attributes   map[string]any
}

// A tableRow is a row of a table hook's cells.
type tableRow []tableCell

// A tableCell is a table hook's cell: Hugo's hooks.TableCell.
type tableCell struct {
	Text      template.HTML
	Alignment string
}

// tableRenderer renders tables through the page's hook when it has one,
// else as goldmark does.
type tableRenderer struct {
	plain *extension.TableHTMLRenderer
	funcs map[ast.NodeKind]renderer.NodeRendererFunc
}

func newTableRenderer() *tableRenderer {
	// An align attribute, not a style one: a strict
	// Content-Security-Policy blocks inline styles.
	plain := extension.NewTableHTMLRenderer(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)).(*extension.TableHTMLRenderer)
	r := &tableRenderer{plain: plain, funcs: map[ast.NodeKind]renderer.NodeRendererFunc{}}
	plain.RegisterFuncs(r)
	return r
}

// Register collects goldmark's own table functions.
func (r *tableRenderer) Register(k ast.NodeKind, f renderer.NodeRendererFunc) { r.funcs[k] = f }

// SetOption passes the renderer options (XHTML, unsafe) to goldmark's
// table renderer.
func (r *tableRenderer) SetOption(name renderer.OptionName, value any) {
	r.plain.SetOption(name, value)
}

func (r *tableRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(extast.KindTable, r.table)
	reg.Register(extast.KindTableHeader, r.row)
	reg.Register(extast.KindTableRow, r.row)
	reg.Register(extast.KindTableCell, r.cell)
}

// hookedTable is the table a hook is to render, nil when the table being
// rendered is goldmark's.
func (st *state) hookedTable() *tableHook {
	if st == nil || len(st.tables) == 0 {
		return nil
	}
	return st.tables[len(st.tables)-1]
}

func (r *tableRenderer) table(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	st := stateOf(w)
	if st == nil {
		return r.funcs[n.Kind()](w, src, n, entering)
	}
	if entering {
		var t *tableHook
		if st.linkHook("table") != nil {
			t = &tableHook{hookBase: hookBase{page: st.pageView(), pos: position{file: st.post.File, line: st.nodeLine(n)}},
				Attributes: hookAttributes(n.Attributes(), nil)}
		}
		st.tables = append(st.tables, t)
		if t != nil {
			return ast.WalkContinue, nil
		}
		return r.funcs[n.Kind()](w, src, n, entering)
	}
	t := st.hookedTable()
	if len(st.tables) > 0 {
		st.tables = st.tables[:len(st.tables)-1]
	}
	if t == nil {
		return r.funcs[n.Kind()](w, src, n, entering)
	}
	t.ordinal = st.nextOrdinal(n.Kind())
	if out, ok := st.runHook(st.linkHook("table"), t, t.pos.line); ok {
		_, _ = w.WriteString(out)
		return ast.WalkContinue, nil
	}
	writeTable(w, n, t)
	return ast.WalkContinue, nil
}

func (r *tableRenderer) row(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	t := stateOf(w).hookedTable()
	if t == nil {
		return r.funcs[n.Kind()](w, src, n, entering)
	}
	if entering {
		if n.Kind() == extast.KindTableHeader {
			t.THead = append(t.THead, tableRow{})
		} else {
			t.TBody = append(t.TBody, tableRow{})
		}
	}
	return ast.WalkContinue, nil
}

func (r *tableRenderer) cell(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	st := stateOf(w)
	t := st.hookedTable()
	if t == nil {
		return r.funcs[node.Kind()](w, src, node, entering)
	}
	if entering {
		st.hookPos = append(st.hookPos, w.Buffered())
		return ast.WalkContinue, nil
	}
	n := node.(*extast.TableCell)
	c := tableCell{Text: template.HTML(st.popRendered(w))}
	if n.Alignment != extast.AlignNone {
		c.Alignment = n.Alignment.String()
	}
	rows := &t.TBody
	if n.Parent().Kind() == extast.KindTableHeader {
		rows = &t.THead
	}
	if len(*rows) > 0 {
		(*rows)[len(*rows)-1] = append((*rows)[len(*rows)-1], c)
	}
	return ast.WalkContinue, nil
}

// writeTable writes a table whose hook failed as goldmark would have
// written it, from the cells the hook was given.
func writeTable(w util.BufWriter, n ast.Node, t *tableHook) {
	_, _ = w.WriteString("<table")
	if n.Attributes() != nil {
		html.RenderAttributes(w, n, extension.TableAttributeFilter)
	}
	_, _ = w.WriteString(">\n<thead>\n")
	rows := func(rows []tableRow, tag string) {
		for _, row := range rows {
			_, _ = w.WriteString("<tr>\n")
			for _, c := range row {
				_, _ = w.WriteString("<" + tag)
				if c.Alignment != "" {
					_, _ = w.WriteString(` align="` + c.Alignment + `"`)
				}
				_, _ = w.WriteString(">" + string(c.Text) + "</" + tag + ">\n")
			}
			_, _ = w.WriteString("</tr>\n")
		}
	}
	rows(t.THead, "th")
	_, _ = w.WriteString("</thead>\n")
	if len(t.TBody) > 0 {
		_, _ = w.WriteString("<tbody>\n")
		rows(t.TBody, "td")
		_, _ = w.WriteString("</tbody>\n")
	}
	_, _ = w.WriteString("</table>\n")
}
