package agents

import (
	"testing"

	"folio/internal/probes"
)

func parseRobots(t *testing.T, body string) probes.Robots {
	t.Helper()
	f, err := probes.ParseRobots(body)
	if err != nil {
		t.Fatal(err)
	}
	return f
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
	if len(f.Other) > 0 {
		t.Errorf("lines that are not records: %q", f.Other)
	}
	if len(f.Sitemaps) != 1 || f.Sitemaps[0] != "https://example.org/sitemap.xml" {
		t.Errorf("sitemaps %q", f.Sitemaps)
	}
	if len(f.Groups) != 1+len(DefaultCrawlers)+1 {
		t.Errorf("%d groups; want *, %d crawlers and NewBot", len(f.Groups), len(DefaultCrawlers))
	}
	for _, g := range f.Groups {
		if s := g.Records["content-signal"]; len(s) != 1 || s[0] != "search=yes, ai-input=no, ai-train=no" {
			t.Errorf("group %q: Content-Signal %q", g.Agents, s)
		}
	}
	for _, tc := range []struct {
		crawler string
		allowed bool
	}{
		{"SomeSearchEngine", true}, {"GPTBot", true}, {"claudebot", true}, {"Claude-User", true},
		{"Google-Extended", true}, {"CCBot", false}, {"ccbot", false}, {"NewBot", false}, {"Bytespider", true},
	} {
		g := f.Group(tc.crawler)
		if g == nil {
			t.Fatalf("%s: no group applies", tc.crawler)
		}
		if tc.crawler != "SomeSearchEngine" && g.Agents[0] == "*" {
			t.Errorf("%s: no group of its own", tc.crawler)
		}
		for _, path := range []string{"/", "/blog/x/", "/api/posts.json"} {
			if got := g.Allowed(path); got != tc.allowed {
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
		g := f.Group(c)
		if g == nil || !g.Allowed("/") || g.Records["content-signal"][0] != DefaultSignals.String() {
			t.Errorf("%s: %+v", c, g)
		}
	}
}
