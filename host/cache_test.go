package host

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"folio/internal/corpus"
	"folio/server"
)

// TestCacheStartEqualsCold: serve and dev started from the parse cache the
// previous start saved answer every route, every representation, with
// the bytes and headers of a start without one, after each change of a
// series (edits, an edit within the second to the same size, a deletion,
// a rename, a new post, a bundle's files, a post whose date comes, a
// shortcode template, the config, the cache corrupt, cut short, foreign or
// a folder); and each start parses only the files that changed, or every
// file when the cache may not be used.
func TestCacheStartEqualsCold(t *testing.T) {
	for _, command := range []string{"serve", "dev"} {
		t.Run(command, func(t *testing.T) { cacheStartEqualsCold(t, command) })
	}
}

func cacheStartEqualsCold(t *testing.T, command string) {
	dir := t.TempDir()
	must(t, corpus.Write(dir, 30, 7))
	writeFile(t, filepath.Join(dir, "hugo.toml"), "baseURL = 'https://blog.example.org/'\ntitle = 'Cached'\n[pagination]\npagerSize = 5\n")
	writeFile(t, filepath.Join(dir, "layouts", "shortcodes", "note.html"), `<aside class="note">{{ .Inner }}</aside>`)
	// A post whose description is its summary, made by a shortcode: never
	// cached, as a template may change it.
	writeFile(t, filepath.Join(dir, "content", "blog", "noted.md"), "---\ntitle: Noted\ndate: 2024-02-03T04:05:06Z\n---\n{{< note >}}A note.{{< /note >}} And text.\n")
	blog := filepath.Join(dir, "content", "blog")
	posts, _ := filepath.Glob(filepath.Join(blog, "post-*.md"))
	bundles, _ := filepath.Glob(filepath.Join(blog, "post-*", "index.md"))
	if len(posts) < 20 || len(bundles) < 1 {
		t.Fatalf("corpus: %d posts, %d bundles", len(posts), len(bundles))
	}
	at := time.Now().UTC().Truncate(time.Second)
	spec := Spec{Source: dir, At: at, Started: at.Add(-time.Hour)}
	if command == "dev" {
		spec = spec.ForDev(true, nil)
		spec.Watch = Watch{} // the test applies nothing
	} else {
		spec = spec.ForServe(false)
	}
	cacheDir := filepath.Join(t.TempDir(), "cache")
	spec.Cache, spec.SaveCache = CacheFile(cacheDir, command, spec), true
	start := func(spec Spec) *Host {
		t.Helper()
		spec.At = at
		return loadUnrun(t, spec)
	}
	corrupt := func(f func([]byte) []byte) func() {
		return func() {
			data, err := os.ReadFile(spec.Cache)
			must(t, err)
			must(t, os.WriteFile(spec.Cache, f(data), 0o600))
		}
	}
	var soon time.Time
	all := len(posts) + len(bundles) + 1 // the corpus has a section page too
	steps := []struct {
		name   string
		change func()
		// parsed is how many content files the start from the cache
		// parses; -1 for every one (the cache is not read).
		parsed int
	}{
		{"no cache yet", func() {}, -1},
		{"nothing changed", func() {}, 1}, // noted.md, never cached
		{"a post's body edited", func() { appendFile(t, posts[3], "\nOne more paragraph, with a [link](https://example.org/).\n") }, 2},
		{"the same post edited again at once to the same size", func() { replaceIn(t, posts[3], "One more paragraph", "One mere paragraph") }, 2},
		{"a post's title edited", func() { replaceIn(t, posts[4], "title: ", "title: Retitled ") }, 2},
		{"a post deleted", func() { must(t, os.Remove(posts[5])) }, 1},
		{"a post renamed", func() { must(t, os.Rename(posts[6], filepath.Join(blog, "renamed-post.md"))) }, 2},
		{"a post added with a new tag", func() {
			writeFile(t, filepath.Join(blog, "new-post.md"), "---\ntitle: New\ndate: 2024-05-06T07:08:09Z\ntags: [brand-new]\n---\nFresh.\n")
		}, 2},
		{"a bundle's file edited", func() {
			writeFile(t, filepath.Join(filepath.Dir(bundles[0]), "figure.svg"), `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"/>`)
		}, 1},
		{"a file added to a bundle", func() {
			writeFile(t, filepath.Join(filepath.Dir(bundles[0]), "extra.txt"), "more")
		}, 2},
		{"a post scheduled in an hour", func() {
			soon = at.Add(time.Hour)
			writeFile(t, filepath.Join(blog, "soon.md"), "---\ntitle: Soon\ndate: "+soon.Format(time.RFC3339)+"\ntags: [soon]\n---\nDue.\n")
		}, 2},
		{"its date passed", func() { at = soon.Add(time.Second) }, 1},
		{"the shortcode's template changed", func() {
			writeFile(t, filepath.Join(dir, "layouts", "shortcodes", "note.html"), `<aside class="note changed">{{ .Inner }}</aside>`)
		}, -1},
		{"nothing changed after it", func() {}, 1},
		{"the config changed", func() { replaceIn(t, filepath.Join(dir, "hugo.toml"), "title = 'Cached'", "title = 'Cached, renamed'") }, -1},
		{"the cache corrupt", corrupt(func(b []byte) []byte { b[len(b)/2] ^= 0xff; return b }), -1},
		{"the cache cut short", corrupt(func(b []byte) []byte { return b[:len(b)-100] }), -1},
		{"the cache another file", corrupt(func([]byte) []byte { return []byte("not a cache") }), -1},
		{"the cache a folder", func() {
			must(t, os.Remove(spec.Cache))
			must(t, os.Mkdir(spec.Cache, 0o700))
		}, -1},
		{"the cache back", func() { must(t, os.Remove(spec.Cache)) }, -1},
		{"a post edited after it", func() { appendFile(t, posts[7], "\nAnother paragraph.\n") }, 2},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			step.change()
			noCache := spec
			noCache.Cache, noCache.SaveCache = "", false
			cold := start(noCache)
			warm := start(spec)
			parsed, cached := warm.Snapshot().CacheCounts()
			files := parsed + cached
			switch {
			case step.parsed < 0 && cached != 0:
				t.Errorf("the start took %d of %d files from a cache it may not use", cached, files)
			case step.parsed >= 0 && parsed != step.parsed:
				t.Errorf("the start parsed %d of %d files, want %d", parsed, files, step.parsed)
			}
			if files < all-2 {
				t.Errorf("the start read %d content files, want about %d", files, all)
			}
			sameSite(t, cold, warm)
			_, err := warm.saveCache(context.Background(), warm.Snapshot())
			if step.name == "the cache a folder" {
				if err == nil {
					t.Error("a cache written over a folder")
				}
				return
			}
			must(t, err)
			if _, err := os.Stat(spec.Cache); err != nil {
				t.Errorf("no cache saved: %v", err)
			}
		})
	}
}

// sameSite fails unless the two hosts answer every route the first
// exports (and the second's list is the same), in each representation
// a client may ask for, with the same status, headers and bytes.
func sameSite(t *testing.T, a, b *Host) {
	t.Helper()
	paths := a.Server().ExportPaths()
	if other := b.Server().ExportPaths(); !slices.Equal(paths, other) {
		t.Fatalf("the routes differ: %d and %d", len(paths), len(other))
	}
	if !slices.Equal(a.Snapshot().Problems(), b.Snapshot().Problems()) {
		t.Errorf("the problems differ:\n%v\n%v", a.Snapshot().Problems(), b.Snapshot().Problems())
	}
	paths = append(paths, a.Server().ExportRedirects()...)
	paths = append(paths, "/healthz", "/no/such/page/")
	variants := []http.Header{
		{},
		{"Accept-Encoding": {"gzip"}},
		{"Accept": {"text/markdown"}},
		{"Accept": {"application/json"}, "Accept-Encoding": {"gzip"}},
	}
	diffs := 0
	for _, p := range paths {
		for _, h := range variants {
			ra, rb := wholeAnswer(a.Server(), p, h), wholeAnswer(b.Server(), p, h)
			if ra != rb && diffs < 5 {
				diffs++
				t.Errorf("%s %v: the start from the cache answers\n%s\nwhere a start without one answers\n%s", p, h, clip(rb), clip(ra))
			}
		}
	}
	if len(paths) < 100 {
		t.Errorf("only %d paths compared", len(paths))
	}
}

// wholeAnswer is the whole answer to a GET of p with the headers h: status,
// headers, body.
func wholeAnswer(srv *server.Server, p string, h http.Header) string {
	req := httptest.NewRequest("GET", "http://blog.example.org"+p, nil)
	for k, v := range h {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	var out bytes.Buffer
	fmt.Fprintf(&out, "%d\n", rec.Code)
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range rec.Header() {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range keys {
		fmt.Fprintf(&out, "%s: %s\n", k, strings.Join(rec.Header()[k], ", "))
	}
	out.Write(rec.Body.Bytes())
	return out.String()
}

func clip(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}

func appendFile(t *testing.T, name, text string) {
	t.Helper()
	data, err := os.ReadFile(name)
	must(t, err)
	must(t, os.WriteFile(name, append(data, text...), 0o644))
}

func replaceIn(t *testing.T, name, old, new string) {
	t.Helper()
	data, err := os.ReadFile(name)
	must(t, err)
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s has no %q", name, old)
	}
	must(t, os.WriteFile(name, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644))
}
