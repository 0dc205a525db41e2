package reliability

import (
	"fmt"
	"path"
	"strings"
	"testing"
	"time"

	"folio/pipeline"
)

// TestUnpublishedNeverServed crawls every route of the leak fixture as
// folio serve answers it, in every variant, following every link in every
// answer, plus each hidden post's cursor position: no answer is a 5xx, none
// holds a sentinel of a hidden post, and each is byte for byte (status,
// headers, body) the answer of the same site without the hidden files.
func TestUnpublishedNeverServed(t *testing.T) {
	now := time.Now()
	full := newServer(t, mapFS(leakSite), now)
	public := newServer(t, mapFS(publicOnly()), now)
	if got := len(full.Snapshot().Posts()); got != 3 {
		t.Fatalf("fixture: %d published posts, want 3", got)
	}
	// Aliases are linked from nowhere; hidden posts' cursors are
	// positions anyone can make.
	c := crawlSite(t, full, append(hiddenCursors(t, now), "/old/hello/", "/old/hello")...)
	for _, want := range []string{"/blog/hello/", "/blog/hello.md", "/blog/collide/", "/blog/pub-bundle/photo.svg",
		"/old/hello/", "/rss.xml", "/llms.txt", "/sitemap.xml", "/openapi.json"} {
		if _, ok := c.answers[want]; !ok {
			t.Errorf("the crawl never reached %s: it does not cover every route", want)
		}
	}
	if n := countPrefix(c.order, "/api/posts/cursor/"); n < 3 {
		t.Errorf("the crawl reached %d cursor pages, want every page of the walk", n)
	}
	requests := 0
	for _, p := range c.order {
		for _, v := range variants {
			a := c.answers[p][v.name]
			requests++
			if a.status >= 500 {
				t.Errorf("%s %s (%s): %d", v.method, p, v.name, a.status)
			}
			if tok := leaked(a.text()); tok != "" {
				t.Errorf("%s %s (%s) shows %q of an unpublished post:\n%s", v.method, p, v.name, tok, clip(a.text()))
			}
			if diff := sameAnswer(a, ask(t, public, v.method, p, v.header)); diff != "" {
				t.Errorf("%s %s (%s) differs from the site without unpublished posts: %s", v.method, p, v.name, diff)
			}
		}
	}
	t.Logf("%d URLs crawled, %d requests, each compared with the public-only site", len(c.order), requests)
}

// TestCrawlFindsDrafts is the control of the leak tests: with drafts shown
// (folio dev --drafts) the same crawl finds every hidden post's sentinels,
// so the crawl and the search can see a leak when there is one.
func TestCrawlFindsDrafts(t *testing.T) {
	srv := newServerOpts(t, mapFS(leakSite), time.Now(), pipeline.Options{Root: "content", Drafts: true})
	var guessed []string
	for _, h := range hiddenPosts {
		for _, g := range guessesFor(h) {
			guessed = append(guessed, g.path)
		}
	}
	c := crawlSite(t, srv, guessed...)
	var all strings.Builder
	for _, p := range c.order {
		all.Write(c.answers[p]["plain"].text())
		all.Write(c.answers[p]["markdown"].text())
	}
	low := strings.ToLower(all.String())
	for _, h := range hiddenPosts {
		for _, tok := range h.tokens {
			if !strings.Contains(low, strings.ToLower(tok)) {
				t.Errorf("with drafts shown, the crawl never saw %q of the %s post", tok, h.why)
			}
		}
	}
}

// TestBundleContentFilesNotServed (issue 15, finding 6): a published
// bundle's Markdown file, a draft's front matter and all, is a page
// resource, which Hugo never publishes: asked for in every variant, with
// drafts shown or not, it answers exactly like a file the bundle does not
// have, and no crawled answer holds its text.
func TestBundleContentFilesNotServed(t *testing.T) {
	for _, drafts := range []bool{false, true} {
		srv := newServerOpts(t, mapFS(leakSite), time.Now(), pipeline.Options{Root: "content", Drafts: drafts})
		const path, control = "/blog/pub-bundle/notes.md", "/blog/pub-bundle/nopes.md"
		for _, v := range variants {
			got, ctrl := ask(t, srv, v.method, path, v.header), ask(t, srv, v.method, control, v.header)
			if want := wantGuessStatus(v.method); got.status != want {
				t.Errorf("drafts %v: %s %s (%s): %d, want %d", drafts, v.method, path, v.name, got.status, want)
			}
			ctrl.body = swapPath(ctrl.body, control, path)
			ctrl.plain = swapPath(ctrl.plain, control, path)
			for k, vs := range ctrl.header {
				for i := range vs {
					vs[i] = string(swapPath([]byte(vs[i]), control, path))
				}
				ctrl.header[k] = vs
			}
			if diff := sameAnswer(got, ctrl); diff != "" {
				t.Errorf("drafts %v: %s %s (%s) answers unlike the unknown %s: %s", drafts, v.method, path, v.name, control, diff)
			}
		}
		c := crawlSite(t, srv, path)
		for _, p := range c.order {
			for name, a := range c.answers[p] {
				if low := strings.ToLower(string(a.text())); strings.Contains(low, "qn9") {
					t.Errorf("drafts %v: %s (%s) shows the bundle's Markdown file", drafts, p, name)
				}
			}
		}
	}
}

// TestGuessedURLsAnswerLikeUnknownOnes asks for every URL an attacker
// could guess for a hidden post (its page, Markdown, bundle files, aliases,
// file names, encoded and case-changed spellings) in every variant: each
// answer is the answer of a made-up path of the same shape and length
// (same status, same headers, same body once the path in a problem's
// detail is swapped), so not even the existence of a draft shows.
func TestGuessedURLsAnswerLikeUnknownOnes(t *testing.T) {
	srv := newServer(t, mapFS(leakSite), time.Now())
	n := 0
	for _, h := range hiddenPosts {
		for _, g := range guessesFor(h) {
			for _, v := range variants {
				got := ask(t, srv, v.method, g.path, v.header)
				ctrl := ask(t, srv, v.method, g.control, v.header)
				n++
				if want := wantGuessStatus(v.method); got.status != want {
					t.Errorf("%s %s (%s): %d, want %d", v.method, g.path, v.name, got.status, want)
				}
				ctrl.body = swapPath(ctrl.body, g.control, g.path)
				ctrl.plain = swapPath(ctrl.plain, g.control, g.path)
				for k, vs := range ctrl.header {
					for i := range vs {
						vs[i] = string(swapPath([]byte(vs[i]), g.control, g.path))
					}
					ctrl.header[k] = vs
				}
				if diff := sameAnswer(got, ctrl); diff != "" {
					t.Errorf("%s %s (%s) answers unlike the unknown %s: %s", v.method, g.path, v.name, g.control, diff)
				}
			}
		}
	}
	t.Logf("%d guessed requests, each compared with a made-up twin", n)
}

// wantGuessStatus is what any unknown path gets: 404, 204 for OPTIONS. A
// guess with "." segments is no exception: the server answers an unclean
// path as the clean path it names, which is unknown too.
func wantGuessStatus(method string) int {
	if method == "OPTIONS" {
		return 204
	}
	return 404
}

// A guess is a URL of a hidden post and a made-up twin of the same shape.
type guess struct{ path, control string }

// guessesFor lists the URLs an attacker who knows (or guesses) a hidden
// post's slug, file and alias names would try.
func guessesFor(h hidden) []guess {
	var out []guess
	pair := func(f func(slug, res string) []string, slug, res string) {
		a, b := f(slug, res), f(twin(slug), twin(res))
		for i := range a {
			out = append(out, guess{a[i], b[i]})
		}
	}
	pages := func(s, _ string) []string {
		return []string{
			"/blog/" + s + "/", "/blog/" + s, "/blog/" + s + ".md", "/blog/" + s + "/?x=1",
			"/blog/" + encodeFirst(s) + "/", "/blog/" + encodeFirst(s) + ".md", "/blog/" + strings.ToUpper(s) + "/",
			"/blog/group/" + s + "/", "/" + s + "/", "/" + s + ".md", "/blog/" + s + "/index.html",
		}
	}
	bundle := func(s, r string) []string {
		return []string{"/blog/" + s + "/" + r, "/blog/" + s + "/" + encodeFirst(r), "/blog/" + s + "/./" + r}
	}
	// The post's file (files[0]) gives its default slug, which a slug in
	// front matter replaces.
	names := []string{h.slug}
	file := strings.TrimSuffix(h.files[0], "/index.md")
	if name := strings.TrimSuffix(path.Base(file), ".md"); name != h.slug {
		names = append(names, name)
	}
	for _, s := range names {
		if s == "" {
			continue
		}
		pair(pages, s, "")
		for _, r := range h.resources {
			pair(bundle, s, r)
		}
	}
	for _, a := range h.aliases {
		for _, p := range []string{"/" + strings.Trim(a, "/"), "/" + strings.Trim(a, "/") + "/"} {
			out = append(out, guess{p, twin(p)})
		}
	}
	return out
}

// twin replaces every letter and digit of s by z (Z for capitals), keeping
// punctuation and the extension, so the twin names nothing yet has the
// same shape, length and kind (".md" paths answer problem+json).
func twin(s string) string {
	ext := path.Ext(s)
	if strings.Contains(ext, "/") {
		ext = ""
	}
	b := []byte(strings.TrimSuffix(s, ext))
	for i, c := range b {
		switch {
		case c >= 'A' && c <= 'Z':
			b[i] = 'Z'
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			b[i] = 'z'
		}
	}
	return string(b) + ext
}

// encodeFirst percent-encodes the first byte of s, which needs no
// encoding: the server must accept both forms, and answer both alike.
func encodeFirst(s string) string {
	if s == "" {
		return s
	}
	return fmt.Sprintf("%%%02X", s[0]) + s[1:]
}

// swapPath puts the guessed path where the twin's answer names its own
// (the detail of a problem), in every spelling the answer may use.
func swapPath(body []byte, from, to string) []byte {
	s := string(body)
	for _, f := range []func(string) string{func(p string) string { return p }, decoded, withoutQuery, cleaned} {
		s = strings.ReplaceAll(s, f(from), f(to))
	}
	return []byte(s)
}

func decoded(p string) string {
	if i := strings.IndexByte(p, '%'); i >= 0 && i+3 <= len(p) {
		var c byte
		fmt.Sscanf(p[i+1:i+3], "%02X", &c)
		return p[:i] + string(c) + p[i+3:]
	}
	return p
}

func cleaned(p string) string { return path.Clean(withoutQuery(p)) }

func withoutQuery(p string) string {
	p, _, _ = strings.Cut(p, "?")
	return p
}

// hiddenCursors are the cursor pages that name each hidden post's
// position, found from the snapshot with drafts shown: a cursor is a
// position, so these answer 200 like any position, and must answer as in
// the site without the hidden posts.
func hiddenCursors(t *testing.T, now time.Time) []string {
	snap, err := pipeline.Build(mapFS(leakSite), testConfig(t), pipeline.Options{Root: "content", Drafts: true}, now)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range snap.Posts() {
		out = append(out, "/api/posts/cursor/"+pipeline.CursorFor(p)+".json")
	}
	return out
}

func countPrefix(list []string, prefix string) int {
	n := 0
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			n++
		}
	}
	return n
}
