package probes

import (
	"fmt"
	"strings"
)

// A Link is one link-value of a Link header field (RFC 8288 section 3).
type Link struct {
	Target string
	Params map[string]string // lower-cased names; rel's value as given
}

// Rel reports whether the link has relation type rel (rel may hold
// several, separated by spaces; compared without case).
func (l Link) Rel(rel string) bool {
	for _, r := range strings.Fields(l.Params["rel"]) {
		if strings.EqualFold(r, rel) {
			return true
		}
	}
	return false
}

// ParseLinks parses the values of Link header fields per RFC 8288:
// comma-separated link-values "<target>" followed by ";"-separated
// parameters, a value a token or a quoted-string (which may hold commas
// and semicolons).
func ParseLinks(fields []string) ([]Link, error) {
	var out []Link
	for _, f := range fields {
		p := &linkParser{s: f}
		for {
			p.space()
			if p.done() {
				break
			}
			l, err := p.link()
			if err != nil {
				return nil, fmt.Errorf("Link %q: %w", f, err)
			}
			out = append(out, l)
			p.space()
			if p.done() {
				break
			}
			if !p.eat(',') {
				return nil, fmt.Errorf("Link %q: want ',' at %d", f, p.i)
			}
		}
	}
	return out, nil
}

type linkParser struct {
	s string
	i int
}

func (p *linkParser) done() bool { return p.i >= len(p.s) }

func (p *linkParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *linkParser) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *linkParser) link() (Link, error) {
	if !p.eat('<') {
		return Link{}, fmt.Errorf("want '<' at %d", p.i)
	}
	end := strings.IndexByte(p.s[p.i:], '>')
	if end < 0 {
		return Link{}, fmt.Errorf("no '>' after %d", p.i)
	}
	l := Link{Target: p.s[p.i : p.i+end], Params: map[string]string{}}
	p.i += end + 1
	for {
		p.space()
		if !p.eat(';') {
			return l, nil
		}
		p.space()
		name := p.token()
		if name == "" {
			return l, fmt.Errorf("want a parameter name at %d", p.i)
		}
		p.space()
		value := ""
		if p.eat('=') {
			p.space()
			v, err := p.value()
			if err != nil {
				return l, err
			}
			value = v
		}
		name = strings.ToLower(name)
		if _, dup := l.Params[name]; !dup { // RFC 8288: the first occurrence counts
			l.Params[name] = value
		}
	}
}

func (p *linkParser) token() string {
	start := p.i
	for p.i < len(p.s) && isTokenChar(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

func (p *linkParser) value() (string, error) {
	if !p.eat('"') {
		if v := p.token(); v != "" {
			return v, nil
		}
		return "", fmt.Errorf("want a value at %d", p.i)
	}
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch c {
		case '\\':
			if p.i < len(p.s) {
				b.WriteByte(p.s[p.i])
				p.i++
			}
		case '"':
			return b.String(), nil
		default:
			b.WriteByte(c)
		}
	}
	return "", fmt.Errorf("unclosed quoted string")
}

// isTokenChar is RFC 9110's tchar.
func isTokenChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}
