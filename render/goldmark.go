package render

import (
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// newGoldmark configures goldmark as Hugo's defaults do: tables,
// strikethrough, linkify, task lists, footnotes, definition lists,
// typographer and {#id .class} attributes on headings. Hugo's own heading
// IDs, links, images and code blocks are folio's node renderers; the link
// parser is wrapped to record where each link sits in the source.
func newGoldmark(unsafe bool) (parser.Parser, renderer.Renderer) {
	inline := parser.DefaultInlineParsers()
	for i, v := range inline {
		if v.Value == parser.NewLinkParser() {
			inline[i].Value = spanLinkParser{v.Value.(parser.InlineParser)}
		}
	}
	var htmlOpts []renderer.Option
	if unsafe {
		htmlOpts = append(htmlOpts, html.WithUnsafe())
	}
	md := goldmark.New(
		goldmark.WithParser(parser.NewParser(
			parser.WithBlockParsers(parser.DefaultBlockParsers()...),
			parser.WithInlineParsers(inline...),
			parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
			parser.WithAttribute(),
			parser.WithInlineParsers(util.Prioritized(linkifyGuard{extension.NewLinkifyParser()}, 999)),
		)),
		goldmark.WithRendererOptions(htmlOpts...),
		goldmark.WithExtensions(
			// An align attribute, not a style one: a strict
			// Content-Security-Policy blocks inline styles.
			extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
			extension.Strikethrough,
			extension.TaskList,
			extension.Typographer,
			extension.DefinitionList,
			extension.NewFootnote(extension.WithFootnoteBacklinkHTML("&#x21a9;&#xfe0e;")),
		),
	)
	md.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(newNodeRenderer(), 100)))
	return md.Parser(), md.Renderer()
}

// A linkSpan is where a link or image sits in src: its text opens at the
// node's Pos(), closes with the "]" at close, and the link ends before
// end. The Markdown alternate needs these to drop a link to a hidden
// post; goldmark keeps only the start.
type linkSpan struct {
	node       ast.Node // *ast.Link or *ast.Image
	close, end int
}

// spanLinkParser is goldmark's link parser, noting the span of every link
// it makes in the rendering's state.
type spanLinkParser struct{ parser.InlineParser }

func (p spanLinkParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	_, before := block.Position()
	n := p.InlineParser.Parse(parent, block, pc)
	switch n.(type) {
	case *ast.Link, *ast.Image:
		if st, ok := pc.Get(stateKey).(*state); ok {
			_, after := block.Position()
			st.links = append(st.links, &linkSpan{node: n, close: before.Start, end: after.Start})
		}
	}
	return n
}

// CloseBlock passes goldmark's end-of-block cleanup through.
func (p spanLinkParser) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	if cb, ok := p.InlineParser.(parser.CloseBlocker); ok {
		cb.CloseBlock(parent, block, pc)
	}
}
