package render

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Block attributes (markup.goldmark.parser.attribute.block): a line
// "{.class #id key=value}" right after a block, with no blank line
// between, gives that block those attributes, as in Hugo. A line of
// attributes anywhere else (after a blank line, first in the document,
// after a fenced code block) is dropped.

var kindAttributeLine = ast.NewNodeKind("AttributeLine")

// attributeLine is a parsed "{…}" line until blockAttributes moves its
// attributes to the block before it.
type attributeLine struct{ ast.BaseBlock }

func (a *attributeLine) Kind() ast.NodeKind { return kindAttributeLine }

func (a *attributeLine) Dump(src []byte, level int) { ast.DumpHelper(a, src, level, nil, nil) }

// attributeLineParser reads "{…}" lines as attributeLine blocks.
type attributeLineParser struct{}

func (attributeLineParser) Trigger() []byte { return []byte{'{'} }

func (attributeLineParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	attrs, ok := parser.ParseAttributes(reader)
	if !ok {
		return nil, parser.RequireParagraph
	}
	n := &attributeLine{}
	for _, a := range attrs {
		n.SetAttribute(a.Name, a.Value)
	}
	return n, parser.NoChildren
}

func (attributeLineParser) Continue(ast.Node, text.Reader, parser.Context) parser.State {
	return parser.Close
}

func (attributeLineParser) Close(ast.Node, text.Reader, parser.Context) {}
func (attributeLineParser) CanInterruptParagraph() bool                 { return true }
func (attributeLineParser) CanAcceptIndentedLine() bool                 { return false }

// blockAttributes moves each attribute line's attributes to the block
// before it (attributes the block already has win) and removes the line.
type blockAttributes struct{}

func (blockAttributes) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	var lines []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Type() == ast.TypeInline {
			return ast.WalkSkipChildren, nil
		}
		if n.Kind() == kindAttributeLine {
			lines = append(lines, n)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	for _, n := range lines {
		prev := n.PreviousSibling()
		if prev != nil && prev.Type() == ast.TypeBlock && prev.Kind() != ast.KindFencedCodeBlock && !n.HasBlankPreviousLines() {
			for _, a := range n.Attributes() {
				if _, taken := prev.Attribute(a.Name); !taken {
					prev.SetAttribute(a.Name, a.Value)
				}
			}
		}
		n.Parent().RemoveChild(n.Parent(), n)
	}
}
