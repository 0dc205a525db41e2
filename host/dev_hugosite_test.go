package host

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"folio/pipeline"
)

// hugoSite is a Hugo site folder as folio dev finds it there: hugo.toml,
// config/_default/ with per-key files, the development environment's
// folder, content in two sections, a static file, a shortcode.
var hugoSite = map[string]string{
	"hugo.toml":                       "baseURL = 'https://example.org/'\ntitle = 'From hugo.toml'\n[pagination]\npagerSize = 5\n",
	"config/_default/params.toml":     "description = 'From params.toml'\n",
	"config/production/hugo.toml":     "title = 'Production only'\n",
	"content/posts/_index.md":         "---\ntitle: Posts\n---\n",
	"content/posts/first.md":          post("First", "2026-01-01T00:00:00Z", "go") + "{{< note >}}inside{{< /note >}}\n",
	"content/about.md":                "---\ntitle: About\n---\nAbout me.\n",
	"static/files/notes.txt":          "notes v1\n",
	"layouts/_shortcodes/note.html":   "<aside>v1 {{ .Inner }}</aside>",
	"layouts/_default/single.html":    "a Hugo layout folio does not run\n",
	"archetypes/default.md":           "---\ntitle: x\n---\n",
	"public/index.html":               "Hugo's output, not watched\n",
	"resources/_gen/images/a.jpg":     "Hugo's cache, not watched\n",
	"content/posts/second/index.md":   post("Second", "2026-01-02T00:00:00Z"),
	"content/posts/second/photo.jpg":  "jpeg v1",
	"config/_default/menus.en.toml":   "[[main]]\nname = 'Home'\npageRef = '/'\nweight = 1\n",
	"config/_default/languages.toml":  "[en]\nweight = 1\n",
	"config/development/params.toml":  "description = 'From development/params.toml'\n",
	"config/_default/taxonomies.toml": "tag = 'tags'\n",
}

// TestDevHugoSite runs folio dev in a Hugo site's folder with no other
// config (as `folio dev` there does) and edits it as an author does:
// every config file Hugo merges (hugo.toml, config/_default/ and its
// per-key files, the development folder) is watched, each save is one
// rebuild, a broken file keeps the last good site, the production folder
// does not change dev's site; content in any section, bundle files,
// static files and shortcodes are live.
func TestDevHugoSite(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, hugoSite)
	f := startDev(t, dir, func(s *Spec) { *s = Spec{Source: dir}.ForDev(false, nil) })
	if cfg := f.h.Snapshot().Config(); cfg.Title != "From hugo.toml" || cfg.Description != "From development/params.toml" {
		t.Fatalf("title %q, description %q at start: want hugo.toml's and config/development/params.toml's", cfg.Title, cfg.Description)
	}
	events := f.openEvents("")

	// One save, one snapshot with want in it, then a reload.
	save := func(t *testing.T, name, body, what string, want func(*pipeline.Snapshot) bool) *pipeline.Snapshot {
		t.Helper()
		before := f.count()
		f.write(name, body)
		s := f.waitSnap(what, want)
		if got := f.since(before); len(got) != 1 {
			t.Errorf("%d snapshots for one save of %s, want 1: %s", len(got), name, summarize(got))
		}
		wantReloadOf(t, events.next(t), s)
		return s
	}

	t.Run("hugo.toml", func(t *testing.T) {
		save(t, "hugo.toml", "baseURL = 'https://example.org/'\ntitle = 'Edited hugo.toml'\n[pagination]\npagerSize = 5\n",
			"the title of hugo.toml", func(s *pipeline.Snapshot) bool { return s.Config().Title == "Edited hugo.toml" })
		if _, body := f.get("/"); !strings.Contains(body, "Edited hugo.toml") {
			t.Error("the home page does not show the new title")
		}
	})

	t.Run("a per-key file of config/_default", func(t *testing.T) {
		f.write("config/development/params.toml", "\n") // the development folder no longer sets it
		f.waitSnap("the default description", func(s *pipeline.Snapshot) bool { return s.Config().Description == "From params.toml" })
		wantEventNamed(t, events.next(t), "reload")
		save(t, "config/_default/params.toml", "description = 'Edited params.toml'\n",
			"the description of params.toml", func(s *pipeline.Snapshot) bool { return s.Config().Description == "Edited params.toml" })
	})

	t.Run("a new per-key file", func(t *testing.T) {
		save(t, "config/_default/menus.en.toml", "[[main]]\nname = 'Home'\npageRef = '/'\nweight = 1\n[[main]]\nname = 'All posts'\npageRef = '/posts'\nweight = 2\n",
			"the new menu entry", func(s *pipeline.Snapshot) bool { return len(s.Menu("en", "main")) == 2 })
		save(t, "config/_default/permalinks.toml", "posts = '/:year/:slug/'\n",
			"the permalinks of a new file", func(s *pipeline.Snapshot) bool { _, ok := s.Route("/2026/first/"); return ok })
		if resp, _ := f.get("/2026/first/"); resp.StatusCode != 200 {
			t.Errorf("/2026/first/: %d, want 200 after permalinks.toml", resp.StatusCode)
		}
	})

	t.Run("the development folder", func(t *testing.T) {
		save(t, "config/development/hugo.toml", "title = 'Development'\n",
			"the development title", func(s *pipeline.Snapshot) bool { return s.Config().Title == "Development" })
		// The production folder is not dev's: its save is no rebuild.
		before := f.count()
		f.write("config/production/hugo.toml", "title = 'Production edited'\n")
		f.write("config/production/params.toml", "description = 'Production'\n")
		f.settle()
		if got := f.since(before); len(got) != 0 {
			t.Errorf("%d snapshots for a save of config/production/, want none: %s", len(got), summarize(got))
		}
	})

	t.Run("a broken per-key file", func(t *testing.T) {
		before := f.h.Snapshot()
		f.write("config/_default/params.toml", "description = 'Broken\n")
		ev := events.next(t)
		wantEventNamed(t, ev, "problems")
		if !strings.Contains(ev.Data, "params.toml") {
			t.Errorf("the problem does not name params.toml: %s", ev.Data)
		}
		if f.h.Snapshot() != before {
			t.Error("a broken config file replaced the snapshot")
		}
		f.write("config/_default/params.toml", "description = 'Fixed'\n")
		s := f.waitSnap("the fixed file", func(s *pipeline.Snapshot) bool { return s.Config().Description == "Fixed" })
		wantEventNamed(t, events.next(t), "clear")
		wantReloadOf(t, events.next(t), s)
	})

	t.Run("hugo.toml removed", func(t *testing.T) {
		save(t, "config/_default/hugo.toml", "baseURL = 'https://example.org/'\ntitle = 'From config/_default'\ncopyright = 'Me'\n",
			"config/_default/hugo.toml", func(s *pipeline.Snapshot) bool { return s.Config().Copyright == "Me" })
		must(t, os.Remove(f.path("config/development/hugo.toml")))
		must(t, os.Remove(f.path("hugo.toml")))
		s := f.waitSnap("the config folder alone", func(s *pipeline.Snapshot) bool { return s.Config().Title == "From config/_default" })
		if s.Config().Pagination.PagerSize != 10 {
			t.Errorf("pagerSize %d without hugo.toml, want Hugo's default 10", s.Config().Pagination.PagerSize)
		}
		wantEventNamed(t, events.next(t), "reload")
	})

	if strings.Contains(f.logs.String(), "gone") {
		t.Errorf("the log says a config is gone while config/_default/ is read:\n%s", f.logs.String())
	}

	t.Run("content, bundles, static files and shortcodes", func(t *testing.T) {
		save(t, "content/projects/folio.md", "---\ntitle: Folio\n---\nA new section.\n",
			"a page of a new section", func(s *pipeline.Snapshot) bool { _, ok := s.Route("/projects/folio/"); return ok })
		save(t, "content/posts/_index.md", "---\ntitle: Writing\n---\n",
			"the section's new title", func(s *pipeline.Snapshot) bool { r, ok := s.Route("/posts/"); return ok && r.Page.Title == "Writing" })
		save(t, "content/posts/first.md", post("First", "2026-01-01T00:00:00Z", "go", "rust")+"{{< note >}}inside{{< /note >}}\n",
			"a new term", func(s *pipeline.Snapshot) bool { _, ok := s.Route("/tags/rust/"); return ok })
		f.write("content/posts/second/photo.jpg", "jpeg v2")
		f.write("static/files/notes.txt", "notes v2\n")
		f.write("static/files/new.txt", "new\n")
		f.waitSnap("the new static file", func(s *pipeline.Snapshot) bool { _, ok := s.Route("/files/new.txt"); return ok })
		// Hidden names in the static folder are published, as Hugo does:
		// their saves are seen too, in a new hidden folder as well.
		f.write("static/.htaccess", "Options -Indexes\n")
		f.write("static/.well-known/security.txt", "Contact: mailto:a@example.org\n")
		// A name a tool also makes for a moment ("x.md.tmp") is a file of
		// the section when it stays, as Hugo publishes it.
		f.write("content/posts/template.md.tmp", "---\ntitle: {{ .Name }}\n---\n")
		f.waitSnap("the hidden static files and the section's .tmp file", func(s *pipeline.Snapshot) bool {
			_, a := s.Route("/.htaccess")
			_, b := s.Route("/.well-known/security.txt")
			_, c := s.Route("/posts/template.md.tmp")
			return a && b && c
		})
		for path, want := range map[string]string{"/2026/second/photo.jpg": "jpeg v2", "/files/notes.txt": "notes v2\n", "/files/new.txt": "new\n",
			"/.htaccess": "Options -Indexes\n", "/.well-known/security.txt": "Contact: mailto:a@example.org\n",
			"/posts/template.md.tmp": "---\ntitle: {{ .Name }}\n---\n"} {
			if resp, body := f.get(path); resp.StatusCode != 200 || body != want {
				t.Errorf("%s: %d %q, want %q", path, resp.StatusCode, body, want)
			}
		}
		f.settle() // the static files' snapshot, and its reload, before the shortcode's
		for drained := false; !drained; {
			select {
			case <-events.events:
			default:
				drained = true
			}
		}
		// A shortcode's template alone: no content changes, yet the pages
		// that use it change, so the site is read again (one snapshot).
		before, old := f.count(), f.h.Snapshot()
		f.write("layouts/_shortcodes/note.html", "<aside>v2 {{ .Inner }}</aside>")
		f.waitSnap("the edited shortcode's snapshot", func(s *pipeline.Snapshot) bool { return s != old })
		f.settle()
		if got := f.since(before); len(got) != 1 {
			t.Errorf("%d snapshots for a save of a shortcode, want 1: %s", len(got), summarize(got))
		}
		// The shortcode's reload; an earlier snapshot's may reach the
		// stream after the drain above (under -race, it did).
		for now := f.h.Snapshot(); ; {
			ev := events.next(t)
			id, err := strconv.ParseUint(ev.Data, 10, 64)
			if ev.Event != "reload" || err != nil || id > now.ID() {
				t.Fatalf("got %s %q, want reload %d", ev.Event, ev.Data, now.ID())
			}
			if id == now.ID() {
				break
			}
		}
		if _, body := f.get("/2026/first/"); !strings.Contains(body, "<aside>v2 inside</aside>") {
			t.Errorf("the page does not show the edited shortcode:\n%s", body)
		}
		// The log line is written beside the reload, and may follow it.
		for deadline := time.Now().Add(devWait); !strings.Contains(f.logs.String(), "changed=templates"); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Errorf("the log does not say the templates changed:\n%s", f.logs.String())
				break
			}
		}
		// What is made of the post's summary (its description: meta
		// tags, JSON-LD, the feed, posts.json, llms.txt) is made with the
		// new template too, and stays so when the post is edited.
		wantDescribed := func(t *testing.T, s *pipeline.Snapshot, version string) {
			t.Helper()
			if d := s.Post("first").Description; !strings.Contains(d, version+" inside") {
				t.Errorf("first's description %q, want the shortcode's %s", d, version)
			}
			for _, path := range []string{"/2026/first/", "/api/posts.json", "/rss.xml", "/llms.txt"} {
				if _, body := f.get(path); !strings.Contains(body, version+" inside") || strings.Contains(body, "v1 inside") {
					t.Errorf("%s does not show the shortcode's %s alone:\n%s", path, version, body)
				}
			}
		}
		wantDescribed(t, f.h.Snapshot(), "v2")
		s := save(t, "content/posts/first.md", post("First", "2026-01-01T00:00:00Z", "go", "rust")+"{{< note >}}inside{{< /note >}} edited\n",
			"the edited post", func(s *pipeline.Snapshot) bool { return strings.Contains(s.Post("first").Description, "edited") })
		wantDescribed(t, s, "v2")
	})

	t.Run("Hugo's output and layouts", func(t *testing.T) {
		before := f.count()
		f.write("public/index.html", "Hugo built again\n")
		f.write("resources/_gen/images/b.jpg", "x")
		f.write("layouts/_default/single.html", "edited\n")
		f.write(filepath.Join("archetypes", "post.md"), "---\ntitle: y\n---\n")
		f.settle()
		f.write("content/about.md", "---\ntitle: About again\n---\n")
		f.waitSnap("the marker page", func(s *pipeline.Snapshot) bool {
			r, ok := s.Route("/about/")
			return ok && r.Page.Title == "About again"
		})
		if got := f.since(before); len(got) != 1 {
			t.Errorf("%d snapshots for Hugo's output, a layout, an archetype and one page, want the page's alone: %s", len(got), summarize(got))
		}
	})
}
