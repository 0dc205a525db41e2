package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"folio/pipeline"
	"folio/site"
)

// fuzzSite has a published post, a published bundle with files, an
// alias, and unpublished posts (a draft, a draft bundle with a file, a
// scheduled post) whose every answer would show the word SECRETFUZZ.
var fuzzSite = fstest.MapFS{
	"blog/pub.md":                {Data: []byte("---\ntitle: Pub\ndate: 2024-01-01\naliases: [/old/pub/, x]\n---\nSee [draft](../draft/).\n")},
	"blog/b/index.md":            {Data: []byte("---\ntitle: Bundle\ndate: 2024-02-01\n---\n![i](i.svg)\n")},
	"blog/b/i.svg":               {Data: []byte("<svg/>")},
	"blog/b/sub/n.md":            {Data: []byte("notes")},
	"blog/draft.md":              {Data: []byte("---\ntitle: SECRETFUZZ draft\ndraft: true\ndate: 2024-03-01\naliases: [/old/draft/]\n---\nSECRETFUZZ\n")},
	"blog/db/index.md":           {Data: []byte("---\ntitle: SECRETFUZZ bundle\ndraft: true\ndate: 2024-03-02\n---\nSECRETFUZZ\n")},
	"blog/db/secretfuzz.txt":     {Data: []byte("SECRETFUZZ")},
	"blog/later.md":              {Data: []byte("---\ntitle: SECRETFUZZ later\npublishDate: 2999-01-01\ndate: 2024-01-01\n---\nSECRETFUZZ\n")},
	"private/secretfuzz.md":      {Data: []byte("---\ntitle: SECRETFUZZ private\ndraft: true\ndate: 2024-01-01\n---\nSECRETFUZZ\n")},
	"blog/.secretfuzz-hidden":    {Data: []byte("SECRETFUZZ")},
	"blog/b/.secretfuzz-dotfile": {Data: []byte("SECRETFUZZ")},
}

// FuzzResolvePath sends any path (with any query, Accept header and
// method) to the server as folio serve builds it, over a site with
// unpublished posts: the routing of /<section>/…, aliases and every other
// route must never panic, never answer 5xx, and never show an unpublished
// post or a file outside the published bundles. Seeds are in
// testdata/fuzz/FuzzResolvePath.
//
//	go test ./server -run '^$' -fuzz '^FuzzResolvePath$' -fuzztime 1m
func FuzzResolvePath(f *testing.F) {
	f.Add("/blog/pub/", "", "GET")
	cfg, err := pipeline.ParseConfig([]byte("baseURL = \"https://example.org/\"\n[api]\npageSize = 1\n"), "fuzz.toml")
	if err != nil {
		f.Fatal(err)
	}
	snap, err := pipeline.Build(fuzzSite, cfg, pipeline.Options{Root: "content"}, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil || len(snap.Posts()) != 2 {
		f.Fatalf("fuzz site: %v, %d posts", err, len(snap.Posts()))
	}
	srv, err := New(snap, Options{Site: site.FS})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, target, accept, method string) {
		r := fuzzRequest(target, accept, method)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, r)
		res := rec.Result()
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode >= 500 {
			t.Fatalf("%s %q (Accept %q): %d\n%s", r.Method, target, accept, res.StatusCode, body)
		}
		if echoes(target, method) {
			return // a 404's detail or a 405's names what was asked
		}
		var all strings.Builder
		all.Write(body)
		for k, v := range res.Header {
			all.WriteString(k + ": " + strings.Join(v, ",") + "\n")
		}
		if strings.Contains(strings.ToLower(all.String()), "secretfuzz") {
			t.Fatalf("%s %q (Accept %q): %d shows unpublished content:\n%s", r.Method, target, accept, res.StatusCode, all.String())
		}
	})
}

// echoes reports whether the request itself spells the sentinel, which
// answers may then quote back.
func echoes(target, method string) bool {
	asked := target + method
	if p, err := url.PathUnescape(target); err == nil {
		asked += p
	}
	if p, err := url.QueryUnescape(target); err == nil {
		asked += p
	}
	return strings.Contains(strings.ToLower(asked), "secretfuzz")
}

// fuzzRequest makes a request for target as the server would receive it
// from the wire: parsed as a request URI when it is one, else taken as a
// raw path (which a broken proxy could pass on).
func fuzzRequest(target, accept, method string) *http.Request {
	if !strings.HasPrefix(target, "/") {
		target = "/" + target
	}
	r := httptest.NewRequest("GET", "/", nil)
	u, err := url.ParseRequestURI(target)
	if err != nil {
		u = &url.URL{Path: target}
	}
	r.URL, r.RequestURI = u, target
	if method != "" && !strings.ContainsAny(method, " \t\r\n") {
		r.Method = method
	}
	if accept != "" {
		r.Header.Set("Accept", accept)
	}
	return r
}
