package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"folio/pipeline"
)

// TestRouteAnswers pins what every kind of path answers, in serve and in
// dev, as one line each in testdata/golden/routes-serve.txt and
// routes-dev.txt: status, the headers that say how a route is answered
// (type, caching, CORS, Vary, Link, Location, Allow), whether there is a
// body, and a problem's body whole. It is the route table's behaviour seen from outside: the paths
// include every route, each redirect, unknown paths of every error
// shape, escaped and dot segments, and the methods and Accept headers
// that change an answer. go test ./server -run RouteAnswers -update
// rewrites the files after an intended change (review the diff).
func TestRouteAnswers(t *testing.T) {
	fsys := sampleSite()
	fsys["blog/moved.md"] = &fstest.MapFile{Data: []byte("---\ntitle: Moved\ndate: 2026-01-05T00:00:00Z\naliases: [/old/moved/, legacy.html, /blog/gone/, /rss.xml]\n---\nMoved.\n")}
	for _, mode := range []struct {
		name string
		dev  bool
	}{{"serve", false}, {"dev", true}} {
		t.Run(mode.name, func(t *testing.T) {
			srv := newServer(t, build(t, fsys, pipeline.Options{}), mode.dev)
			var b strings.Builder
			for _, rq := range routeRequests {
				fmt.Fprintf(&b, "%s\n", answerLine(srv, rq))
			}
			golden(t, "routes-"+mode.name+".txt", []byte(b.String()))
		})
	}
}

// A routeRequest is a method, a request target as sent and header pairs.
type routeRequest struct {
	method, target string
	header         []string
}

var routeRequests = func() []routeRequest {
	var out []routeRequest
	get := func(targets ...string) {
		for _, t := range targets {
			out = append(out, routeRequest{method: "GET", target: t})
		}
	}
	get("/", "/index.html", "/blog/", "/blog", "/blog.md", "/blog/index.html",
		"/blog/hello-world/", "/blog/hello-world", "/blog/hello-world.md", "/blog/hello-world.md/",
		"/blog/hello-world/x", "/blog/hello-world/x/y", "/blog/trip/", "/blog/trip.md",
		"/blog/trip/photo.svg", "/blog/trip/data.bin", "/blog/trip/nope.png", "/blog/trip/photo.svg/",
		"/blog/draft/", "/blog/draft.md", "/blog/future/", "/blog/nope/", "/blog/nope", "/blog/nope.md",
		"/blog/a%2Fb/", "/blog/trip%2Fphoto.svg", "/blog/hello-world%2F", "/%62log/", "/blog/hello%2Dworld/",
		"/blog//hello-world/", "/blog/./hello-world/", "/blog/../blog/", "/blog/%2e%2e/rss.xml",
		"/old/moved/", "/old/moved", "/blog/legacy.html", "/blog/legacy.html/", "/legacy.html", "/blog/gone/", "/blog/gone", "/blog/moved/",
		"/api/posts.json", "/api/posts/cursor/0.json", "/api/posts/cursor/0", "/api/posts/cursor/!.json",
		"/api/posts/cursor/a%2Fb.json", "/api/posts/cursor/zzzzzz.json", "/api/posts/cursor/0.json/",
		"/api/posts/cursor", "/api/posts/cursor/", "/api/nope", "/api", "/api/", "/api/post%73.json",
		"/openapi.json", "/rss.xml", "/llms.txt", "/sitemap.xml", "/healthz", "/healthz/",
		"/sdk/blog-client.js", "/sdk/", "/sdk", "/sdk/nope.js",
		"/static/style.css", "/static/syntax.css", "/static/", "/static", "/static/nope.css", "/static/a/../style.css",
		"/_folio/live.js", "/_folio/nope", "/404.html", "/x.json", "/x.md", "/nope", "/nope/", "/robots.txt")
	for _, t := range []string{"/blog/", "/blog/hello-world/", "/blog.md", "/blog/hello-world.md", "/", "/api/posts.json"} {
		for _, accept := range []string{"text/markdown", "text/plain", "text/html;q=0.5, text/markdown;q=0.5"} {
			out = append(out, routeRequest{method: "GET", target: t, header: []string{"Accept", accept}})
		}
	}
	for _, t := range []string{"/", "/blog/", "/blog/hello-world/", "/blog/hello-world.md", "/blog/nope.md",
		"/api/posts.json", "/api/nope", "/openapi.json", "/rss.xml", "/llms.txt", "/sitemap.xml", "/sdk/blog-client.js",
		"/static/style.css", "/healthz", "/nope", "/x.json", "/_folio/live.js", "/_folio/events"} {
		out = append(out,
			routeRequest{method: "HEAD", target: t},
			routeRequest{method: "OPTIONS", target: t, header: []string{"Origin", "https://other.example", "Access-Control-Request-Headers", "X-Test"}},
			routeRequest{method: "POST", target: t})
	}
	out = append(out,
		routeRequest{method: "GET", target: "/blog/hello-world/", header: []string{"Accept-Encoding", "gzip"}},
		routeRequest{method: "GET", target: "/api/posts.json", header: []string{"Accept-Encoding", "gzip"}},
		routeRequest{method: "GET", target: "/nope", header: []string{"Accept-Encoding", "gzip"}},
		routeRequest{method: "GET", target: "/api/posts.json", header: []string{"Origin", "https://other.example"}},
		routeRequest{method: "GET", target: "/blog/hello-world.md", header: []string{"Sec-Fetch-Site", "cross-site"}},
		routeRequest{method: "PUT", target: "/blog/trip/photo.svg"},
		routeRequest{method: "OPTIONS", target: "*"},
	)
	return out
}()

// answerLine asks srv and describes the answer in one line.
func answerLine(srv *Server, rq routeRequest) string {
	r := httptest.NewRequest(rq.method, "http://localhost"+rq.target, nil)
	if rq.target == "*" {
		r = httptest.NewRequest(rq.method, "*", nil)
		r.Host = "localhost"
	}
	for i := 0; i+1 < len(rq.header); i += 2 {
		r.Header.Set(rq.header[i], rq.header[i+1])
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, r)
	res := rec.Result()
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", rq.method, rq.target)
	for i := 0; i+1 < len(rq.header); i += 2 {
		fmt.Fprintf(&b, " [%s: %s]", rq.header[i], rq.header[i+1])
	}
	fmt.Fprintf(&b, " -> %d", res.StatusCode)
	for _, h := range []string{"Content-Type", "Content-Encoding", "Cache-Control", "Access-Control-Allow-Origin",
		"Access-Control-Allow-Methods", "Access-Control-Allow-Headers", "Vary", "Location", "Allow", "Link",
		"Content-Signal", "X-Markdown-Tokens", "Content-Security-Policy", "X-Content-Type-Options"} {
		if v := res.Header.Values(h); len(v) > 0 {
			fmt.Fprintf(&b, " | %s: %s", h, strings.Join(v, ", "))
		}
	}
	if len(res.Header.Values("Etag")) > 0 {
		b.WriteString(" | etag")
	}
	if len(res.Header.Values("Last-Modified")) > 0 {
		b.WriteString(" | last-modified")
	}
	// Bodies are other tests' business (golden_test.go, pages_test.go);
	// here only whether there is one, and the problem details below.
	if rec.Body.Len() > 0 {
		b.WriteString(" | body")
	}
	if res.StatusCode >= 300 && res.StatusCode != http.StatusNotModified && strings.Contains(res.Header.Get("Content-Type"), "json") {
		fmt.Fprintf(&b, " | %s", strings.TrimSpace(rec.Body.String()))
	}
	return b.String()
}
