package funcs

// diagramsNS is Hugo's diagrams namespace: Goat draws an ASCII diagram
// as SVG (a code block render hook's use of it: render-codeblock-goat).
type diagramsNS struct{ n *namespaces }

// Goat draws src, a GoAT diagram, as an SVG diagram with Hugo's methods
// (Inner, Wrapped, Width, Height).
func (d *diagramsNS) Goat(src any) (any, error) {
	s, err := toString(src)
	if err != nil {
		return nil, err
	}
	return d.n.env().Goat(s)
}
