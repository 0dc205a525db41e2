package pipeline

import (
	"cmp"
	"crypto/sha256"
	"slices"
	"sync/atomic"
	"testing"
)

// TestReconfigured: a config that reads the content the same way gives a
// new snapshot that carries it and shares the unchanged posts, the old
// snapshot untouched; one that reads it another way is refused.
func TestReconfigured(t *testing.T) {
	fsys := threePosts()
	s := build(t, fsys, Options{}, testNow)
	oldCfg, oldB := s.config, s.Post("b")

	titled := *s.config
	titled.Title = "Renamed"
	set(fsys, "blog/a.md", post("title: A2"))
	n, err := s.Reconfigured(&titled, nil, RedescribeNone, []string{"blog"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case n == s || n.id <= s.id:
		t.Errorf("not a new snapshot: id %d after %d", n.id, s.id)
	case n.Config() != &titled || s.Config() != oldCfg:
		t.Errorf("config: new %q, old %q", n.Config().Title, s.Config().Title)
	case n.Post("b") != oldB:
		t.Error("an unchanged post was parsed again")
	case n.Post("a").Title != "A2" || s.Post("a").Title != "A":
		t.Errorf("titles: new %q, old %q", n.Post("a").Title, s.Post("a").Title)
	}

	for _, edit := range []func(c *Config){
		func(c *Config) { c.Section = "notes" },
		func(c *Config) { c.TimeZone = "UTC" },
		func(c *Config) { c.ContentDir = "elsewhere" },
	} {
		c := *s.config
		edit(&c)
		if _, err := s.Reconfigured(&c, nil, RedescribeNone, []string{"blog"}, testNow); err == nil {
			t.Errorf("%+v: reconfigured, want an error", c)
		}
	}
}

// TestReconfiguredDescribe: a new Describe describes again every post
// whose front matter has no description or summary, in a new Post, and
// every post read from then on; the others, and the old snapshot, are
// untouched.
func TestReconfiguredDescribe(t *testing.T) {
	fsys := mapFS(map[string]string{
		"blog/a.md": post("title: A"),
		"blog/b.md": post("title: B", "description: Own"),
		"blog/c.md": post("title: C", "summary: Summed"),
		"blog/d.md": post("title: D", "description: ''"),
	})
	by := func(v string) func(*Post) string { return func(p *Post) string { return v + " " + p.Title } }
	s := build(t, fsys, Options{Describe: by("old")}, testNow)
	oldA, oldB := s.Post("a"), s.Post("b")
	set(fsys, "blog/e.md", post("title: E"))
	n, err := s.Reconfigured(s.config, by("new"), RedescribeAll, []string{"blog/e.md"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	for slug, want := range map[string]string{"a": "new A", "b": "Own", "c": "Summed", "d": "new D", "e": "new E"} {
		if got := n.Post(slug).Description; got != want {
			t.Errorf("%s: description %q, want %q", slug, got, want)
		}
	}
	if s.Post("a") != oldA || oldA.Description != "old A" {
		t.Errorf("the old snapshot's post changed: %q", s.Post("a").Description)
	}
	if n.Post("b") != oldB {
		t.Error("a post with its own description was described again")
	}
	set(fsys, "blog/a.md", post("title: A2"))
	if u, err := n.Update([]string{"blog/a.md"}, testNow); err != nil || u.Post("a").Description != "new A2" {
		t.Errorf("an edit after: %v, want the new Describe's", err)
	}
}

// TestReconfiguredRedescribesWhatMayChange: a reload describes again the
// posts whose description may differ, counted: none when nothing a
// description is made from changed, only those whose body calls a
// shortcode (a nested call too) when only what shortcodes make changed,
// every one for the markup or the render hooks; never one with its own
// description. The parse cache stays unless every post was described
// again (it holds no post that calls a shortcode).
func TestReconfiguredRedescribesWhatMayChange(t *testing.T) {
	fsys := mapFS(map[string]string{
		"blog/plain.md":  post("title: Plain"),
		"blog/plain2.md": post("title: Plain2"),
		"blog/sc.md":     "---\ntitle: Sc\ndate: 2026-01-01T00:00:00Z\n---\nText {{< hi >}}.\n",
		"blog/nested.md": "---\ntitle: Nested\ndate: 2026-01-01T00:00:00Z\n---\n{{% note %}}In {{< hi >}}.{{% /note %}}\n",
		"blog/later.md":  "---\ntitle: Later\ndate: 2026-01-01T00:00:00Z\n---\nFirst.\n\n<!--more-->\n\nThen {{< hi >}}.\n",
		"blog/own.md":    "---\ntitle: Own\ndate: 2026-01-01T00:00:00Z\ndescription: Mine\n---\nText {{< hi >}}.\n",
	})
	key := sha256.Sum256([]byte("key"))
	by := func(v string) func(*Post) string { return func(p *Post) string { return v + " " + p.Title } }
	first := build(t, fsys, Options{Describe: by("old"), Cache: NewCache(key)}, testNow)
	s := build(t, fsys, Options{Describe: by("old"), Cache: ReadCache(writeCacheFile(t, first), key)}, testNow)
	if _, cached := s.CacheCounts(); cached != 3 { // plain, plain2, own
		t.Fatalf("%d posts from the cache, want 3", cached)
	}
	for _, c := range []struct {
		which     Redescribe
		described []string
		cache     bool
	}{
		{RedescribeNone, nil, true},
		{RedescribeShortcodes, []string{"later", "nested", "sc"}, true},
		{RedescribeAll, []string{"later", "nested", "plain", "plain2", "sc"}, false},
	} {
		var calls atomic.Int64
		describe := func(p *Post) string { calls.Add(1); return "new " + p.Title }
		n, err := s.Reconfigured(s.config, describe, c.which, nil, testNow)
		if err != nil {
			t.Fatal(err)
		}
		var described []string
		for _, slug := range []string{"later", "nested", "own", "plain", "plain2", "sc"} {
			p := n.Post(slug)
			if p != s.Post(slug) {
				described = append(described, slug)
				if p.Description != "new "+p.Title {
					t.Errorf("%d: %s: description %q, want the new one", c.which, slug, p.Description)
				}
			} else if want := cmp.Or(map[string]string{"own": "Mine"}[slug], "old "+p.Title); p.Description != want {
				t.Errorf("%d: %s: description %q, want %q", c.which, slug, p.Description, want)
			}
		}
		if !slices.Equal(described, c.described) || calls.Load() != int64(len(c.described)) {
			t.Errorf("%d: described again %v (%d calls), want %v", c.which, described, calls.Load(), c.described)
		}
		if _, _, ok := n.SourceOf(n.Post("plain")); ok != c.cache {
			t.Errorf("%d: parse cache kept %v, want %v", c.which, ok, c.cache)
		}
		// A post read afterwards is described by the new Describe.
		set(fsys, "blog/plain2.md", post("title: Plain2b"))
		u, err := n.Update([]string{"blog/plain2.md"}, testNow)
		if err != nil || u.Post("plain2").Description != "new Plain2b" {
			t.Errorf("%d: an edit after: %v, want the new Describe's", c.which, err)
		}
		set(fsys, "blog/plain2.md", post("title: Plain2"))
	}
}
