package funcs

import (
	"net/url"
	"strings"

	"github.com/gohugoio/hugo/common/paths"
)

// urlsNS is Hugo's urls namespace. relURL and relLangURL give absolute
// URLs too in folio, which writes every URL of a body absolute; the Lang
// forms are below the page's language's folder.
type urlsNS struct{ n *namespaces }

func (u *urlsNS) AbsURL(v any) (string, error) {
	s, err := toString(v)
	return u.n.env().URL(s, true), err
}

func (u *urlsNS) RelURL(v any) (string, error) {
	s, err := toString(v)
	return u.n.env().URL(s, false), err
}

func (u *urlsNS) AbsLangURL(v any) (string, error) {
	s, err := toString(v)
	return u.n.env().LangURL(s, true), err
}

func (u *urlsNS) RelLangURL(v any) (string, error) {
	s, err := toString(v)
	return u.n.env().LangURL(s, false), err
}

// URLize makes a string a URL path as Hugo makes paths: sanitised,
// lower-cased, escaped.
func (u *urlsNS) URLize(v any) (string, error) {
	s, err := toString(v)
	if err != nil {
		return "", err
	}
	p, err := url.Parse(strings.ToLower(paths.Sanitize(s)))
	if err != nil {
		return strings.ToLower(paths.Sanitize(s)), nil
	}
	return p.String(), nil
}

// Anchorize makes a string an id as headings get theirs.
func (u *urlsNS) Anchorize(v any) (string, error) {
	s, err := toString(v)
	return u.n.env().Anchorize(s), err
}

// Ref and RelRef resolve a reference from a page (or a call).
func (u *urlsNS) Ref(page any, args any) (string, error)    { return u.n.env().Ref(page, args, false) }
func (u *urlsNS) RelRef(page any, args any) (string, error) { return u.n.env().Ref(page, args, true) }

// Parse parses a URL.
func (u *urlsNS) Parse(v any) (*url.URL, error) {
	s, err := toString(v)
	if err != nil {
		return nil, err
	}
	return url.Parse(s)
}

// JoinPath joins URL path elements.
func (u *urlsNS) JoinPath(elements ...any) (string, error) {
	var parts []string
	for _, e := range flatten(elements) {
		s, err := toString(e)
		if err != nil {
			return "", err
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "", nil
	}
	out, err := url.JoinPath(parts[0], parts[1:]...)
	return u.n.sizedString(out, err)
}

func (u *urlsNS) PathEscape(v any) (string, error) {
	s, err := toString(v)
	return url.PathEscape(s), err
}

func (u *urlsNS) PathUnescape(v any) (string, error) {
	s, err := toString(v)
	if err != nil {
		return "", err
	}
	return url.PathUnescape(s)
}
