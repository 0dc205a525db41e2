package render

import (
	"github.com/gohugoio/hugo-goldmark-extensions/extras"
	"github.com/gohugoio/hugo-goldmark-extensions/passthrough"
	"github.com/yuin/goldmark"
	emoji "github.com/yuin/goldmark-emoji"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// newGoldmark configures goldmark as Hugo does for the site's markup
// configuration (by default: tables, strikethrough, linkify, task lists,
// footnotes, definition lists, typographer and {#id .class} attributes on
// headings; extras, CJK and passthrough when enabled). Hugo's own heading
// IDs, links, images, code blocks, tables and passthrough elements are
// folio's node renderers; the link parser is wrapped to record where each
// link sits in the source.
func newGoldmark(m *Markup, unsafe bool) (parser.Parser, renderer.Renderer) {
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
	if m.HardWraps {
		htmlOpts = append(htmlOpts, html.WithHardWraps())
	}
	parserOpts := []parser.Option{
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(inline...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	}
	if m.AttributeTitle {
		parserOpts = append(parserOpts, parser.WithAttribute())
	}
	if m.Linkify {
		parserOpts = append(parserOpts, parser.WithInlineParsers(util.Prioritized(linkifyGuard{extension.NewLinkifyParser()}, 999)))
	}
	md := goldmark.New(
		goldmark.WithParser(parser.NewParser(parserOpts...)),
		goldmark.WithRendererOptions(htmlOpts...),
		goldmark.WithExtensions(extensions(m)...),
	)
	if m.AttributeBlock {
		md.Parser().AddOptions(
			parser.WithBlockParsers(util.Prioritized(attributeLineParser{}, 100)),
			parser.WithASTTransformers(util.Prioritized(blockAttributes{}, 100)),
		)
	}
	md.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(newNodeRenderer(m), 100)))
	if m.Table {
		md.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(newTableRenderer(), 100)))
	}
	if m.Passthrough.Enable {
		// Before the extension's own renderers (99 and 101), as Hugo's.
		md.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(&passthroughRenderer{}, 90)))
	}
	return md.Parser(), md.Renderer()
}

// extensions are the goldmark extensions m enables, in the order Hugo's
// converter adds them (an inline parser's priority ties are broken by
// it).
func extensions(m *Markup) []goldmark.Extender {
	var out []goldmark.Extender
	if x := m.Extras; x != (Extras{}) {
		out = append(out, extras.New(extras.Config{
			Delete:      extras.DeleteConfig{Enable: x.Delete},
			Insert:      extras.InsertConfig{Enable: x.Insert},
			Mark:        extras.MarkConfig{Enable: x.Mark},
			Subscript:   extras.SubscriptConfig{Enable: x.Subscript},
			Superscript: extras.SuperscriptConfig{Enable: x.Superscript},
		}))
	}
	if m.Table {
		// An align attribute, not a style one: a strict
		// Content-Security-Policy blocks inline styles.
		out = append(out, extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)))
	}
	if m.Strikethrough {
		out = append(out, extension.Strikethrough)
	}
	if m.TaskList {
		out = append(out, extension.TaskList)
	}
	if t := m.Typographer; !t.Disable {
		out = append(out, extension.NewTypographer(extension.WithTypographicSubstitutions(map[extension.TypographicPunctuation][]byte{
			extension.LeftSingleQuote:  []byte(t.LeftSingleQuote),
			extension.RightSingleQuote: []byte(t.RightSingleQuote),
			extension.LeftDoubleQuote:  []byte(t.LeftDoubleQuote),
			extension.RightDoubleQuote: []byte(t.RightDoubleQuote),
			extension.EnDash:           []byte(t.EnDash),
			extension.EmDash:           []byte(t.EmDash),
			extension.Ellipsis:         []byte(t.Ellipsis),
			extension.LeftAngleQuote:   []byte(t.LeftAngleQuote),
			extension.RightAngleQuote:  []byte(t.RightAngleQuote),
			extension.Apostrophe:       []byte(t.Apostrophe),
		})))
	}
	if m.DefinitionList {
		out = append(out, extension.DefinitionList)
	}
	if m.Footnote {
		out = append(out, extension.NewFootnote(extension.WithFootnoteBacklinkHTML("&#x21a9;&#xfe0e;")))
	}
	if c := m.CJK; c.Enable {
		var opts []extension.CJKOption
		if c.EastAsianLineBreaks {
			if c.Style == "css3draft" {
				opts = append(opts, extension.WithEastAsianLineBreaks(extension.EastAsianLineBreaksCSS3Draft))
			} else {
				opts = append(opts, extension.WithEastAsianLineBreaks())
			}
		}
		if c.EscapedSpace {
			opts = append(opts, extension.WithEscapedSpace())
		}
		out = append(out, extension.NewCJK(opts...))
	}
	if p := m.Passthrough; p.Enable {
		out = append(out, passthrough.New(passthrough.Config{
			InlineDelimiters: delimiters(p.Inline),
			BlockDelimiters:  delimiters(p.Block),
		}))
	}
	if m.Emoji {
		out = append(out, emoji.Emoji)
	}
	return out
}

// delimiters are the passthrough pairs the extension is given: those
// whose two delimiters are not empty (an empty one would make it
// panic).
func delimiters(pairs [][2]string) []passthrough.Delimiters {
	var out []passthrough.Delimiters
	for _, d := range pairs {
		if d[0] != "" && d[1] != "" {
			out = append(out, passthrough.Delimiters{Open: d[0], Close: d[1]})
		}
	}
	return out
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
