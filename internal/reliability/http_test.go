package reliability

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// An answer is one response, its body decoded from its Content-Encoding.
type answer struct {
	status int
	header http.Header
	body   []byte // as sent
	plain  []byte // decoded
}

// A variant is one way of asking for a URL.
type variant struct {
	name   string
	method string
	header http.Header
}

// variants are the ways every crawled URL is asked for: as a browser, as
// an agent that wants Markdown, with compression, and HEAD and OPTIONS.
var variants = []variant{
	{"plain", "GET", nil},
	{"markdown", "GET", http.Header{"Accept": {"text/markdown"}}},
	{"gzip", "GET", http.Header{"Accept-Encoding": {"gzip"}}},
	{"head", "HEAD", nil},
	{"options", "OPTIONS", nil},
}

// request makes a server-side request for target exactly as written:
// httptest.NewRequest would reject or clean some of the hostile ones. The
// Host is an attacker's, never the configured base URL's host.
func request(method, target string, header http.Header) *http.Request {
	u, err := url.ParseRequestURI(target)
	if err != nil {
		u = &url.URL{Path: target}
	}
	r := httptest.NewRequest(method, "/", nil)
	r.URL, r.RequestURI, r.Host = u, target, "attacker.test"
	for k, v := range header {
		r.Header[k] = slices.Clone(v)
	}
	return r
}

// ask answers one request with h.
func ask(t testing.TB, h http.Handler, method, target string, header http.Header) answer {
	t.Helper()
	return askWith(t, h, request(method, target, header))
}

// askWith answers a prepared request with h.
func askWith(t testing.TB, h http.Handler, r *http.Request) answer {
	t.Helper()
	method, target := r.Method, r.RequestURI
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	res := rec.Result()
	body, _ := io.ReadAll(res.Body)
	a := answer{status: res.StatusCode, header: res.Header, body: body, plain: body}
	if res.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatalf("%s %s: gzip body: %v", method, target, err)
		}
		if a.plain, err = io.ReadAll(zr); err != nil {
			t.Fatalf("%s %s: gzip body: %v", method, target, err)
		}
	}
	return a
}

// text is everything of a an observer sees: status line, headers, body.
func (a answer) text() []byte {
	var b bytes.Buffer
	b.WriteString(http.StatusText(a.status) + "\n")
	a.header.Write(&b)
	b.Write(a.plain)
	return b.Bytes()
}

// sameAnswer reports how two answers differ, "" when they do not: status,
// every header, and the body.
func sameAnswer(a, b answer) string {
	if a.status != b.status {
		return "status " + http.StatusText(a.status) + " vs " + http.StatusText(b.status)
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range a.header {
			yield(k)
		}
		for k := range b.header {
			if _, ok := a.header[k]; !ok {
				yield(k)
			}
		}
	})
	for _, k := range keys {
		if !slices.Equal(a.header[k], b.header[k]) {
			return "header " + k + ": " + strings.Join(a.header[k], ",") + " vs " + strings.Join(b.header[k], ",")
		}
	}
	if !bytes.Equal(a.body, b.body) {
		return "body:\n" + clip(a.plain) + "\nvs\n" + clip(b.plain)
	}
	return ""
}

func clip(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}
