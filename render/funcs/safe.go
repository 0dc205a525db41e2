package funcs

import "html/template"

// safeNS is Hugo's safe namespace: values the template vouches for, which
// html/template writes without escaping them for their context.
type safeNS struct{ n *namespaces }

func (s *safeNS) CSS(v any) (template.CSS, error) {
	str, err := toString(v)
	return template.CSS(str), err
}

func (s *safeNS) HTML(v any) (template.HTML, error) {
	str, err := toString(v)
	return template.HTML(str), err
}

func (s *safeNS) HTMLAttr(v any) (template.HTMLAttr, error) {
	str, err := toString(v)
	return template.HTMLAttr(str), err
}

func (s *safeNS) JS(v any) (template.JS, error) {
	str, err := toString(v)
	return template.JS(str), err
}

func (s *safeNS) JSStr(v any) (template.JSStr, error) {
	str, err := toString(v)
	return template.JSStr(str), err
}

func (s *safeNS) URL(v any) (template.URL, error) {
	str, err := toString(v)
	return template.URL(str), err
}
