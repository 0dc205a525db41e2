package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// everyRoute is one URL of each route of the fixture site, and whether
// CONTRACT puts Access-Control-Allow-Origin on it.
var everyRoute = []struct {
	path string
	cors bool
}{
	{"/", false},
	{"/blog/", false},
	{"/blog.md", true},
	{"/blog/hello-world/", false},
	{"/blog/hello-world.md", true},
	{"/blog/long.md", true},
	{"/blog/trip/photo.svg", false},
	{"/api/posts.json", true},
	{"/api/posts/cursor/0.json", true},
	{"/openapi.json", true},
	{"/rss.xml", true},
	{"/llms.txt", true},
	{"/sitemap.xml", false},
	{"/healthz", false},
	{"/sdk/blog-client.js", true},
}

// TestConditionalRequests: every route has a strong ETag and
// Last-Modified, answers 304 to either validator with the same headers
// and no body, and 200 when the validator does not match.
func TestConditionalRequests(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	for _, rt := range everyRoute {
		t.Run(rt.path, func(t *testing.T) {
			resp, body := get(t, ts, "GET", rt.path)
			if resp.StatusCode != 200 {
				t.Fatalf("status %d: %s", resp.StatusCode, body)
			}
			etag, lm := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
			if !strings.HasPrefix(etag, `"`) || !strings.HasSuffix(etag, `"`) || len(etag) < 3 {
				t.Fatalf("ETag %q is not a strong entity tag", etag)
			}
			if _, err := http.ParseTime(lm); err != nil {
				t.Fatalf("Last-Modified %q: %v", lm, err)
			}
			if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options %q", got)
			}
			checkCORS(t, resp, rt.cors)

			for _, cond := range [][]string{
				{"If-None-Match", etag},
				{"If-None-Match", `"other", ` + etag},
				{"If-None-Match", "W/" + etag}, // weak comparison, RFC 9110 §13.1.2
				{"If-Modified-Since", lm},
				{"If-Modified-Since", time.Now().UTC().Format(http.TimeFormat)},
			} {
				r304, b304 := get(t, ts, "GET", rt.path, cond...)
				if r304.StatusCode != http.StatusNotModified || len(b304) != 0 {
					t.Errorf("%s: %s: status %d, %d bytes", cond[0], cond[1], r304.StatusCode, len(b304))
					continue
				}
				if r304.Header.Get("ETag") != etag || r304.Header.Get("Vary") != resp.Header.Get("Vary") ||
					r304.Header.Get("Cache-Control") != resp.Header.Get("Cache-Control") {
					t.Errorf("%s: 304 headers differ: %v vs %v", cond[0], r304.Header, resp.Header)
				}
				checkCORS(t, r304, rt.cors)
			}
			for _, cond := range [][]string{
				{"If-None-Match", `"other"`},
				{"If-Modified-Since", "Mon, 01 Jan 2001 00:00:00 GMT"},
				{"If-None-Match", `"other"`, "If-Modified-Since", lm}, // If-None-Match wins
			} {
				if r, _ := get(t, ts, "GET", rt.path, cond...); r.StatusCode != 200 {
					t.Errorf("%v: status %d, want 200", cond, r.StatusCode)
				}
			}
		})
	}
}

// TestHeadMatchesGet: HEAD has no body and the headers GET has.
func TestHeadMatchesGet(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	for _, rt := range everyRoute {
		for _, enc := range []string{"", "gzip"} {
			g, _ := get(t, ts, "GET", rt.path, "Accept-Encoding", enc)
			h, body := get(t, ts, "HEAD", rt.path, "Accept-Encoding", enc)
			if len(body) != 0 {
				t.Errorf("HEAD %s: %d bytes of body", rt.path, len(body))
			}
			for _, k := range []string{"Content-Type", "Content-Length", "Content-Encoding", "ETag", "Last-Modified", "Cache-Control", "Vary", "Access-Control-Allow-Origin", "Link"} {
				if g.Header.Get(k) != h.Header.Get(k) {
					t.Errorf("HEAD %s (%s): %s %q, GET has %q", rt.path, enc, k, h.Header.Get(k), g.Header.Get(k))
				}
			}
		}
	}
}

// TestCompression: text bodies over 1 KiB come gzipped when asked, with
// their own ETag and Vary: Accept-Encoding, and decompress to the same
// bytes; small ones and clients that do not ask get identity.
func TestCompression(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	compressed := 0
	for _, rt := range everyRoute {
		plain, want := get(t, ts, "GET", rt.path)
		z, zbody := get(t, ts, "GET", rt.path, "Accept-Encoding", "gzip, deflate")
		if plain.Header.Get("Content-Encoding") != "" {
			t.Errorf("%s: encoded without Accept-Encoding", rt.path)
		}
		if z.Header.Get("Content-Encoding") != "gzip" {
			if len(want) > minCompress && compressible(plain.Header.Get("Content-Type")) {
				t.Errorf("%s: %d bytes of %s not gzipped", rt.path, len(want), plain.Header.Get("Content-Type"))
			}
			continue
		}
		compressed++
		if got := gunzip(t, zbody); !bytes.Equal(got, want) {
			t.Errorf("%s: gzip round trip differs", rt.path)
		}
		if len(zbody) >= len(want) {
			t.Errorf("%s: gzip body %d bytes, identity %d", rt.path, len(zbody), len(want))
		}
		if z.Header.Get("ETag") == plain.Header.Get("ETag") {
			t.Errorf("%s: gzip and identity share ETag %s", rt.path, z.Header.Get("ETag"))
		}
		for _, r := range []*http.Response{plain, z} {
			if !strings.Contains(r.Header.Get("Vary"), "Accept-Encoding") {
				t.Errorf("%s: Vary %q", rt.path, r.Header.Get("Vary"))
			}
		}
		// The identity ETag does not validate the gzip body, nor the reverse.
		if r, _ := get(t, ts, "GET", rt.path, "Accept-Encoding", "gzip", "If-None-Match", plain.Header.Get("ETag")); r.StatusCode != 200 {
			t.Errorf("%s: identity ETag answered 304 for gzip", rt.path)
		}
		// gzip;q=0 refuses it.
		if r, _ := get(t, ts, "GET", rt.path, "Accept-Encoding", "gzip;q=0, identity"); r.Header.Get("Content-Encoding") != "" {
			t.Errorf("%s: gzip;q=0 got %s", rt.path, r.Header.Get("Content-Encoding"))
		}
	}
	if compressed < 5 {
		t.Errorf("only %d routes compressed", compressed)
	}
}

func checkCORS(t *testing.T, resp *http.Response, want bool) {
	t.Helper()
	got := resp.Header.Get("Access-Control-Allow-Origin")
	if want && got != "*" {
		t.Errorf("%s %d: Access-Control-Allow-Origin %q, want *", resp.Request.URL.Path, resp.StatusCode, got)
	}
	if !want && got != "" {
		t.Errorf("%s %d: unexpected Access-Control-Allow-Origin %q", resp.Request.URL.Path, resp.StatusCode, got)
	}
}

// TestErrorAnswers: problem+json with no-store for 400, 404 and 405 on
// API paths, CORS on CORS routes, Allow on 405, and OPTIONS 204.
func TestErrorAnswers(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	for _, tc := range []struct {
		method, path string
		status       int
		cors         bool
	}{
		{"GET", "/api/posts/cursor/%21.json", 400, true},
		{"GET", "/api/posts/cursor/AAAA.json", 400, true},
		{"GET", "/api/nothing.json", 404, true},
		{"GET", "/api/posts/cursor/0", 404, true},
		{"GET", "/blog/nobody.md", 404, true},
		{"GET", "/nothing.json", 404, false},
		{"POST", "/api/posts.json", 405, true},
		{"PUT", "/rss.xml", 405, true},
		{"DELETE", "/blog/hello-world/", 405, false},
		{"PATCH", "/sitemap.xml", 405, false},
	} {
		resp, body := get(t, ts, tc.method, tc.path)
		name := tc.method + " " + tc.path
		if resp.StatusCode != tc.status {
			t.Errorf("%s: status %d, want %d", name, resp.StatusCode, tc.status)
			continue
		}
		if ct := resp.Header.Get("Content-Type"); ct != "application/problem+json" {
			t.Errorf("%s: Content-Type %q", name, ct)
		}
		if cc := resp.Header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("%s: Cache-Control %q", name, cc)
		}
		checkCORS(t, resp, tc.cors)
		var p struct {
			Type, Title, Detail string
			Status              int
		}
		if err := json.Unmarshal(body, &p); err != nil || p.Status != tc.status || p.Title == "" || p.Detail == "" || p.Type == "" {
			t.Errorf("%s: problem body %s (%v)", name, body, err)
		}
		if tc.status == 405 && resp.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: Allow %q", name, resp.Header.Get("Allow"))
		}
	}
	for _, rt := range everyRoute {
		resp, body := get(t, ts, "OPTIONS", rt.path, "Origin", "https://other.example", "Access-Control-Request-Method", "GET")
		if resp.StatusCode != http.StatusNoContent || len(body) != 0 || resp.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("OPTIONS %s: %d, Allow %q", rt.path, resp.StatusCode, resp.Header.Get("Allow"))
		}
		checkCORS(t, resp, rt.cors)
	}
}

// TestURLsFromBaseURL: no body carries the request's Host.
func TestURLsFromBaseURL(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	host := strings.TrimPrefix(ts.URL, "http://")
	for _, rt := range everyRoute {
		_, body := get(t, ts, "GET", rt.path, "Host", "evil.example", "X-Forwarded-Host", "evil.example")
		for _, bad := range []string{host, "evil.example", "127.0.0.1"} {
			if bytes.Contains(body, []byte(bad)) {
				t.Errorf("%s: body contains %q", rt.path, bad)
			}
		}
	}
}

// TestBundleFileTypes: bundle files get types from the fixed table,
// unknown extensions application/octet-stream, and made-up names 404.
func TestBundleFileTypes(t *testing.T) {
	fsys := sampleSite()
	for name, data := range map[string]string{"clip.mp4": "\x00\x00\x00\x18ftypmp42", "clip.webm": "\x1a\x45\xdf\xa3", "notes.PDF": "%PDF-1.4"} {
		fsys["blog/trip/"+name] = &fstest.MapFile{Data: []byte(data)}
	}
	_, ts := startSite(t, fsys)
	for path, want := range map[string]string{
		"/blog/trip/photo.svg": "image/svg+xml",
		"/blog/trip/clip.mp4":  "video/mp4",
		"/blog/trip/clip.webm": "video/webm",
		"/blog/trip/notes.PDF": "application/pdf",
		"/blog/trip/data.bin":  "application/octet-stream",
	} {
		resp, _ := get(t, ts, "GET", path)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != want {
			t.Errorf("%s: %d %q, want %q", path, resp.StatusCode, resp.Header.Get("Content-Type"), want)
		}
	}
	for _, path := range []string{"/blog/trip/missing.png", "/blog/trip/index.md", "/blog/hello-world/photo.svg", "/blog/trip/../../../etc/passwd", "/blog/trip/%2e%2e/%2e%2e/config.toml"} {
		if resp, _ := get(t, ts, "GET", path); resp.StatusCode == 200 {
			t.Errorf("%s: 200", path)
		}
	}
}

// TestLargeBundleFile: files over the memo limit are streamed with Range
// support and validators.
func TestLargeBundleFile(t *testing.T) {
	fsys := sampleSite()
	big := bytes.Repeat([]byte("0123456789"), maxMemoResource/10+1)
	fsys["blog/trip/big.mp4"] = &fstest.MapFile{Data: big, ModTime: time.Date(2026, 2, 11, 0, 0, 0, 0, time.UTC)}
	_, ts := startSite(t, fsys)
	resp, body := get(t, ts, "GET", "/blog/trip/big.mp4")
	if resp.StatusCode != 200 || !bytes.Equal(body, big) || resp.Header.Get("Content-Type") != "video/mp4" {
		t.Fatalf("GET: %d, %d bytes, %q", resp.StatusCode, len(body), resp.Header.Get("Content-Type"))
	}
	etag := resp.Header.Get("ETag")
	if etag == "" || resp.Header.Get("Last-Modified") != "Wed, 11 Feb 2026 00:00:00 GMT" {
		t.Errorf("validators: %q %q", etag, resp.Header.Get("Last-Modified"))
	}
	part, body := get(t, ts, "GET", "/blog/trip/big.mp4", "Range", "bytes=10-19")
	if part.StatusCode != http.StatusPartialContent || string(body) != "0123456789" {
		t.Errorf("Range: %d %q", part.StatusCode, body)
	}
	if r, _ := get(t, ts, "GET", "/blog/trip/big.mp4", "If-None-Match", etag); r.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match: %d", r.StatusCode)
	}
}

// TestHealthWithoutSnapshot: a server holding no snapshot says so.
func TestHealthWithoutSnapshot(t *testing.T) {
	w := httptest.NewRecorder()
	(&Server{}).healthz(w, httptest.NewRequest("GET", "/healthz", nil), match{})
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Cache-Control") != "no-store" ||
		w.Header().Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("%d %v", w.Code, w.Header())
	}
	_, ts := startSite(t, sampleSite())
	if resp, body := get(t, ts, "GET", "/healthz"); resp.StatusCode != 200 || string(body) != "ok" {
		t.Errorf("healthz: %d %q", resp.StatusCode, body)
	}
}

// TestListsEscapeLinks: titles and URLs that would break a Markdown link
// in llms.txt and the directory Markdown are escaped. (A slug is
// sanitised as Hugo does; a front-matter url is kept as written.)
func TestListsEscapeLinks(t *testing.T) {
	fsys := sampleSite()
	fsys["blog/odd.md"] = &fstest.MapFile{Data: []byte("---\ntitle: \"[Brackets] and \\\\ back\"\nurl: \"/blog/a(b/\"\ndate: 2026-04-01T00:00:00Z\ndescription: \"two\\nlines\"\n---\n")}
	_, ts := startSite(t, fsys)
	for _, path := range []string{"/llms.txt", "/blog.md"} {
		_, body := get(t, ts, "GET", path)
		if !bytes.Contains(body, []byte(`- [\[Brackets\] and \\ back](https://example.org/blog/a%28b.md)`)) ||
			!bytes.Contains(body, []byte("two lines")) {
			t.Errorf("%s:\n%s", path, body)
		}
	}
}

// TestDevCacheControl: folio dev sends Cache-Control: no-cache on every
// answer (pages, API, redirects, OPTIONS, 304s); error answers keep
// no-store, as everywhere.
func TestDevCacheControl(t *testing.T) {
	_, ts := devSite(t, generatedSite(3))
	tests := []struct {
		method, path string
		header       []string
		status       int
		want         string
	}{
		{"GET", "/", nil, 200, "no-cache"},
		{"GET", "/blog/post-00001/", nil, 200, "no-cache"},
		{"GET", "/api/posts.json", nil, 200, "no-cache"},
		{"GET", "/blog", nil, 301, "no-cache"},
		{"GET", "/blog/post-00001", nil, 301, "no-cache"},
		{"OPTIONS", "/blog/", nil, 204, "no-cache"},
		{"OPTIONS", "/api/posts.json", nil, 204, "no-cache"},
		{"GET", "/api/posts.json", []string{"If-None-Match", "*"}, 304, "no-cache"},
		{"GET", "/nope", nil, 404, "no-store"},
		{"GET", "/api/posts/cursor/!.json", nil, 400, "no-store"},
		{"POST", "/blog/", nil, 405, "no-store"},
		{"GET", "/blog/post-00001/", []string{"Accept", "application/json"}, 406, "no-store"},
	}
	for _, tc := range tests {
		resp, _ := get(t, ts, tc.method, tc.path, tc.header...)
		if resp.StatusCode != tc.status || resp.Header.Get("Cache-Control") != tc.want {
			t.Errorf("%s %s %v: %d, Cache-Control %q; want %d, %q", tc.method, tc.path, tc.header, resp.StatusCode, resp.Header.Get("Cache-Control"), tc.status, tc.want)
		}
	}
}

// TestUncleanPaths: a path with "//", "." or ".." segments is answered as
// the clean path it names (as nginx does for the static export), not with
// ServeMux's 307; an escaped dot is a dot, an escaped slash is no separator.
func TestUncleanPaths(t *testing.T) {
	_, ts := startSite(t, generatedSite(3))
	tests := []struct {
		path, same string // same: the clean path whose answer it must equal
		status     int
	}{
		{"//blog/", "/blog/", 200},
		{"/blog//post-00001/", "/blog/post-00001/", 200},
		{"/blog/./post-00001/", "/blog/post-00001/", 200},
		{"/blog/x/../post-00001/", "/blog/post-00001/", 200},
		{"/api//posts.json", "/api/posts.json", 200},
		// A last dot segment leaves a slash (RFC 3986 section 5.2.4), as
		// nginx reads it (issue 15, finding 15): before, "/blog/x/.."
		// was "/blog", a redirect where the export answered the list.
		{"/blog/post-00001/..", "/blog/", 200},
		{"/blog/post-00001/.", "/blog/post-00001/", 200},
		{"/blog/post-00001/%2e", "/blog/post-00001/", 200},
		{"/rss.xml/.", "", 404},
		{"/blog%2fpost-00001/", "", 404},
		{"/blog/post-00001%2F", "", 404},
		{"/../rss.xml", "/rss.xml", 200},
		{"/api/posts/cursor/%2F.json", "", 400},
		{"/blog/post-00001/%2e%2e/post-00002/", "/blog/post-00002/", 200},
		{"/blog/post-00001/%2E./post-00002/", "/blog/post-00002/", 200},
		{"/blog/post-00001/%2e/", "/blog/post-00001/", 200},
		{"/%2e%2e/%2e%2e/rss.xml", "/rss.xml", 200},
	}
	for _, tc := range tests {
		resp, body := get(t, ts, "GET", tc.path)
		if resp.StatusCode != tc.status {
			t.Errorf("%s: %d, want %d", tc.path, resp.StatusCode, tc.status)
			continue
		}
		if tc.same == "" {
			continue
		}
		want, wantBody := get(t, ts, "GET", tc.same)
		if !bytes.Equal(body, wantBody) || resp.Header.Get("ETag") != want.Header.Get("ETag") || resp.Header.Get("Location") != want.Header.Get("Location") {
			t.Errorf("%s: answer differs from %s's", tc.path, tc.same)
		}
	}
}

// TestVaryOnNegotiatingURLs: every answer from a URL whose GET negotiates
// (the home page, the section page, an article, the API page) carries Vary: Accept, 405 and OPTIONS
// included; other URLs' 405 and OPTIONS do not vary.
func TestVaryOnNegotiatingURLs(t *testing.T) {
	_, ts := startSite(t, generatedSite(3))
	for _, method := range []string{"POST", "OPTIONS", "DELETE"} {
		for path, want := range map[string]bool{
			"/blog/": true, "/blog/post-00001/": true,
			"/blog/post-00001.md": false, "/blog/nope/": false, "/api/posts.json": false, "/": true, "/api/": true, "/blog.md": false, "/index.md": false,
		} {
			resp, _ := get(t, ts, method, path)
			if got := varies(resp, "Accept"); got != want {
				t.Errorf("%s %s: %d, Vary %q; want Vary: Accept %v", method, path, resp.StatusCode, resp.Header.Values("Vary"), want)
			}
		}
	}
}

// TestRedirectsCached: the section's redirect is cached as the posts' are.
func TestRedirectsCached(t *testing.T) {
	_, ts := startSite(t, generatedSite(3))
	for path, loc := range map[string]string{"/blog": "/blog/", "/blog/post-00001": "/blog/post-00001/"} {
		resp, _ := get(t, ts, "GET", path)
		if resp.StatusCode != 301 || !strings.HasSuffix(resp.Header.Get("Location"), loc) || resp.Header.Get("Cache-Control") != "public, max-age=300" {
			t.Errorf("%s: %d, Location %q, Cache-Control %q", path, resp.StatusCode, resp.Header.Get("Location"), resp.Header.Get("Cache-Control"))
		}
	}
}
