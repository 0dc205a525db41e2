package parity

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// A Suite is the end-to-end comparison that every host serving a folio
// site is held to against folio serve: the nginx export and the
// Cloudflare Worker run the same one.
//
// It asks both hosts: every exported path plainly, with each of
// Encodings and with HEAD; on every page that negotiates, each of
// AcceptHeaders and a HEAD for Markdown; each path revalidated with each
// host's own validators (and, with SameETags, with serve's ETag on both);
// the requests of Probes (unknown paths, bad cursors, traversal attempts,
// methods, OPTIONS, /healthz's conditionals); Extra; and Random random
// Accept headers spread over the negotiating pages.
type Suite struct {
	Serve, Host string // base URLs, no trailing slash
	// Paths are every URL path the export holds.
	Paths []string
	// Encodings are the Accept-Encoding values each path is asked with.
	Encodings []string
	// Diff compares serve's answer with the host's ("" when a client
	// cannot tell them apart); nil is Diff.
	Diff func(serve, host *Answer) string
	// SameETags asks both hosts with serve's validators too: the host
	// sends serve's ETag, so it must answer them with 304 as serve does.
	SameETags bool
	// Random is how many random Accept headers to send (RandomAccept).
	Random int
	// Extra are requests of the site's own (its aliases, its files).
	Extra []Request
}

// Stats count what a Run compared.
type Stats struct {
	Requests, Paths, Negotiating, Differences int
}

func (s Stats) String() string {
	return fmt.Sprintf("%d requests (%d paths, %d negotiating), %d differences", s.Requests, s.Paths, s.Negotiating, s.Differences)
}

// Run sends every request to both hosts and reports each difference as
// an error of t.
func (s Suite) Run(t testing.TB) Stats {
	t.Helper()
	diff := s.Diff
	if diff == nil {
		diff = Diff
	}
	var mu sync.Mutex
	st := Stats{Paths: len(s.Paths)}
	compare := func(r Request) (*Answer, *Answer) {
		a, err := Do(s.Serve, r)
		if err != nil {
			t.Fatalf("%s: serve: %v", r, err)
		}
		b, err := Do(s.Host, r)
		if err != nil {
			t.Fatalf("%s: host: %v", r, err)
		}
		mu.Lock()
		defer mu.Unlock()
		st.Requests++
		if d := diff(a, b); d != "" {
			st.Differences++
			t.Errorf("%s: serve vs host: %s", r, d)
		}
		return a, b
	}
	var negotiating []string
	each(s.Paths, func(path string) {
		a, _ := compare(Request{Path: path})
		for _, enc := range s.Encodings {
			compare(Request{Path: path, Header: map[string]string{"Accept-Encoding": enc}})
		}
		compare(Request{Method: http.MethodHead, Path: path})
		if !Negotiates(a.Header) {
			return
		}
		mu.Lock()
		negotiating = append(negotiating, path)
		mu.Unlock()
		for _, accept := range AcceptHeaders {
			compare(Request{Path: path, Header: map[string]string{"Accept": accept}})
		}
		compare(Request{Method: http.MethodHead, Path: path, Header: map[string]string{"Accept": "text/markdown"}})
	})
	st.Negotiating = len(negotiating)
	each(s.Paths, func(path string) { s.conditional(t, compare, path) })
	for _, r := range append(Probes, s.Extra...) {
		compare(r)
	}
	if len(negotiating) > 0 {
		random := RandomAccept(s.Random, 20)
		each(random, func(accept string) {
			i := int(hash(accept) % uint64(len(negotiating)))
			compare(Request{Path: negotiating[i], Header: map[string]string{"Accept": accept}})
		})
	}
	return st
}

// each calls f on every item from four goroutines: the hosts answer
// concurrently, as they do for real clients.
func each(items []string, f func(string)) {
	var wg sync.WaitGroup
	next := make(chan string)
	for range 4 {
		wg.Go(func() {
			for it := range next {
				f(it)
			}
		})
	}
	for _, it := range items {
		next <- it
	}
	close(next)
	wg.Wait()
}

// conditional revalidates path on each host with that host's own
// validators, with and without Accept: text/markdown: both must answer
// 304 alike. With SameETags, serve's ETag is sent to both.
func (s Suite) conditional(t testing.TB, compare func(Request) (*Answer, *Answer), path string) {
	for _, accept := range []string{"", "text/markdown"} {
		h := map[string]string{}
		if accept != "" {
			h["Accept"] = accept
		}
		a, err := Do(s.Serve, Request{Path: path, Header: h})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Do(s.Host, Request{Path: path, Header: h})
		if err != nil {
			t.Fatal(err)
		}
		for _, field := range []string{"If-None-Match", "If-Modified-Since"} {
			src := map[string]string{"If-None-Match": "Etag", "If-Modified-Since": "Last-Modified"}[field]
			if a.Header.Get(src) == "" {
				continue
			}
			ha, hb := clone(h), clone(h)
			ha[field], hb[field] = a.Header.Get(src), b.Header.Get(src)
			x, err := Do(s.Serve, Request{Path: path, Header: ha})
			if err != nil {
				t.Fatal(err)
			}
			y, err := Do(s.Host, Request{Path: path, Header: hb})
			if err != nil {
				t.Fatal(err)
			}
			if x.Status != http.StatusNotModified {
				t.Errorf("%s: serve answers %d, want 304", Request{Path: path, Header: ha}, x.Status)
			}
			diff := s.Diff
			if diff == nil {
				diff = Diff
			}
			if d := diff(x, y); d != "" {
				t.Errorf("%s (each its own validator): serve vs host: %s", Request{Path: path, Header: ha}, d)
			}
			if s.SameETags && field == "If-None-Match" {
				// The host sends serve's ETag: serve's validators hold on
				// it, strongly for If-Match, weakly for If-None-Match.
				compare(Request{Path: path, Header: ha})
				hm := clone(h)
				hm["If-Match"] = a.Header.Get(src)
				compare(Request{Path: path, Header: hm})
				hm["If-Match"] = "W/" + a.Header.Get(src)
				compare(Request{Path: path, Header: hm})
			}
		}
	}
}

func clone(m map[string]string) map[string]string {
	c := make(map[string]string, len(m)+1)
	for k, v := range m {
		c[k] = v
	}
	return c
}

// Negotiates reports whether an answer says it was chosen by Accept.
func Negotiates(h http.Header) bool {
	for _, v := range h.Values("Vary") {
		for m := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(m), "Accept") {
				return true
			}
		}
	}
	return false
}

// Probes are the requests every site answers the same way whatever it
// holds: paths that name nothing, bad cursors, traversal attempts,
// methods a read-only service refuses, preflights, and /healthz with
// every kind of validator Go's http.ParseTime reads (or refuses).
var Probes = []Request{
	// Unknown paths: the 404 page, or a problem on API paths.
	{Path: "/nope"}, {Path: "/nope/"}, {Path: "/nope.md"}, {Path: "/api/nope"}, {Path: "/x.json"},
	{Path: "/static/nope.css"}, {Path: "/404.html"}, {Path: "/index.html"}, {Path: "/healthz.json"},
	{Path: "/.well-known/nope"}, {Path: "/.well-known/"}, {Path: "/api/caf%C3%A9%22%3Cx%3E"}, {Method: "HEAD", Path: "/nope"},
	{Path: "/nope", Header: map[string]string{"Accept": "text/markdown"}}, {Path: "/api/nope", Header: map[string]string{"Accept": "text/html"}},
	{Path: "/nope", Header: map[string]string{"If-None-Match": "*"}}, {Path: "/nope", Header: map[string]string{"Range": "bytes=0-9"}},
	// Paths match with case.
	{Path: "/API/POSTS.JSON"}, {Path: "/Api/posts.json"}, {Path: "/RSS.XML"}, {Path: "/Llms.txt"}, {Path: "/HEALTHZ"},
	{Path: "/Index.md"}, {Path: "/ROBOTS.TXT"}, {Path: "/.Well-Known/api-catalog"}, {Path: "/api/posts/cursor/0.JSON"},
	// Bad cursors: malformed (400), well-formed but never issued (404
	// in an export, an allowed difference left out here).
	{Path: "/api/posts/cursor/!!.json"}, {Path: "/api/posts/cursor/.json"}, {Path: "/api/posts/cursor/bad%21cur.json"},
	{Path: "/api/posts/cursor/" + strings.Repeat("A", 129) + ".json"}, {Method: "HEAD", Path: "/api/posts/cursor/!!.json"},
	{Path: "/api/posts/cursor/a/b.json"}, {Path: "/api/posts/cursor/!!.txt"}, {Path: "/api/posts/cursor/a%2Fb.json"},
	{Path: "/api/posts/cursor/a%2f.json?x=1"}, {Path: "/api/posts/cursor/%2F.json"}, {Path: "/api/posts/cursor/%20.json"},
	{Path: "/api/posts/cursor/caf%C3%A9.json"}, {Path: "/api/posts/cursor/%FF.json"},
	// Traversal: answered as the clean path names, never a file
	// outside the site, never the export's own files.
	{Path: "/x/../rss.xml"}, {Path: "/x/%2e%2e/rss.xml"}, {Path: "/x/%2E%2E/%2e%2e/rss.xml"}, {Path: "//api//posts.json"},
	{Path: "/api/./posts.json"}, {Path: "/../../etc/passwd"}, {Path: "/%2e%2e/%2e%2e/etc/passwd"}, {Path: "/static/..%2f..%2fgo.mod"},
	{Path: "/static/%2e%2e%2f%2e%2e%2fetc/passwd"}, {Path: "/blog/..%2F..%2F..%2Fetc%2Fpasswd.md"}, {Path: "/api/..%2fopenapi.json"},
	{Path: "/api/%2e%2e/openapi.json"}, {Path: "/nope/%2E%2E/llms.txt"}, {Path: "/./robots.txt"}, {Path: "///"},
	{Path: "/worker/site.json"}, {Path: "/worker/folio.js"}, {Path: "/wrangler.jsonc"}, {Path: "/public/index.html"},
	{Path: "/index.html.gz"}, {Path: "/rss.xml.gz"}, {Path: "/api/posts.json.gz"}, {Path: "/.wrangler/state"},
	// Bytes that are not UTF-8 are U+FFFD in a problem's detail.
	{Path: "/api/%FF"}, {Path: "/x%C0%AF.json"}, {Path: "/nope/%E2%82.md"}, {Path: "/api/%ED%A0%80%F4%90%80%80%F0%9F%98%80%EF%BF%BD%E2%80%A8"},
	{Method: "HEAD", Path: "/api/%FF"},
	// Methods and preflights.
	{Method: "POST", Path: "/"}, {Method: "PUT", Path: "/api/posts.json"}, {Method: "DELETE", Path: "/nope"}, {Method: "PATCH", Path: "/api/nope"},
	{Method: "OPTIONS", Path: "/"}, {Method: "OPTIONS", Path: "/nope"}, {Method: "OPTIONS", Path: "/api/nope"}, {Method: "OPTIONS", Path: "/healthz"},
	{Method: "OPTIONS", Path: "/api/posts.json", Header: map[string]string{"Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-custom"}},
	{Method: "OPTIONS", Path: "/rss.xml", Header: map[string]string{"Origin": "https://elsewhere.example"}},
	{Method: "OPTIONS", Path: "/index.md", Header: map[string]string{"Access-Control-Request-Headers": "authorization, x-a"}},
	{Method: "POST", Path: "/healthz"}, {Method: "POST", Path: "/.well-known/api-catalog"}, {Method: "POST", Path: "/x.md"},
	// /healthz and its validators.
	{Path: "/healthz"}, {Method: "HEAD", Path: "/healthz"},
	{Path: "/healthz", Header: map[string]string{"Accept-Encoding": "gzip", "Accept": "text/markdown"}},
	{Path: "/healthz", Header: map[string]string{"If-None-Match": "*"}},
	{Path: "/healthz", Header: map[string]string{"If-None-Match": `"other"`}},
	{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "2100-01-01"}},
	{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "Fri Jan  1 00:00:00 2100"}},
	{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "Friday, 01-Jan-50 00:00:00 GMT"}},
	{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 UTC"}},
	{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "fri, 01 jan 2100 00:00:00 GMT"}},
	{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "Xyz, 01 Jan 2100 00:00:00 GMT"}},
	{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "Sun, 31 Feb 2100 00:00:00 GMT"}},
	{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "Fri Jan 1 00:00:00 2100"}},
	{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "Friday, 01-Jan-50 00:00:00 EST"}},
	{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "Fri,  01 Jan 2100 0:00:00.5 GMT"}},
	{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT"}},
	{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "Sat, 01 Jan 2000 00:00:00 GMT"}},
	// Conditionals on files serve does not stream: If-Match, Range and
	// If-Range are not for them.
	{Path: "/rss.xml", Header: map[string]string{"If-Modified-Since": "Sat, 01 Jan 2000 00:00:00 GMT"}},
	{Path: "/rss.xml", Header: map[string]string{"If-Modified-Since": "not a date"}},
	{Path: "/llms.txt", Header: map[string]string{"If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT"}},
	{Path: "/llms.txt", Header: map[string]string{"If-None-Match": `"x", W/"y"`}},
	{Path: "/api/posts.json", Header: map[string]string{"Range": "bytes=0-9"}},
	{Path: "/api/posts.json", Header: map[string]string{"If-Match": `"nope"`}},
	{Method: "HEAD", Path: "/api/posts.json", Header: map[string]string{"If-Match": `"nope"`}},
	{Path: "/", Header: map[string]string{"If-Match": "*"}}, {Path: "/", Header: map[string]string{"If-Match": `"a,b"`}},
	{Path: "/", Header: map[string]string{"If-Match": `"x"`, "Accept": "text/markdown"}},
	{Path: "/rss.xml", Header: map[string]string{"If-Unmodified-Since": "Sat, 01 Jan 2000 00:00:00 GMT"}},
	{Path: "/rss.xml", Header: map[string]string{"If-Unmodified-Since": "Fri, 01 Jan 2100 00:00:00 GMT"}},
	{Path: "/rss.xml", Header: map[string]string{"If-Unmodified-Since": "yesterday"}},
	{Path: "/llms.txt", Header: map[string]string{"If-Match": `"x"`, "If-None-Match": "*"}},
	{Path: "/llms.txt", Header: map[string]string{"If-Unmodified-Since": "Sat, 01 Jan 2000 00:00:00 GMT", "If-None-Match": "*"}},
	{Path: "/healthz", Header: map[string]string{"If-Match": `"nope"`}},
	{Path: "/nope", Header: map[string]string{"If-Match": `"nope"`}}, {Path: "/api/nope", Header: map[string]string{"If-Match": `"nope"`}},
	{Method: "POST", Path: "/", Header: map[string]string{"If-Match": `"nope"`}},
	{Path: "/", Header: map[string]string{"If-None-Match": "*", "Accept": "text/markdown"}},
	{Path: "/", Header: map[string]string{"Accept": "application/json", "If-None-Match": "*"}},
	{Method: "HEAD", Path: "/", Header: map[string]string{"Accept": "application/json"}},
}

// RandomAccept returns n Accept values made at random (with a fixed
// seed, so every run sends the same ones) from the pieces real and broken
// headers are made of: media ranges of every specificity and case, q
// values valid and not, other parameters, empty members, odd spacing.
func RandomAccept(n int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, 0x666f6c696f))
	ranges := []string{"text/html", "text/markdown", "text/*", "*/*", "application/json", "application/xhtml+xml",
		"application/xml", "image/webp", "text/plain", "TEXT/MARKDOWN", "Text/Html", "application/*", "text/x-markdown",
		"foo", "", "text/", "/html", "*/html", "text/markdown+x", "text/html ", " text/markdown"}
	qs := []string{"", "", "", ";q=0", ";q=1", ";q=0.5", ";q=0.001", ";q=1.0", ";q=0.9", ";q=0.8", ";Q=0.7",
		";q=.5", ";q=1.5", ";q=abc", ";q = 0.3", ";q=0.", ";q=1.000", ";q=0.1234", ";q=-1", ";q="}
	params := []string{"", "", "", ";level=1", ";charset=utf-8", ";variant=commonmark", ";x", ";=y"}
	spaces := []string{"", "", " ", "  ", "\t"}
	out := make([]string, n)
	for i := range out {
		members := make([]string, 1+r.IntN(6))
		for j := range members {
			p := params[r.IntN(len(params))]
			q := qs[r.IntN(len(qs))]
			if r.IntN(4) == 0 {
				p, q = q, p // parameters after q
			}
			members[j] = spaces[r.IntN(len(spaces))] + ranges[r.IntN(len(ranges))] + p + q + spaces[r.IntN(len(spaces))]
		}
		out[i] = strings.Join(members, ",")
	}
	return out
}

// hash is FNV-1a, to spread the random headers over the pages.
func hash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
