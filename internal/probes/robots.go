// Package probes asks a running folio site what agents, and the public
// readiness probes that grade sites for them, ask: robots.txt read as an
// RFC 9309 crawler reads it, the Link header of the home page read per
// RFC 8288 with every target fetched with its advertised type, the RFC
// 9727 API catalog, the Agent Skills index with each digest recomputed,
// and the Markdown twin of every page in the sitemap. Check runs them all
// against a base URL, so the same suite runs against folio serve, the
// static export behind nginx and any other host of an export.
package probes

import (
	"bufio"
	"fmt"
	"strings"
)

// Robots is a robots.txt as an RFC 9309 crawler reads it.
type Robots struct {
	Groups   []RobotsGroup
	Sitemaps []string
	// Other are lines that are not records, or records outside any
	// group that the RFC does not define (there should be none).
	Other []string
}

// A RobotsGroup is one or more user-agent lines and the records after
// them.
type RobotsGroup struct {
	Agents  []string
	Rules   []RobotsRule
	Records map[string][]string // other records, by lower-cased key (content-signal)
}

// A RobotsRule is an allow or disallow line.
type RobotsRule struct {
	Allow bool
	Path  string
}

// ParseRobots follows RFC 9309 section 2.2: records are key: value lines,
// keys without case; a group is one or more user-agent lines and the
// rules after them; # starts a comment. A rule outside a group is an
// error.
func ParseRobots(body string) (Robots, error) {
	var f Robots
	var cur *RobotsGroup
	lastWasAgent := false
	sc := bufio.NewScanner(strings.NewReader(body))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			f.Other = append(f.Other, line)
			continue
		}
		key, value = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(value)
		switch key {
		case "user-agent":
			if !lastWasAgent {
				f.Groups = append(f.Groups, RobotsGroup{Records: map[string][]string{}})
				cur = &f.Groups[len(f.Groups)-1]
			}
			cur.Agents = append(cur.Agents, value)
			lastWasAgent = true
			continue
		case "allow", "disallow":
			if cur == nil {
				return f, fmt.Errorf("robots.txt line %d: %q outside a group", n, line)
			}
			cur.Rules = append(cur.Rules, RobotsRule{Allow: key == "allow", Path: value})
		case "sitemap":
			f.Sitemaps = append(f.Sitemaps, value)
		default:
			if cur == nil {
				f.Other = append(f.Other, line)
			} else {
				cur.Records[key] = append(cur.Records[key], value)
			}
		}
		lastWasAgent = false
	}
	return f, nil
}

// Group is the group a crawler obeys: the one naming its product token
// (without case), else *, else nil.
func (f Robots) Group(crawler string) *RobotsGroup {
	var star *RobotsGroup
	for i := range f.Groups {
		for _, a := range f.Groups[i].Agents {
			if strings.EqualFold(a, crawler) {
				return &f.Groups[i]
			}
			if a == "*" {
				star = &f.Groups[i]
			}
		}
	}
	return star
}

// Allowed applies the longest matching rule to path; allow wins a tie and
// no rule allows.
func (g *RobotsGroup) Allowed(path string) bool {
	best, allow := -1, true
	for _, r := range g.Rules {
		if r.Path == "" || !strings.HasPrefix(path, r.Path) {
			continue
		}
		if len(r.Path) > best || len(r.Path) == best && r.Allow {
			best, allow = len(r.Path), r.Allow
		}
	}
	return allow
}
