package agents

import (
	"bufio"
	"strings"
	"testing"
)

// robotsFile is robots.txt as an RFC 9309 crawler reads it.
type robotsFile struct {
	groups   []robotsGroup
	sitemaps []string
	other    []string // lines that are neither: must not exist
}

type robotsGroup struct {
	agents  []string
	rules   []robotsRule
	records map[string][]string // other records of the group (Content-Signal)
}

type robotsRule struct {
	allow bool
	path  string
}

// parseRobots follows RFC 9309 section 2.2: records are key: value lines,
// keys without case; a group is one or more user-agent lines and the rules
// after them; comments start with #.
func parseRobots(t *testing.T, body string) robotsFile {
	t.Helper()
	var f robotsFile
	var cur *robotsGroup
	lastWasAgent := false
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
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
			f.other = append(f.other, line)
			continue
		}
		key, value = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(value)
		switch key {
		case "user-agent":
			if !lastWasAgent {
				f.groups = append(f.groups, robotsGroup{records: map[string][]string{}})
				cur = &f.groups[len(f.groups)-1]
			}
			cur.agents = append(cur.agents, value)
			lastWasAgent = true
			continue
		case "allow", "disallow":
			if cur == nil {
				t.Fatalf("robots.txt: %q outside a group", line)
			}
			cur.rules = append(cur.rules, robotsRule{allow: key == "allow", path: value})
		case "sitemap":
			f.sitemaps = append(f.sitemaps, value)
		default:
			if cur == nil {
				f.other = append(f.other, line)
			} else {
				cur.records[key] = append(cur.records[key], value)
			}
		}
		lastWasAgent = false
	}
	return f
}

// group is the group a crawler obeys: the one naming its product token
// (case-insensitive), else *.
func (f robotsFile) group(crawler string) *robotsGroup {
	var star *robotsGroup
	for i := range f.groups {
		for _, a := range f.groups[i].agents {
			if strings.EqualFold(a, crawler) {
				return &f.groups[i]
			}
			if a == "*" {
				star = &f.groups[i]
			}
		}
	}
	return star
}

// allowed applies the longest matching rule; allow wins a tie.
func (g *robotsGroup) allowed(path string) bool {
	best, allow := -1, true
	for _, r := range g.rules {
		if r.path == "" || !strings.HasPrefix(path, r.path) {
			continue
		}
		if len(r.path) > best || len(r.path) == best && r.allow {
			best, allow = len(r.path), r.allow
		}
	}
	return allow
}

func TestRobots(t *testing.T) {
	p, err := ParsePolicy(map[string]any{
		"contentSignal": map[string]any{"ai-input": "no"},
		"refuse":        []any{"CCBot", "NewBot"},
	}, "folio.agents")
	if err != nil {
		t.Fatal(err)
	}
	f := parseRobots(t, string(Robots(p, "https://example.org/sitemap.xml")))
	if len(f.other) > 0 {
		t.Errorf("lines that are not records: %q", f.other)
	}
	if len(f.sitemaps) != 1 || f.sitemaps[0] != "https://example.org/sitemap.xml" {
		t.Errorf("sitemaps %q", f.sitemaps)
	}
	if len(f.groups) != 1+len(DefaultCrawlers)+1 {
		t.Errorf("%d groups; want *, %d crawlers and NewBot", len(f.groups), len(DefaultCrawlers))
	}
	for _, g := range f.groups {
		if s := g.records["content-signal"]; len(s) != 1 || s[0] != "search=yes, ai-input=no, ai-train=no" {
			t.Errorf("group %q: Content-Signal %q", g.agents, s)
		}
	}
	for _, tc := range []struct {
		crawler string
		allowed bool
	}{
		{"SomeSearchEngine", true}, {"GPTBot", true}, {"claudebot", true}, {"Claude-User", true},
		{"Google-Extended", true}, {"CCBot", false}, {"ccbot", false}, {"NewBot", false}, {"Bytespider", true},
	} {
		g := f.group(tc.crawler)
		if g == nil {
			t.Fatalf("%s: no group applies", tc.crawler)
		}
		if tc.crawler != "SomeSearchEngine" && g.agents[0] == "*" {
			t.Errorf("%s: no group of its own", tc.crawler)
		}
		for _, path := range []string{"/", "/blog/x/", "/api/posts.json"} {
			if got := g.allowed(path); got != tc.allowed {
				t.Errorf("%s %s: allowed %v, want %v", tc.crawler, path, got, tc.allowed)
			}
		}
	}
}

// TestRobotsDefault: with no configuration, every crawler may read
// everything and every group carries the default signals.
func TestRobotsDefault(t *testing.T) {
	f := parseRobots(t, string(Robots(DefaultPolicy(), "http://localhost:8080/sitemap.xml")))
	for _, c := range append([]string{"*"}, DefaultCrawlers...) {
		g := f.group(c)
		if g == nil || !g.allowed("/") || g.records["content-signal"][0] != DefaultSignals.String() {
			t.Errorf("%s: %+v", c, g)
		}
	}
}
