// Package parity asks two HTTP servers the same requests and reports
// every difference a client could see, for the tests that hold a static
// host (nginx serving folio build's output) to folio serve's answers.
package parity

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A Request is one request to send to both servers.
type Request struct {
	Method string // GET when empty
	Path   string
	Header map[string]string
}

func (r Request) String() string {
	var hs []string
	for k, v := range r.Header {
		hs = append(hs, k+": "+v)
	}
	slices.Sort(hs)
	m := r.Method
	if m == "" {
		m = "GET"
	}
	if len(hs) == 0 {
		return m + " " + r.Path
	}
	return m + " " + r.Path + " [" + strings.Join(hs, "; ") + "]"
}

// An Answer is what a server said.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// Transport headers differ between any two servers and are not compared.
var Transport = map[string]bool{
	"Date": true, "Server": true, "Connection": true, "Keep-Alive": true,
}

// Validators are the headers CONTRACT lets differ in value; whether they
// are present is still compared.
var Validators = map[string]bool{"Etag": true, "Last-Modified": true}

// Client asks without adding anything: no automatic gzip, no redirects.
var Client = &http.Client{
	Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 16},
	CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	},
	Timeout: 30 * time.Second,
}

// Do sends r to base ("http://127.0.0.1:8080").
func Do(base string, r Request) (*Answer, error) {
	method := r.Method
	if method == "" {
		method = http.MethodGet
	}
	req, err := http.NewRequest(method, base+r.Path, nil)
	if err != nil {
		// A path Go's URL parser refuses (a bad escape) is sent as
		// written, for the host to refuse.
		if req, err = http.NewRequest(method, base+"/", nil); err != nil {
			return nil, err
		}
		req.URL.Opaque = r.Path
	}
	for k, v := range r.Header {
		req.Header.Set(k, v)
	}
	resp, err := Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	return &Answer{Status: resp.StatusCode, Header: resp.Header, Body: body}, nil
}

// Diff describes how b's answer differs from a's, "" when a client could
// not tell them apart (beyond Transport and Validators' values).
func Diff(a, b *Answer) string {
	var out []string
	if a.Status != b.Status {
		out = append(out, fmt.Sprintf("status %d ≠ %d", a.Status, b.Status))
	}
	if !bytes.Equal(a.Body, b.Body) {
		out = append(out, fmt.Sprintf("body %d bytes %.80q ≠ %d bytes %.80q", len(a.Body), a.Body, len(b.Body), b.Body))
	}
	names := map[string]bool{}
	for k := range a.Header {
		names[k] = true
	}
	for k := range b.Header {
		names[k] = true
	}
	for _, k := range slices.Sorted(maps.Keys(names)) {
		va, vb := strings.Join(a.Header.Values(k), ", "), strings.Join(b.Header.Values(k), ", ")
		switch {
		case Transport[k]:
		case Validators[k] && (va == "") == (vb == ""):
		case k == "Last-Modified" && a.Status == http.StatusNotModified && b.Status == a.Status:
			// RFC 9110 §15.4.5 requires ETag on a 304, not Last-Modified;
			// Go's ServeContent (bundle files too large to keep in memory)
			// leaves it out when there is an ETag, nginx keeps it.
		case k == "Vary" && sameList(va, vb):
		case va != vb:
			out = append(out, fmt.Sprintf("%s: %q ≠ %q", k, va, vb))
		}
	}
	return strings.Join(out, "; ")
}

// EdgeDiff is Diff for a host that compresses as each client asks, as
// Cloudflare does in front of a Worker: a gzip body is compared decoded,
// and the coding (with the length it changes, and the "-gz" serve's ETag
// carries on its gzip form) may differ. The ETag must otherwise be
// serve's own (W/, which Cloudflare adds when it compresses, is the same
// tag weakly); Last-Modified may differ in value. Headers Cloudflare's
// network adds (Edge) are not compared.
func EdgeDiff(a, b *Answer) string {
	var out []string
	a, codedA := decoded(a)
	b, codedB := decoded(b)
	if codedA || codedB || devChunked(a, b) {
		a.Header.Del("Content-Length")
		b.Header.Del("Content-Length")
	}
	ta, tb := strings.TrimSuffix(a.Header.Get("Etag"), `-gz"`), strings.TrimPrefix(b.Header.Get("Etag"), "W/")
	if a.Header.Get("Etag") != ta {
		ta += `"`
	}
	if ta != tb {
		out = append(out, fmt.Sprintf("ETag: %q ≠ %q", a.Header.Get("Etag"), b.Header.Get("Etag")))
	}
	if d := Diff(a, b); d != "" {
		out = append(out, d)
	}
	return strings.Join(out, "; ")
}

// devChunked reports that b is an HTML answer of wrangler dev, whose
// proxy passes every HTML answer through an HTMLRewriter (its live-reload
// hook, even when off) and sends it chunked, where the Worker said, and
// Cloudflare sends, the Content-Length that a has. The bodies are still
// compared byte for byte.
func devChunked(a, b *Answer) bool {
	return b.Header.Get("Content-Length") == "" && strings.HasPrefix(b.Header.Get("Content-Type"), "text/html") &&
		a.Header.Get("Content-Length") == strconv.Itoa(len(a.Body)) && len(b.Body) == len(a.Body)
}

// Edge are the headers Cloudflare's network adds to a Worker's answers.
var Edge = map[string]bool{"Cf-Ray": true, "Cf-Cache-Status": true, "Alt-Svc": true, "Nel": true, "Report-To": true, "Server-Timing": true}

// decoded is a copy of an answer without the headers Cloudflare adds,
// and with its gzip body decoded and no Content-Encoding; coded reports
// that it had one.
func decoded(a *Answer) (c *Answer, coded bool) {
	c = &Answer{Status: a.Status, Header: a.Header.Clone(), Body: a.Body}
	for k := range Edge {
		c.Header.Del(k)
	}
	switch c.Header.Get("Content-Encoding") {
	case "":
		return c, false
	case "gzip":
		if zr, err := gzip.NewReader(bytes.NewReader(a.Body)); err == nil {
			if body, err := io.ReadAll(zr); err == nil {
				c.Body = body
			}
		}
	}
	c.Header.Del("Content-Encoding")
	return c, true
}

// sameList compares comma-separated lists as sets of case-insensitive
// members (RFC 9110 §5.3: order and line breaks of a list carry nothing).
func sameList(a, b string) bool {
	norm := func(s string) []string {
		var out []string
		for m := range strings.SplitSeq(s, ",") {
			if m = strings.ToLower(strings.TrimSpace(m)); m != "" {
				out = append(out, m)
			}
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	return slices.Equal(norm(a), norm(b))
}

// Browsers' and agents' Accept headers: the list of the site issue, with
// case, spacing, parameters, malformed members and q=0 exclusions.
var AcceptHeaders = []string{
	// Chrome, Firefox, Safari
	"text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7",
	"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
	"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
	"*/*", // curl
	"",    // none
	"text/markdown",
	"text/markdown, text/html, */*",
	"text/markdown, text/plain;q=0.9, */*;q=0.8",
	"text/html;q=0.9, text/markdown",
	"text/*",
	"text/html;q=0, */*",
	"application/json",
	"TEXT/Markdown ; Q=1",
	"  text/markdown ;q=0.5 , text/html;q=0.4 ",
	"text/markdown;charset=utf-8",
	"text/markdown;q=abc, text/html",
	"text/markdown;q=1.5, text/html;q=0.5",
	"text/markdown;q=0, text/html",
	"text/markdown;q=0, text/html;q=0",
	"text/html;q=0, text/markdown;q=0, */*",
	"garbage, , ;;",
	"text/markdown;q=0.001, text/html;q=0.001",
	"text/markdown;q=0., text/html",
	"text/markdown;q=1., text/html;q=1.000",
	"text/markdown;q=.5, text/html;q=0.4",
	"text/markdown;q=0.5000, text/html;q=0.4",
	"text/markdown;level=1;q=0.8, text/html;q=0.8",
	"text/markdown;q=0.8;q=0.2, text/html;q=0.5",
	"*/*;q=0.5, text/markdown;q=0.5",
	"text/*;q=0.9, text/html;q=0.1",
	"text/markdown	;	q=0.9, text/html;q=0.8",
	"text/plain, application/xhtml+xml",
}
