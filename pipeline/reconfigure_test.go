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
	n, err := s.Reconfigured(&titled, []string{"blog"}, testNow)
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
		if _, err := s.Reconfigured(&c, []string{"blog"}, testNow); err == nil {
			t.Errorf("%+v: reconfigured, want an error", c)
		}
	}
}
