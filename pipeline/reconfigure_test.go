package pipeline

import "testing"

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
	n, err := s.Reconfigured(&titled, nil, []string{"blog"}, testNow)
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
		if _, err := s.Reconfigured(&c, nil, []string{"blog"}, testNow); err == nil {
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
	n, err := s.Reconfigured(s.config, by("new"), []string{"blog/e.md"}, testNow)
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
