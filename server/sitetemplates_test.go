package server

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"folio/pipeline"
	"folio/render"
)

// TestEditGivesTemplatesTheNewSite: as in folio dev, each save is an
// Update and a Swap. A page whose shortcode asks the site for pages
// (site.GetPage, .Site.RegularPages, ref) shows the site after each
// save: a page added is found, renamed is found under its new name and
// no longer under the old, and a ref to no page is a problem naming
// the file and line while the page is served all the same. Each
// state's link index is made from the one before (render's
// SiteIndex.Next) when the save allows, and answers as a new one.
func TestEditGivesTemplatesTheNewSite(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	post := func(title string) string {
		return "---\ntitle: " + title + "\ndate: 2026-01-02\n---\nBody of " + title + ".\n"
	}
	write("hugo.toml", "baseURL = \"https://example.org/\"\ntitle = \"Edits\"\n")
	write("layouts/shortcodes/find.html", `<b>{{ with site.GetPage (.Get 0) }}found {{ .Title }} at {{ .Permalink }}{{ else }}no {{ .Get 0 }}{{ end }}</b>`)
	write("layouts/shortcodes/count.html", `<i>{{ len site.RegularPages }} pages: {{ range site.RegularPages }}{{ .Title }};{{ end }}</i>`)
	write("content/about.md", "---\ntitle: About\n---\n{{< find \"/posts/new\" >}} {{< find \"/posts/newer\" >}} {{< count >}}\n\nSee [the new one]({{< ref \"new\" >}}).\n")
	write("content/posts/old.md", post("Old"))

	cfg, err := pipeline.LoadSite(pipeline.SiteOptions{Source: dir, Environment: "development"})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := pipeline.Build(os.DirFS(dir), cfg, pipeline.Options{}, fixtureNow)
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(t, snap, true)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)

	page := func(want ...string) {
		t.Helper()
		resp, body := get(t, ts, "GET", "/about/")
		if resp.StatusCode != 200 {
			t.Fatalf("/about/: %d", resp.StatusCode)
		}
		for _, w := range want {
			if !strings.Contains(string(body), w) {
				t.Errorf("/about/ lacks %q:\n%s", w, body)
			}
		}
	}
	save := func(files map[string]string) {
		t.Helper()
		var changed []string
		for name, text := range files {
			if text == "" {
				if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
					t.Fatal(err)
				}
			} else {
				write(name, text)
			}
			changed = append(changed, name)
		}
		next, err := s.Snapshot().Update(changed, fixtureNow)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Swap(next); err != nil {
			t.Fatal(err)
		}
	}
	problems := func(want string) {
		t.Helper()
		var got []string
		for _, p := range s.RenderProblems() {
			got = append(got, p.String())
		}
		if all := strings.Join(got, "\n"); (want == "") != (all == "") || !strings.Contains(all, want) {
			t.Errorf("render problems:\n%s\nwant %q", all, want)
		}
	}

	page("<b>no /posts/new</b>", "<b>no /posts/newer</b>", "<i>2 pages: Old;About;</i>")
	problems(`content/about.md:6: ref "new": no such page`)

	save(map[string]string{"content/posts/new.md": post("New")})
	page("<b>found New at https://example.org/posts/new/</b>", "<b>no /posts/newer</b>", "<i>3 pages: New;Old;About;</i>",
		`<a href="https://example.org/posts/new/">the new one</a>`)
	problems("")
	followed(t, s)

	save(map[string]string{"content/posts/new.md": "", "content/posts/newer.md": post("Newer")})
	page("<b>no /posts/new</b>", "<b>found Newer at https://example.org/posts/newer/</b>", "<i>3 pages: Newer;Old;About;</i>")
	problems(`content/about.md:6: ref "new": no such page`)
	followed(t, s)
}

// followed checks that the current state's index answers as one made
// afresh for its snapshot.
func followed(t *testing.T, s *Server) {
	t.Helper()
	st := s.current.Load()
	got := st.renders().resolver.(*render.SiteIndex)
	fresh := render.NewSiteIndex(st.snap)
	for _, p := range st.snap.AllPosts() {
		if a, b := got.URL(p), fresh.URL(p); a != b {
			t.Errorf("%s: the index made from the last one says %q, a new one %q", p.File, a, b)
		}
		key := render.HugoPath(st.snap.Config().ContentPath(p.File))
		a, aok := got.PagePath(key)
		b, bok := fresh.PagePath(key)
		if aok != bok || a.URL != b.URL || a.Title != b.Title {
			t.Errorf("%s: PagePath(%s) = %v %v, a new index's %v %v", p.File, key, a, aok, b, bok)
		}
	}
}
