// Package peers holds what the bare servers share: folio's answers for a
// few URLs, copied from a running folio serve at start-up (every header
// but Date, and the body, identity and gzip, and the headers of the 304
// each representation revalidates to), and the flags that choose them.
//
// The bare servers then answer those URLs with those bytes and do nothing
// else: no routing beyond one map lookup, no negotiation beyond "does
// Accept-Encoding name gzip", no access log. They are the ceiling of the
// HTTP server they run on for folio's exact answers.
package peers

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Rep is one representation of a URL as folio sends it.
type Rep struct {
	ETag string
	Body []byte
	// Header is every header of the 200 but Date, Content-Length
	// included; NotModified every header of the 304 to If-None-Match:
	// ETag. Sorted by name, values as folio sent them.
	Header, NotModified []Field
}

// Field is one header line.
type Field struct {
	Name   string
	Values []string
}

// Route is one URL: its identity and gzip representations (Gzip is Plain
// when folio sends no gzip form).
type Route struct{ Plain, Gzip *Rep }

// Pick returns the representation for a request whose Accept-Encoding
// headers are ae: the gzip one when any of them names gzip.
func (r *Route) Pick(ae []string) *Rep {
	for _, v := range ae {
		if strings.Contains(v, "gzip") {
			return r.Gzip
		}
	}
	return r.Plain
}

// Config is what the flags say: where to listen, and the routes.
type Config struct {
	Addr   string
	Routes map[string]*Route
	// HeapMB and GOGC (-heap, -gogc) give a bare server a live heap of
	// that size and that collector setting (see nethttp).
	HeapMB, GOGC int
	// HeapScanMB (-heapscan) shapes that heap as folio's: so many MB of
	// small objects with pointers, the rest pointer-free text (0: all of
	// it objects with pointers, as before).
	HeapScanMB int
	// Work (-work) is CPU time a bare server spends on each request
	// beyond answering it (nethttp: Spin): a server made that much
	// slower on purpose, to see what a request's own cost of that size
	// costs in the whole request (the client's wake-ups included).
	Work time.Duration
	// Front (-front, nethttp) serves through folio's own front end
	// (package front) instead of a bare http.Server, up to the layer it
	// names: a bare server built up to folio one layer at a time.
	Front string
}

// Flags reads -addr, -from (folio's base URL, e.g. http://127.0.0.1:8080)
// and -paths (comma-separated URL paths), and copies the answers.
func Flags() Config {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	from := flag.String("from", "", "base URL of the folio serve to copy answers from")
	paths := flag.String("paths", "/api/posts.json", "comma-separated URL paths to answer")
	heap := flag.Int("heap", 0, "MB of live objects with pointers to hold (nethttp), as folio's heap")
	heapScan := flag.Int("heapscan", 0, "of -heap, MB in small objects with pointers, the rest pointer-free text (nethttp), as folio's heap is shaped; 0: all with pointers")
	gogc := flag.Int("gogc", 0, "GOGC to set (nethttp); 0 leaves the default")
	work := flag.Duration("work", 0, "CPU time to spend on each request beyond answering it (nethttp), e.g. 300ns")
	front := flag.String("front", "", "serve through folio's front end up to this layer (nethttp): cap, coalesce, log or discard")
	flag.Parse()
	c := Config{Addr: *addr, Routes: map[string]*Route{}, HeapMB: *heap, HeapScanMB: *heapScan, GOGC: *gogc, Work: *work, Front: *front}
	for _, p := range strings.Split(*paths, ",") {
		rt, err := copyRoute(strings.TrimSuffix(*from, "/") + p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "peers:", err)
			os.Exit(2)
		}
		c.Routes[p] = rt
	}
	return c
}

var client = &http.Client{Timeout: time.Minute, Transport: &http.Transport{DisableCompression: true}}

func copyRoute(url string) (*Route, error) {
	plain, err := copyRep(url, "identity")
	if err != nil {
		return nil, err
	}
	gz, err := copyRep(url, "gzip")
	if err != nil {
		return nil, err
	}
	return &Route{Plain: plain, Gzip: gz}, nil
}

func copyRep(url, enc string) (*Rep, error) {
	res, err := get(url, enc, "")
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", url, res.Status)
	}
	r := &Rep{ETag: res.Header.Get("Etag"), Body: body, Header: fields(res.Header)}
	r.Header = append(r.Header, Field{"Content-Length", []string{strconv.Itoa(len(body))}})
	if r.ETag == "" {
		return r, nil
	}
	nm, err := get(url, enc, r.ETag)
	if err != nil {
		return nil, err
	}
	nm.Body.Close()
	if nm.StatusCode != http.StatusNotModified {
		return nil, fmt.Errorf("%s: If-None-Match %s: %s, not 304", url, r.ETag, nm.Status)
	}
	r.NotModified = fields(nm.Header)
	return r, nil
}

func get(url, enc, inm string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept-Encoding", enc)
	if inm != "" {
		req.Header.Set("If-None-Match", inm)
	}
	return client.Do(req)
}

// fields lists h but Date and Content-Length (net/http's reading of the
// response keeps the latter; the caller sets it from the body).
func fields(h http.Header) []Field {
	var fs []Field
	for k, v := range h {
		if k != "Date" && k != "Content-Length" {
			fs = append(fs, Field{k, v})
		}
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name })
	return fs
}
