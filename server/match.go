package server

import (
	"net/url"
	"strings"
)

// A pattern is a row's Path made ready to match: a literal prefix, then at
// most one wildcard and a literal suffix. {name} is one path segment, or
// the part of one before the suffix ("{cursor}.json"); {name...} is
// everything after the prefix, slashes included.
type pattern struct {
	prefix, suffix string
	wild           wildcard
}

type wildcard int

const (
	wildNone wildcard = iota // the path is the prefix
	wildOne                  // one segment (or the part before the suffix)
	wildRest                 // the rest of the path
)

// compilePattern reads a row's Path with {section} replaced. With
// lookup, the row is one the snapshot resolves: everything after the
// first wildcard's start is its value, for the lookup to read.
func compilePattern(path string, lookup bool) pattern {
	open := strings.IndexByte(path, '{')
	if open < 0 {
		return pattern{prefix: path}
	}
	if lookup {
		return pattern{prefix: path[:open], wild: wildRest}
	}
	end := strings.IndexByte(path[open:], '}') + open
	p := pattern{prefix: path[:open], suffix: path[end+1:], wild: wildOne}
	if strings.HasSuffix(path[open:end], "...") {
		p.wild = wildRest
	}
	return p
}

// match reports whether the routing path rp (see routePath) fits p, and
// the wildcard's value, as rp spells it (rp.unescape makes it plain).
func (p pattern) match(rp routingPath) (string, bool) {
	path := rp.path
	if p.wild == wildNone {
		return "", path == p.prefix
	}
	if len(path) < len(p.prefix)+len(p.suffix) || !strings.HasPrefix(path, p.prefix) || !strings.HasSuffix(path, p.suffix) {
		return "", false
	}
	v := path[len(p.prefix) : len(path)-len(p.suffix)]
	if p.wild == wildOne && (strings.IndexByte(v, '/') >= 0 || v+p.suffix == "") {
		return "", false
	}
	return v, true
}

// A routingPath is a request's path as rows match it: each segment the
// client sent, percent-decoded, except that a slash or percent sign
// decoded inside a segment stays escaped (%2F, %25). So a segment
// wildcard never spans an escaped slash, a literal row matches however
// its letters were spelled, and a value is unescaped once it is taken.
// (These are net/http's ServeMux rules, which folio's routes followed
// before the table; see TestRouteAnswers.)
type routingPath struct {
	path    string
	escaped bool // path holds %2F or %25 to unescape in values
}

func routingPathOf(u *url.URL) routingPath {
	if u.RawPath == "" {
		// The decoded path spells every segment as sent: no escaped
		// slash (that would make RawPath necessary).
		return routingPath{path: u.Path}
	}
	segs := strings.Split(u.EscapedPath(), "/")
	escaped := false
	for i, s := range segs {
		u, err := url.PathUnescape(s)
		if err != nil {
			continue // not escaped validly: kept as sent, matched as such
		}
		if strings.ContainsAny(u, "/%") {
			u = segmentEscaper.Replace(u)
			escaped = true
		}
		segs[i] = u
	}
	return routingPath{path: strings.Join(segs, "/"), escaped: escaped}
}

var (
	segmentEscaper   = strings.NewReplacer("%", "%25", "/", "%2F")
	segmentUnescaper = strings.NewReplacer("%25", "%", "%2F", "/")
)

func (rp routingPath) unescape(v string) string {
	if !rp.escaped {
		return v
	}
	return segmentUnescaper.Replace(v)
}
