package host

import (
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"folio/pipeline"
)

// TestReloadRedescribes: a SIGHUP after a Hugo site's shortcode template
// changed describes the posts again with it, so that their descriptions
// (meta tags, the feed, posts.json, llms.txt) agree with their bodies; a
// SIGHUP that changes nothing describes none again. (The description
// function was made once at start, and reloads kept it: the body showed
// the new template, everything made of the summary the old one.)
func TestReloadRedescribes(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"hugo.toml":                   "baseURL = 'https://example.org/'\ntitle = 'T'\n",
		"content/posts/p.md":          "---\ntitle: P\ndate: 2024-01-02\n---\nText {{< hi >}} here.\n",
		"content/posts/own.md":        "---\ntitle: Own\ndate: 2024-01-01\ndescription: Its own {{< hi >}}\n---\nMore {{< hi >}}.\n",
		"layouts/_shortcodes/hi.html": "HI-1",
	})
	srv := startServing(t, Spec{Source: dir}.ForServe(false))
	reload := func() *pipeline.Snapshot {
		t.Helper()
		srv.hup <- syscall.SIGHUP
		return srv.applied(t)
	}
	if d := srv.h.Snapshot().Post("p").Description; d != "Text HI-1 here." {
		t.Fatalf("description at start %q, want the template's HI-1", d)
	}

	writeFile(t, filepath.Join(dir, "layouts/_shortcodes/hi.html"), "HI-2")
	s := reload()
	if d := s.Post("p").Description; d != "Text HI-2 here." {
		t.Errorf("description after the reload %q, want the new template's HI-2", d)
	}
	if d := s.Post("own").Description; d != "Its own {{< hi >}}" {
		t.Errorf("own description %q, want the front matter's", d)
	}
	for _, path := range []string{"/posts/p/", "/api/posts.json", "/rss.xml", "/llms.txt"} {
		resp, err := http.Get(srv.url + path)
		must(t, err)
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		must(t, err)
		if body := string(b); !strings.Contains(body, "Text HI-2 here.") || strings.Contains(body, "HI-1") {
			t.Errorf("%s does not show the new template's description alone:\n%s", path, body)
		}
	}

	if again := reload(); again.Post("p") != s.Post("p") {
		t.Error("a reload that changed nothing described the post again")
	}
}

// TestReloadRedescribesWhatMayChange: a reload describes again only the
// posts whose description may differ, counted (a post described again is
// a new Post): those that call a shortcode when a shortcode, partial,
// i18n or data file, or a setting templates see (title, params) changed;
// every one when a render option any post's rendering reads (the base
// URL; the markup settings and the summary length read the site afresh)
// or a render hook changed, or a template a hook may call; none for a
// setting no description reads. After each, every description is a cold start's.
func TestReloadRedescribesWhatMayChange(t *testing.T) {
	dir := t.TempDir()
	config := "baseURL = 'https://example.org/'\ntitle = 'T'\n"
	writeTree(t, dir, map[string]string{
		"hugo.toml":                    config,
		"content/posts/plain.md":       "---\ntitle: Plain\ndate: 2024-01-03\n---\nPlain \"text\" with [a link](https://example.com/).\n",
		"content/posts/plain2.md":      "---\ntitle: Plain2\ndate: 2024-01-04\n---\nMore plain text.\n",
		"content/posts/sc.md":          "---\ntitle: Sc\ndate: 2024-01-02\n---\nText {{< hi >}} here.\n",
		"content/posts/nested.md":      "---\ntitle: Nested\ndate: 2024-01-05\n---\n{{% box %}}In {{< hi >}}.{{% /box %}}\n",
		"content/posts/own.md":         "---\ntitle: Own\ndate: 2024-01-01\ndescription: Its own\n---\nMore {{< hi >}}.\n",
		"layouts/_shortcodes/hi.html":  "HI-1 {{ partial \"p.html\" . }} {{ site.Title }} {{ site.Params.who }} {{ index site.Data.d \"v\" }}",
		"layouts/_shortcodes/box.html": "<div>{{ .Inner }}</div>",
		"layouts/_partials/p.html":     "P-1",
		"data/d.toml":                  "v = 'D-1'\n",
	})
	spec := Spec{Source: dir}.ForServe(false)
	h := loadUnrun(t, spec)
	withShortcodes := []string{"nested", "sc"}
	every := []string{"nested", "plain", "plain2", "sc"}
	for _, step := range []struct {
		name  string
		files map[string]string
		want  []string // the posts described again, by slug
	}{
		{"nothing", nil, nil},
		{"shortcode", map[string]string{"layouts/_shortcodes/hi.html": "HI-2 {{ partial \"p.html\" . }} {{ site.Title }} {{ site.Params.who }} {{ index site.Data.d \"v\" }}"}, withShortcodes},
		{"partial", map[string]string{"layouts/_partials/p.html": "P-2"}, withShortcodes},
		{"data", map[string]string{"data/d.toml": "v = 'D-2'\n"}, withShortcodes},
		{"title", map[string]string{"hugo.toml": strings.Replace(config, "'T'", "'T2'", 1)}, withShortcodes},
		{"params", map[string]string{"hugo.toml": strings.Replace(config, "'T'", "'T2'", 1) + "[params]\nwho = 'W'\n"}, withShortcodes},
		{"pagination", map[string]string{"hugo.toml": strings.Replace(config, "'T'", "'T2'", 1) + "[params]\nwho = 'W'\n[pagination]\npagerSize = 3\n"}, nil},
		{"base URL", map[string]string{"hugo.toml": strings.Replace(strings.Replace(config, "'T'", "'T2'", 1), ".org", ".net", 1) + "[params]\nwho = 'W'\n"}, every},
		{"hook added", map[string]string{"layouts/_markup/render-link.html": "[{{ .Text }} {{ partial \"p.html\" . }}]"}, every},
		{"partial under a hook", map[string]string{"layouts/_partials/p.html": "P-3"}, every},
		{"nothing again", nil, nil},
	} {
		before := h.Snapshot()
		writeTree(t, dir, step.files)
		h.apply(reloadAll)
		after := h.Snapshot()
		var described []string
		for _, slug := range []string{"nested", "own", "plain", "plain2", "sc"} {
			if after.Post(slug) == nil {
				t.Fatalf("%s: no post %s", step.name, slug)
			}
			if after.Post(slug) != before.Post(slug) {
				described = append(described, slug)
			}
		}
		if !slices.Equal(described, step.want) {
			t.Errorf("%s: described again %v, want %v", step.name, described, step.want)
		}
		cold := loadUnrun(t, spec).Snapshot()
		for _, p := range cold.AllPosts() {
			if got := after.Post(p.Slug).Description; got != p.Description {
				t.Errorf("%s: %s: description %q, a cold start's %q", step.name, p.Slug, got, p.Description)
			}
		}
	}
	if d := h.Snapshot().Post("sc").Description; d != "Text HI-2 P-3 T2 W D-2 here." {
		t.Errorf("sc's description at the end %q", d)
	}
}
