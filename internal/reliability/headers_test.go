package reliability

import (
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestHostHeaderNeverInURLs crawls the public site, then asks every URL
// again with other Host, X-Forwarded-Host, X-Forwarded-Proto and
// Forwarded headers: every answer is the same, and no URL in any answer
// names a host the request made up.
func TestHostHeaderNeverInURLs(t *testing.T) {
	srv := newServer(t, mapFS(publicOnly()), time.Now())
	c := crawlSite(t, srv, "/old/hello/")
	spoof := http.Header{
		"X-Forwarded-Host":  {"fwd.evil"},
		"X-Forwarded-Proto": {"http"},
		"X-Forwarded-For":   {"10.0.0.1"},
		"Forwarded":         {"host=fwd2.evil;proto=http"},
	}
	evil := regexp.MustCompile(`(?i)attacker\.test|evil\.example|fwd2?\.evil`)
	n := 0
	for _, p := range c.order {
		for _, v := range variants {
			h := spoof.Clone()
			for k, vs := range v.header {
				h[k] = vs
			}
			r := request(v.method, p, h)
			r.Host = "evil.example:8443"
			a := askWith(t, srv, r)
			n++
			if m := evil.Find(a.text()); m != nil {
				t.Errorf("%s %s (%s) names the request's host %q:\n%s", v.method, p, v.name, m, clip(a.text()))
			}
			if diff := sameAnswer(c.answers[p][v.name], a); diff != "" {
				t.Errorf("%s %s (%s): another Host changes the answer: %s", v.method, p, v.name, diff)
			}
		}
	}
	t.Logf("%d requests with spoofed Host and forwarding headers", n)
}

// TestHostHeaderOverTCP sends spoofed Host headers and an absolute-form
// request line to the binary: redirects and pages name the base URL only.
func TestHostHeaderOverTCP(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the folio binary")
	}
	p := startServe(t, hostileDir(t))
	rc := dialRaw(t, p.Addr())
	for _, target := range []string{"/blog", "/blog/hello", "/old/hello/", "/blog/hello/", "/blog/hello.md", "/rss.xml", "/", "http://evil.example/blog", "http://evil.example/old/hello/"} {
		a := rc.do(t, "GET", target, "X-Forwarded-Host: fwd.evil", "Forwarded: host=fwd2.evil")
		if regexp.MustCompile(`attacker\.test|evil\.example|fwd2?\.evil`).Match(a.text()) {
			t.Errorf("GET %s: the answer names the request's host:\n%s", target, clip(a.text()))
		}
		if loc := a.header.Get("Location"); a.status == 301 && !strings.HasPrefix(loc, base) {
			t.Errorf("GET %s: redirect to %q, not under %s", target, loc, base)
		}
	}
}

// TestMethodsOtherThanGet: every crawled URL and unknown paths answer any
// other method with 405, Allow: GET, HEAD and a problem body that is not
// cached, OPTIONS with 204 and Allow.
func TestMethodsOtherThanGet(t *testing.T) {
	srv := newServer(t, mapFS(leakSite), time.Now())
	c := crawlSite(t, srv, "/no/such/path", "/blog/draft-secret-qx1/", "/api/posts/cursor/%%%.json")
	methods := []string{"POST", "PUT", "DELETE", "PATCH", "TRACE", "CONNECT", "PROPFIND", "MKCOL", "FOO", "get"}
	n := 0
	for _, p := range c.order {
		for _, m := range methods {
			a := ask(t, srv, m, p, http.Header{"Content-Type": {"application/json"}})
			n++
			if a.status != 405 || a.header.Get("Allow") != "GET, HEAD" ||
				a.header.Get("Content-Type") != "application/problem+json" || a.header.Get("Cache-Control") != "no-store" {
				t.Errorf("%s %s: %d, Allow %q, Content-Type %q, Cache-Control %q", m, p, a.status,
					a.header.Get("Allow"), a.header.Get("Content-Type"), a.header.Get("Cache-Control"))
			}
		}
		if a := c.answers[p]["options"]; a.status != 204 || a.header.Get("Allow") != "GET, HEAD" {
			t.Errorf("OPTIONS %s: %d, Allow %q", p, a.status, a.header.Get("Allow"))
		}
	}
	t.Logf("%d requests with %d methods on %d URLs", n, len(methods), len(c.order))
}

// TestMethodsOverTCP: the same, byte for byte to the binary, with a body.
func TestMethodsOverTCP(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the folio binary")
	}
	p := startServe(t, hostileDir(t))
	rc := dialRaw(t, p.Addr())
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH", "TRACE", "CONNECT", "FOO"} {
		for _, target := range []string{"/", "/blog/hello/", "/api/posts.json", "/blog/pub-bundle/photo.svg", "/nothing"} {
			a := rc.do(t, m, target, "Content-Length: 0")
			if a.status != 405 || a.header.Get("Allow") != "GET, HEAD" {
				t.Errorf("%s %s over TCP: %d, Allow %q", m, target, a.status, a.header.Get("Allow"))
			}
		}
	}
	// OPTIONS * is folio's too, not net/http's bare 200.
	a := rc.do(t, "OPTIONS", "*")
	if a.status != 204 || a.header.Get("Allow") != "GET, HEAD" || a.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("OPTIONS * over TCP: %d %v", a.status, a.header)
	}
	// Unclean paths are answered as the clean path they name, with
	// folio's headers, not ServeMux's 307.
	for target, want := range map[string]int{"//blog/": 200, "/blog/./hello/": 200, "/x/../rss.xml": 200, "/api//nothing.json": 404} {
		if a := rc.do(t, "GET", target); a.status != want || a.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s over TCP: %d %v, want %d", target, a.status, a.header, want)
		}
	}
}

// TestLongAcceptHeader: a 10,000-member Accept header (and 100,000 and
// 1,000,000, in process) negotiates correctly, and its cost grows
// linearly: ten times the members cost ten times the work, not a
// hundred. The work is counted, not timed: the allocations and bytes
// allocated while the handler answers, which the parsing pays per member
// (a clock would measure the machine's load as well). Over TCP, a
// 10,000-member header under the 64 KiB header limit is served; a larger
// one is refused with 431 before any parsing (TestHugeHeadersOverTCP).
func TestLongAcceptHeader(t *testing.T) {
	srv := newServer(t, mapFS(publicOnly()), time.Now())
	// The members are in mixed case, which the parsing lower-cases with
	// an allocation each: that is what is counted (a lower-case member is
	// parsed without allocating at all).
	accept := func(n int, last string) string {
		return strings.Repeat("Text/X-Member;q=0.5, ", n) + last
	}
	for _, tc := range []struct {
		n          int
		last, want string
	}{
		{10_000, "text/markdown", "text/markdown"},
		{10_000, "text/html", "text/html"},
		{10_000, "application/json", "application/problem+json"},
		{100_000, "text/markdown;q=0.9, text/html;q=0.8", "text/markdown"},
		{1_000_000, "text/markdown", "text/markdown"},
	} {
		a := ask(t, srv, "GET", "/blog/hello/", http.Header{"Accept": {accept(tc.n, tc.last)}})
		if ct := a.header.Get("Content-Type"); !strings.HasPrefix(ct, tc.want) {
			t.Errorf("%d members then %q: %d %s, want %s", tc.n, tc.last, a.status, ct, tc.want)
		}
	}
	small, large := acceptWork(srv, accept(10_000, "text/markdown")), acceptWork(srv, accept(100_000, "text/markdown"))
	t.Logf("Accept with 10,000 members: %d allocations, %d bytes; 100,000: %d, %d (linear is ×10, quadratic ×100)",
		small.allocs, small.bytes, large.allocs, large.bytes)
	if small.allocs < 10_000 {
		t.Fatalf("10,000 members cost %d allocations: the count no longer measures the parsing; count something else", small.allocs)
	}
	// Linear work is a fixed cost plus a cost per member: ten times the
	// members cost at most ten times as much (11 leaves room for a few
	// allocations of the runtime's own).
	if large.allocs > 11*small.allocs || large.bytes > 11*small.bytes {
		t.Errorf("10× the Accept members cost %.0f× the allocations and %.0f× the bytes: negotiation is not linear",
			float64(large.allocs)/float64(small.allocs), float64(large.bytes)/float64(small.bytes))
	}
}

// work is what answering a request allocated.
type work struct{ allocs, bytes uint64 }

// acceptWork is the least work of three answers with this Accept header
// (the first may pay for lazily prepared answers).
func acceptWork(h http.Handler, accept string) work {
	best := work{math.MaxUint64, math.MaxUint64}
	for range 3 {
		r := request("GET", "/blog/hello/", http.Header{"Accept": {accept}})
		rec := httptest.NewRecorder()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		h.ServeHTTP(rec, r)
		runtime.ReadMemStats(&after)
		best.allocs = min(best.allocs, after.Mallocs-before.Mallocs)
		best.bytes = min(best.bytes, after.TotalAlloc-before.TotalAlloc)
	}
	return best
}

// TestHugeHeadersOverTCP sends the binary a 1 MiB header, 10,000 headers,
// and 10,000-member Accept headers under and over the limit: what is over
// the 64 KiB limit is refused with 431, what is under is served, and the
// server keeps answering.
func TestHugeHeadersOverTCP(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the folio binary")
	}
	p := startServe(t, hostileDir(t))
	rc := dialRaw(t, p.Addr())
	many := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("X-H-%d: v", i)
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		lines  []string
		status int
		ctype  string
	}{
		{"one 1 MiB header", []string{"X-Big: " + strings.Repeat("a", 1<<20)}, 431, ""},
		{"10,000 headers", many(10_000), 431, ""},
		{"2,000 headers (under the limit)", many(2_000), 200, "text/html"},
		{"10,000-member Accept under the limit", []string{"Accept: " + strings.Repeat("a/b,", 10_000) + "text/markdown"}, 200, "text/markdown"},
		{"10,000-member Accept over the limit", []string{"Accept: " + strings.Repeat("text/x-member;q=0.5, ", 10_000) + "text/markdown"}, 431, ""},
	} {
		start := time.Now()
		a := rc.do(t, "GET", "/blog/hello/", tc.lines...)
		if a.status != tc.status || !strings.HasPrefix(a.header.Get("Content-Type"), tc.ctype) {
			t.Errorf("%s: %d %s, want %d %s", tc.name, a.status, a.header.Get("Content-Type"), tc.status, tc.ctype)
		}
		t.Logf("%s: %d in %v", tc.name, a.status, time.Since(start).Round(time.Millisecond))
	}
	if a := rc.do(t, "GET", "/healthz"); a.status != 200 {
		t.Errorf("after the huge headers, /healthz answers %d", a.status)
	}
}
