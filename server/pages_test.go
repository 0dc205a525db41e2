package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"folio/pipeline"
	"folio/site"
)

// The HTML pages are tested through the real embedded theme, over HTTP.

func TestArticlePage(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	resp, body := get(t, ts, "GET", "/blog/hello-world/")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	wantHeaders := map[string]string{
		"Content-Type":   "text/html; charset=utf-8",
		"Link":           pageLinkWant("https://example.org/blog/hello-world.md"),
		"Content-Signal": "search=yes, ai-input=yes, ai-train=no",
	}
	for k, want := range wantHeaders {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if resp.Header.Get("Content-Security-Policy") == "" {
		t.Error("no Content-Security-Policy on an HTML page")
	}
	if !varies(resp, "Accept") {
		t.Errorf("Vary = %q, want Accept in it", resp.Header.Get("Vary"))
	}
	page := string(body)
	for _, want := range []string{
		`<html lang="en">`,
		`<title>Hello, world · Fixture &amp; Co</title>`,
		`<meta name="description" content="First post.">`,
		`<link rel="canonical" href="https://example.org/blog/hello-world/">`,
		`<link rel="alternate" type="text/markdown" href="https://example.org/blog/hello-world.md">`,
		`<link rel="alternate" type="application/rss+xml" title="Fixture &amp; Co" href="https://example.org/rss.xml">`,
		`<meta property="og:type" content="article">`,
		`<meta property="og:title" content="Hello, world">`,
		`<meta property="og:description" content="First post.">`,
		`<meta property="og:url" content="https://example.org/blog/hello-world/">`,
		`<meta property="article:published_time" content="2026-01-02T15:04:05Z">`,
		`<meta property="article:modified_time" content="2026-01-03T09:00:00Z">`,
		`<meta property="article:tag" content="go">`,
		`<h1>Hello, world</h1>`,
		`<time datetime="2026-01-02T15:04:05Z">2 January 2026</time>`,
		`updated <time datetime="2026-01-03T09:00:00Z">3 January 2026</time>`,
		`<span class="category">notes</span>`,
		`<li>go</li><li>http</li>`,
		`href="https://example.org/blog/hello-world.md" type="text/markdown"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("article page lacks %s", want)
		}
	}
	if strings.Contains(page, "badge") {
		t.Error("a published post has a status badge")
	}
	if strings.Contains(page, "_folio/live.js") {
		t.Error("the live-reload script is on a page of folio serve")
	}
}

// Titles and tags with markup characters are escaped in text, attributes
// and the head.
func TestArticlePageEscapes(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	_, body := get(t, ts, "GET", "/blog/trip/")
	page := string(body)
	for _, want := range []string{
		`<title>A trip &lt;with&gt; &#34;quotes&#34; &amp; ampersands · Fixture &amp; Co</title>`,
		`<meta property="og:title" content="A trip &lt;with&gt; &#34;quotes&#34; &amp; ampersands">`,
		`<h1>A trip &lt;with&gt; &#34;quotes&#34; &amp; ampersands</h1>`,
		`<li>naïve</li>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("trip page lacks %s", want)
		}
	}
	if strings.Contains(page, "<with>") {
		t.Error("a title's markup reached the page unescaped")
	}
}

func TestDirectoryPage(t *testing.T) {
	s, ts := startSite(t, sampleSite())
	resp, body := get(t, ts, "GET", "/blog/")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if got, want := resp.Header.Get("Link"), pageLinkWant("https://example.org/blog.md"); got != want {
		t.Errorf("Link = %q, want %q", got, want)
	}
	page := string(body)
	var order []string
	for _, m := range regexp.MustCompile(`data-slug="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		order = append(order, m[1])
	}
	var want []string
	for _, p := range s.Snapshot().Posts() {
		want = append(want, p.Slug)
	}
	if len(want) < 4 || strings.Join(order, " ") != strings.Join(want, " ") {
		t.Errorf("directory lists %v, want %v", order, want)
	}
	for _, want := range []string{
		`<link rel="alternate" type="text/markdown" href="https://example.org/blog.md">`,
		`<link rel="canonical" href="https://example.org/blog/">`,
		`<form class="search" role="search" data-search data-base-url="https://example.org/" hidden>`,
		`<p class="description">First post.</p>`,
		`<a href="https://example.org/blog/" aria-current="page">All posts</a>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("directory page lacks %s", want)
		}
	}
	if !regexp.MustCompile(`<script type="module" src="https://example.org/static/directory\.[0-9a-f]{10}\.js"></script>`).MatchString(page) {
		t.Error("directory page does not load its fingerprinted script")
	}
}

// pageLinkWant is the Link header of a fixture page whose twin is twin.
func pageLinkWant(twin string) string {
	return `<https://example.org/.well-known/api-catalog>; rel="api-catalog", <https://example.org/openapi.json>; rel="service-desc"; type="application/json", <` +
		twin + `>; rel="alternate"; type="text/markdown"`
}

func TestHomePage(t *testing.T) {
	_, ts := startSite(t, generatedSite(homeLimit+5))
	resp, body := get(t, ts, "GET", "/")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != htmlType {
		t.Fatalf("status %d, type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if !varies(resp, "Accept") {
		t.Errorf("home page does not vary on Accept: %q", resp.Header.Get("Vary"))
	}
	if got, want := resp.Header.Get("Link"), pageLinkWant("https://example.org/index.md"); got != want {
		t.Errorf("home page Link %q, want %q", got, want)
	}
	page := string(body)
	if n := strings.Count(page, `class="item"`); n != homeLimit {
		t.Errorf("home lists %d posts, want the newest %d", n, homeLimit)
	}
	for _, want := range []string{
		`<h1>Fixture &amp; Co</h1>`,
		`<p class="lede">A site for tests: &lt;em&gt;escaped&lt;/em&gt;.</p>`,
		`All 15 posts →`,
		`<link rel="canonical" href="https://example.org/">`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("home page lacks %s", want)
		}
	}
	if !strings.Contains(page, `<link rel="alternate" type="text/markdown" href="https://example.org/index.md">`) {
		t.Error("the home page does not advertise its Markdown twin")
	}
	// Its twin, negotiated or at /index.md: the same bytes.
	md, twin := get(t, ts, "GET", "/", "Accept", "text/markdown")
	_, direct := get(t, ts, "GET", "/index.md")
	if md.Header.Get("Content-Type") != markdownType || string(twin) != string(direct) || md.Header.Get("Etag") == "" {
		t.Errorf("negotiated home: %q, same as /index.md %v", md.Header.Get("Content-Type"), string(twin) == string(direct))
	}
	for _, want := range []string{"---\ntitle: \"Fixture & Co\"\n", "\nurl: \"https://example.org/\"\n---\n", "## Latest posts\n",
		"All 15 posts: https://example.org/blog.md\n"} {
		if !strings.Contains(string(twin), want) {
			t.Errorf("home twin lacks %q:\n%s", want, twin)
		}
	}
	if n := strings.Count(string(twin), "\n- ["); n != homeLimit {
		t.Errorf("home twin lists %d posts, want %d", n, homeLimit)
	}
}

func TestEmptySite(t *testing.T) {
	_, ts := startSite(t, fstest.MapFS{"blog/.keep": {}})
	for _, path := range []string{"/", "/blog/"} {
		resp, body := get(t, ts, "GET", path)
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %d %s", path, resp.StatusCode, body)
		}
	}
}

func TestNotFoundPage(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	for _, tc := range []struct {
		path, accept, ctype string
	}{
		{"/no/such/page", "", htmlType},
		{"/no/such/page", "text/markdown", htmlType}, // 404 pages ignore Accept
		{"/blog/no-such-post/", "", htmlType},
		{"/blog/draft/", "", htmlType},  // unpublished
		{"/blog/future/", "", htmlType}, // scheduled
		{"/static/no-such.css", "", htmlType},
		{"/blog/no-such-post.md", "", "application/problem+json"},
		{"/api/nothing", "", "application/problem+json"},
		{"/thing.json", "text/html", "application/problem+json"},
	} {
		for _, method := range []string{"GET", "HEAD"} {
			resp, body := get(t, ts, method, tc.path, "Accept", tc.accept)
			if resp.StatusCode != http.StatusNotFound {
				t.Errorf("%s %s: status %d", method, tc.path, resp.StatusCode)
			}
			if got := resp.Header.Get("Content-Type"); got != tc.ctype {
				t.Errorf("%s %s: Content-Type %q, want %q", method, tc.path, got, tc.ctype)
			}
			if got := resp.Header.Get("Cache-Control"); got != "no-store" {
				t.Errorf("%s %s: Cache-Control %q, want no-store", method, tc.path, got)
			}
			if varies(resp, "Accept") {
				t.Errorf("%s %s: a 404 varies on Accept", method, tc.path)
			}
			if method == "HEAD" && len(body) != 0 {
				t.Errorf("HEAD %s: %d body bytes", tc.path, len(body))
			}
			if method == "GET" && tc.ctype == htmlType && !strings.Contains(string(body), "<h1>Page not found</h1>") {
				t.Errorf("GET %s: not the 404 page: %.200s", tc.path, body)
			}
		}
	}
	// The 404 page is over 1 KiB: gzip for clients that take it, as every
	// text body over 1 KiB (and the export's 404.html.gz twin).
	resp, gz := get(t, ts, "GET", "/no/such/page", "Accept-Encoding", "gzip")
	_, plain := get(t, ts, "GET", "/no/such/page")
	if len(plain) <= minCompress {
		t.Fatalf("the 404 page is %d bytes; the test needs one over %d", len(plain), minCompress)
	}
	if resp.StatusCode != 404 || resp.Header.Get("Content-Encoding") != "gzip" || !varies(resp, "Accept-Encoding") || !bytes.Equal(gunzip(t, gz), plain) {
		t.Errorf("gzip 404: %d %v", resp.StatusCode, resp.Header)
	}
}

// Under folio dev --drafts every unpublished post is shown with a badge
// that says why, and pages load the live-reload script.
func TestDevDraftBadges(t *testing.T) {
	fsys := sampleSite()
	fsys["blog/expired.md"] = &fstest.MapFile{Data: []byte("---\ntitle: Gone\ndate: 2026-01-01T00:00:00Z\nexpiryDate: 2026-02-01T00:00:00Z\n---\nOld.\n")}
	s := newServer(t, build(t, fsys, pipeline.Options{Drafts: true}), true)
	ts := startPages(t, s)
	_, body := get(t, ts, "GET", "/blog/")
	dir := string(body)
	for slug, badge := range map[string]string{"draft": "draft", "future": "scheduled", "expired": "expired"} {
		item := regexp.MustCompile(`(?s)<li class="item" data-slug="` + slug + `">.*?</li>`).FindString(dir)
		if want := `<span class="badge badge-` + badge + `">` + badge + `</span>`; !strings.Contains(item, want) {
			t.Errorf("directory item %s lacks %s:\n%s", slug, want, item)
		}
		_, page := get(t, ts, "GET", "/blog/"+slug+"/")
		if !strings.Contains(string(page), `badge-`+badge) {
			t.Errorf("article %s has no %s badge", slug, badge)
		}
	}
	if n := strings.Count(dir, `class="badge `); n != 3 {
		t.Errorf("%d badges in the directory, want 3 (published posts have none)", n)
	}
	if !strings.Contains(dir, `<script src="https://example.org/_folio/live.js" defer></script>`) {
		t.Error("dev pages lack the live-reload hook")
	}
}

// The CSP allows no inline script or style, so no page may have one.
func TestPagesAreCSPClean(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	inline := regexp.MustCompile(`<script(?:\s[^>]*)?>\s*[^<\s]|<style|\sstyle=|\son[a-z]+=`)
	scriptNoSrc := regexp.MustCompile(`<script(?:\s(?:[^s>]|s[^r>])*)?>`)
	// JSON-LD is data, not code: a browser runs no script of its type,
	// so the CSP has nothing to allow. It must be JSON, whole.
	dataBlock := regexp.MustCompile(`<script type="application/ld\+json">([^<]*)</script>`)
	for _, path := range []string{"/", "/blog/", "/blog/hello-world/", "/blog/trip/", "/blog/long/", "/api/", "/nope"} {
		_, body := get(t, ts, "GET", path)
		for _, m := range dataBlock.FindAllSubmatch(body, -1) {
			if !json.Valid(m[1]) {
				t.Errorf("%s: JSON-LD is not JSON: %s", path, m[1])
			}
		}
		body = dataBlock.ReplaceAll(body, nil)
		if m := inline.Find(body); m != nil {
			t.Errorf("%s has inline code: %q", path, m)
		}
		if m := scriptNoSrc.Find(body); m != nil {
			t.Errorf("%s has a script without src: %q", path, m)
		}
		if regexp.MustCompile(`(?:src|href)="/`).Match(body) {
			t.Errorf("%s has a relative URL; every URL is absolute from baseURL", path)
		}
	}
}

func TestStaticAssets(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	_, page := get(t, ts, "GET", "/blog/")
	css := regexp.MustCompile(`https://example.org(/static/style\.[0-9a-f]{10}\.css)`).FindSubmatch(page)
	if css == nil {
		t.Fatal("no fingerprinted stylesheet on the page")
	}
	resp, body := get(t, ts, "GET", string(css[1]))
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/css; charset=utf-8" {
		t.Fatalf("GET %s: %d %q", css[1], resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if got := resp.Header.Get("Cache-Control"); got != immutableCache {
		t.Errorf("fingerprinted asset Cache-Control = %q, want %q", got, immutableCache)
	}
	plain, plainBody := get(t, ts, "GET", "/static/style.css")
	if got := plain.Header.Get("Cache-Control"); got != "public, max-age=300" {
		t.Errorf("plain asset Cache-Control = %q", got)
	}
	if string(plainBody) != string(body) {
		t.Error("plain and fingerprinted names serve different bytes")
	}
	want, _ := site.FS.ReadFile("static/style.css")
	if !strings.HasPrefix(string(body), string(want)) {
		t.Error("the stylesheet is not the theme's static/style.css")
	}
	gz, _ := get(t, ts, "GET", string(css[1]), "Accept-Encoding", "gzip")
	if gz.Header.Get("Content-Encoding") != "gzip" || gz.Header.Get("Cache-Control") != immutableCache {
		t.Errorf("gzip answer: encoding %q, cache %q", gz.Header.Get("Content-Encoding"), gz.Header.Get("Cache-Control"))
	}
	for name, ctype := range map[string]string{"directory.js": "text/javascript; charset=utf-8", "favicon.svg": "image/svg+xml", "syntax.css": "text/css; charset=utf-8"} {
		resp, _ := get(t, ts, "GET", "/static/"+name)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != ctype {
			t.Errorf("GET /static/%s: %d %q, want 200 %q", name, resp.StatusCode, resp.Header.Get("Content-Type"), ctype)
		}
	}
}

func TestSDK(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	resp, body := get(t, ts, "GET", "/sdk/blog-client.js")
	want, _ := site.FS.ReadFile("sdk/blog-client.js")
	if resp.StatusCode != http.StatusOK || string(body) != string(want) {
		t.Fatalf("status %d, %d bytes, want the embedded client", resp.StatusCode, len(body))
	}
	for k, v := range map[string]string{
		"Content-Type":                "text/javascript; charset=utf-8",
		"Access-Control-Allow-Origin": "*",
		"Cache-Control":               "public, max-age=300",
	} {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	again, _ := get(t, ts, "GET", "/sdk/blog-client.js", "If-None-Match", resp.Header.Get("ETag"))
	if again.StatusCode != http.StatusNotModified || again.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("revalidation: %d, CORS %q", again.StatusCode, again.Header.Get("Access-Control-Allow-Origin"))
	}
}

func TestContentType(t *testing.T) {
	for name, want := range map[string]string{
		"a.css": "text/css; charset=utf-8", "dir/b.JS": "text/javascript; charset=utf-8",
		"c.svg": "image/svg+xml", "d.png": "image/png", "e.jpeg": "image/jpeg", "f.woff2": "font/woff2",
		"g": "application/octet-stream", "h.exe": "application/octet-stream", "i.tar.gz": "application/octet-stream",
	} {
		if got := contentType(name); got != want {
			t.Errorf("contentType(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestLoadThemeErrors(t *testing.T) {
	good := func() fstest.MapFS {
		fsys := fstest.MapFS{}
		for _, name := range []string{"templates/base.html", "templates/home.html", "templates/directory.html", "templates/article.html", "templates/404.html", "sdk/blog-client.js"} {
			data, err := site.FS.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			fsys[name] = &fstest.MapFile{Data: data}
		}
		return fsys
	}
	if _, err := loadTheme(good(), false, time.Now()); err != nil {
		t.Fatalf("a theme without static files: %v", err)
	}
	for _, tc := range []struct {
		name   string
		change func(fstest.MapFS)
		want   string
	}{
		{"missing layout", func(f fstest.MapFS) { delete(f, "templates/base.html") }, "base.html"},
		{"missing client", func(f fstest.MapFS) { delete(f, "sdk/blog-client.js") }, "sdk/blog-client.js"},
		{"syntax error", func(f fstest.MapFS) {
			f["templates/home.html"] = &fstest.MapFile{Data: []byte("{{define \"main\"}}\n{{if}}\n{{end}}")}
		}, "home.html:2"},
		{"no main", func(f fstest.MapFS) { f["templates/404.html"] = &fstest.MapFile{Data: []byte("hello")} }, "templates/404.html"},
	} {
		fsys := good()
		tc.change(fsys)
		_, err := loadTheme(fsys, false, time.Now())
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one naming %s", tc.name, err, tc.want)
		}
	}
}

// A template that fails while executing is a 500, not a half page.
func TestTemplateExecutionError(t *testing.T) {
	fsys := fstest.MapFS{}
	for _, name := range []string{"templates/base.html", "templates/home.html", "templates/directory.html", "templates/404.html", "sdk/blog-client.js"} {
		data, _ := site.FS.ReadFile(name)
		fsys[name] = &fstest.MapFile{Data: data}
	}
	fsys["templates/article.html"] = &fstest.MapFile{Data: []byte(`{{define "main"}}{{.Post.NoSuchField}}{{end}}`)}
	s, err := New(build(t, sampleSite(), pipeline.Options{}), Options{Site: fsys})
	if err != nil {
		t.Fatal(err)
	}
	ts := startPages(t, s)
	resp, body := get(t, ts, "GET", "/blog/hello-world/")
	if resp.StatusCode != http.StatusInternalServerError {
		t.Fatalf("status %d, want 500", resp.StatusCode)
	}
	var problem map[string]any
	if err := json.Unmarshal(body, &problem); err != nil || problem["status"] != float64(500) {
		t.Errorf("body %s is not a 500 problem", body)
	}
	if !varies(resp, "Accept") {
		t.Errorf("a 500 from a negotiating URL lacks Vary: Accept")
	}
}

// startPages serves s over real HTTP for the length of the test.
func startPages(t testing.TB, s *Server) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts
}

// varies reports whether resp's Vary lists field (case-insensitively).
func varies(resp *http.Response, field string) bool {
	for _, v := range resp.Header.Values("Vary") {
		for _, m := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(m), field) {
				return true
			}
		}
	}
	return false
}

// Every rule of the code colours sits inside a media query, so the light
// and dark styles never mix (the dark one does not name every class).
func TestSyntaxCSSSchemesApart(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	resp, body := get(t, ts, "GET", "/static/syntax.css")
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), ".chroma") {
		t.Fatalf("status %d, %d bytes", resp.StatusCode, len(body))
	}
	depth, start := 0, 0
	for i, c := range string(body) {
		switch c {
		case '{':
			if depth == 0 && !strings.HasPrefix(strings.TrimSpace(string(body[start:i])), "@media") {
				t.Fatalf("rule outside a media query: %q", strings.TrimSpace(string(body[start:i])))
			}
			depth++
		case '}':
			depth--
			if depth == 0 {
				start = i + 1
			}
		}
	}
}

// TestThemeFallback: a site folder made before folio had a kind of page
// (the API page) gets folio's own template for it, inside the site's own
// layout, instead of failing to load.
func TestThemeFallback(t *testing.T) {
	fsys := fstest.MapFS{
		"templates/base.html":      {Data: []byte(`<!doctype html><title>{{.Title}}</title><body class="my-layout">{{template "main" .}}</body>`)},
		"templates/home.html":      {Data: []byte(`{{define "main"}}home{{end}}`)},
		"templates/directory.html": {Data: []byte(`{{define "main"}}dir{{end}}`)},
		"templates/404.html":       {Data: []byte(`{{define "main"}}gone{{end}}`)},
		"sdk/blog-client.js":       {Data: []byte(`export {}`)},
	}
	s, err := New(build(t, sampleSite(), pipeline.Options{}), Options{Site: fsys})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	for path, want := range map[string]string{"/api/": "curl https://example.org/api/posts.json", "/blog/hello-world/": "Hello."} {
		resp, body := get(t, ts, "GET", path)
		if resp.StatusCode != 200 || !strings.Contains(string(body), `<body class="my-layout">`) || !strings.Contains(string(body), want) {
			t.Errorf("%s: %d, want folio's page in the site's layout with %q:\n%s", path, resp.StatusCode, want, body)
		}
	}
}

// TestSyntaxCSSStyle: a site that chose a chroma style
// (markup.highlight.style) gets its code colours in that style, at a new
// fingerprint the article pages link to; a snapshot under another config
// brings its own; a site with no choice keeps folio's light and dark
// pair.
func TestSyntaxCSSStyle(t *testing.T) {
	styled, err := pipeline.LoadSite(pipeline.SiteOptions{FS: fstest.MapFS{"hugo.toml": {Data: []byte(
		"baseURL = \"https://example.org/\"\ncontentDir = \".\"\n[markup.highlight]\nstyle = \"dracula\"\n")}}})
	if err != nil {
		t.Fatal(err)
	}
	snapOf := func(cfg *pipeline.Config) *pipeline.Snapshot {
		snap, err := pipeline.Build(sampleSite(), cfg, pipeline.Options{}, fixtureNow)
		if err != nil {
			t.Fatal(err)
		}
		return snap
	}
	s := newServer(t, snapOf(styled), false)
	ts := httptest.NewServer(s)
	defer ts.Close()
	sheet := func() (plain, linked string) {
		_, body := get(t, ts, "GET", "/static/syntax.css")
		_, page := get(t, ts, "GET", "/blog/hello-world/")
		m := regexp.MustCompile(`href="https://example.org(/static/syntax\.[0-9a-f]+\.css)"`).FindStringSubmatch(string(page))
		if m == nil {
			t.Fatalf("the article links no fingerprinted syntax.css:\n%s", page)
		}
		resp, fp := get(t, ts, "GET", m[1])
		if resp.StatusCode != http.StatusOK || string(fp) != string(body) {
			t.Fatalf("%s: status %d, %d bytes; /static/syntax.css has %d", m[1], resp.StatusCode, len(fp), len(body))
		}
		return string(body), m[1]
	}
	draculaBG := "#282a36" // dracula's background, in no style of folio's pair
	got, draculaURL := sheet()
	if !strings.Contains(got, draculaBG) || strings.Contains(got, "prefers-color-scheme") {
		t.Errorf("style dracula: syntax.css is not dracula's:\n%.300s", got)
	}
	if err := s.Swap(snapOf(fixtureConfig(t))); err != nil {
		t.Fatal(err)
	}
	got, pairURL := sheet()
	if strings.Contains(got, draculaBG) || !strings.Contains(got, "prefers-color-scheme: dark") {
		t.Errorf("no style: syntax.css is not folio's pair:\n%.300s", got)
	}
	if pairURL == draculaURL {
		t.Errorf("both styles at one fingerprinted URL %s", pairURL)
	}
	if resp, _ := get(t, ts, "GET", draculaURL); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the old style's fingerprinted URL answers %d after the swap, want 404", resp.StatusCode)
	}
}
