package export

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
)

// An Answer is one recorded answer of the server that is not a file: a
// redirect, or an answer a static host makes at request time.
type Answer struct {
	Path   string
	Status int
	Header http.Header
	Body   string
}

// Dynamic holds the answers whose bodies or headers depend on the request,
// recorded from the server with probe requests: problem+json 404s, 405,
// 406 and OPTIONS. (The 404 page is a file, Options.NotFound.) Where the
// server's answer differs between CORS routes, pages that negotiate and
// the others, each is recorded. In the bodies and headers the probe's
// path, method and requested headers are replaced by the markers below,
// for the static host to fill in.
type Dynamic struct {
	// Health is the answer to GET /healthz, which has no file: a static
	// host is healthy whenever it answers, so it says what serve says.
	Health           Answer
	Problem404       Pair
	Method405        Pair
	Options          Pair
	NotAcceptable406 *Answer // nil when no page negotiates
	Malformed        *Answer // the 400 of Options.Malformed, when set
	// Precondition412 is the problem a file's answer becomes when the
	// request's If-Match or If-Unmodified-Since fails: its body, and the
	// headers that differ from the file's own (the rest are the file's).
	// nil when the server answered the probe with the file (or no file
	// was exported).
	Precondition412 *Answer
}

// A Pair is an answer on a CORS route and on any other path, and, for
// 405 and OPTIONS when a page negotiates, the answer on such a page: the
// server says Vary: Accept there, since every answer of a URL whose GET
// negotiates carries it.
type Pair struct {
	CORS, Plain Answer
	Negotiating *Answer
}

// HealthPath is the liveness route a static host answers itself.
const HealthPath = "/healthz"

// Markers stand for what a request fills in.
const (
	MarkPath    = "@@FOLIO_PATH@@"
	MarkMethod  = "@@FOLIO_METHOD@@"
	MarkHeaders = "@@FOLIO_REQUEST_HEADERS@@"
)

// The probes: paths no route claims, on either side of the CORS rule, and
// a method nothing allows.
const (
	probeCORS    = "/api/folio-probe"
	probePlain   = "/folio-probe"
	probeAPI     = "/folio-probe.json" // an API path (problem+json) off the CORS routes
	probeMethod  = "FOLIOPROBE"
	probeHeaders = "x-folio-probe"
)

// redirects records the answers of the paths that answer 301; the others
// are answered by a route of their own (or are 404) and are left out.
func redirects(h http.Handler, paths []string) []Answer {
	out := make([]Answer, 0, len(paths))
	seen := map[string]bool{}
	for _, p := range paths {
		if seen[p] {
			continue
		}
		seen[p] = true
		rec := get(h, p, "")
		if rec.Code == http.StatusMovedPermanently && rec.Header().Get("Location") != "" {
			out = append(out, Answer{Path: p, Status: rec.Code, Header: rec.Header(), Body: rec.Body.String()})
		}
	}
	return out
}

// indexes pairs each of paths (Options.Indexes: "/x/index.html") with
// the exported route at its folder's URL ("/x/"), once h answers it as
// that route: the same status, body and headers (but Date, and
// Last-Modified, which the export keeps from the file's previous build).
// A static host answers it with the route's file.
func indexes(h http.Handler, files []File, paths []string) ([]Index, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	byPath := make(map[string]*File, len(files))
	for i := range files {
		byPath[files[i].Path] = &files[i]
	}
	out := make([]Index, 0, len(paths))
	for _, p := range paths {
		route, ok := strings.CutSuffix(p, "index.html")
		f := byPath[route]
		if !ok || !strings.HasSuffix(route, "/") || f == nil || f.IsAliasPage() {
			return nil, fmt.Errorf("export: %s is not the index.html of an exported folder", p)
		}
		rec := get(h, p, "")
		plain, _ := f.headers()
		if rec.Code != f.Status || sha256.Sum256(rec.Body.Bytes()) != f.sum || !sameHeaders(rec.Header(), plain) {
			return nil, fmt.Errorf("export: %s answers otherwise than %s, whose file it is (%d)", p, route, rec.Code)
		}
		out = append(out, Index{Path: p, Route: route})
	}
	return out, nil
}

// sameHeaders reports whether a and b are equal but for Date and
// Last-Modified.
func sameHeaders(a, b http.Header) bool {
	a, b = a.Clone(), b.Clone()
	for _, h := range []http.Header{a, b} {
		h.Del("Date")
		h.Del("Last-Modified")
	}
	return maps.EqualFunc(a, b, slices.Equal)
}

// record asks h the probe requests.
func record(h http.Handler, files []File, malformed *Malformed) (Dynamic, error) {
	var d Dynamic
	var err error
	probe := func(status int, method, path, mark, value string, header ...string) Answer {
		rec := ask(h, method, path, header...)
		a := Answer{Path: path, Status: rec.Code, Header: rec.Header().Clone(), Body: rec.Body.String()}
		if rec.Code != status && err == nil {
			err = fmt.Errorf("export: probe %s %s answered %d, want %d", method, path, rec.Code, status)
		}
		if mark != "" {
			a.Body = strings.ReplaceAll(a.Body, value, mark)
			for k, vs := range a.Header {
				for i, v := range vs {
					vs[i] = strings.ReplaceAll(v, value, mark)
				}
				a.Header[k] = vs
			}
		}
		return a
	}
	d.Health = probe(http.StatusOK, http.MethodGet, HealthPath, "", "")
	if malformed != nil {
		a := probe(http.StatusBadRequest, http.MethodGet, malformed.Probe, "", "")
		d.Malformed = &a
	}
	d.Problem404 = Pair{
		CORS:  probe(http.StatusNotFound, http.MethodGet, probeCORS, MarkPath, probeCORS),
		Plain: probe(http.StatusNotFound, http.MethodGet, probeAPI, MarkPath, probeAPI),
	}
	d.Method405 = Pair{
		CORS:  probe(http.StatusMethodNotAllowed, probeMethod, probeCORS, MarkMethod, probeMethod),
		Plain: probe(http.StatusMethodNotAllowed, probeMethod, probePlain, MarkMethod, probeMethod),
	}
	d.Options = Pair{
		CORS:  probe(http.StatusNoContent, http.MethodOptions, probeCORS, MarkHeaders, probeHeaders, "Access-Control-Request-Headers", probeHeaders),
		Plain: probe(http.StatusNoContent, http.MethodOptions, probePlain, MarkHeaders, probeHeaders, "Access-Control-Request-Headers", probeHeaders),
	}
	for i := range files {
		f := &files[i]
		if f.Status != http.StatusOK {
			continue
		}
		f.fillHeaders()
		// A handler that does not honour If-Match answers 200: then
		// neither does the static host.
		if rec := ask(h, http.MethodGet, f.Path, "If-Match", `"folio-probe"`); rec.Code == http.StatusPreconditionFailed {
			d.Precondition412 = &Answer{Path: f.Path, Status: rec.Code, Header: changed(f.Header, rec.Header()), Body: rec.Body.String()}
		}
		break
	}
	// One page that negotiates answers for all. Its path is marked in the
	// answers, so it must not occur in them by accident: the longest
	// (never "/", whose every slash would be marked).
	var neg *File
	for i := range files {
		if f := &files[i]; f.Markdown != "" && (neg == nil || len(f.Path) > len(neg.Path)) {
			neg = f
		}
	}
	if neg != nil {
		a := probe(http.StatusNotAcceptable, http.MethodGet, neg.Path, MarkPath, neg.Path, "Accept", "application/json")
		m := probe(http.StatusMethodNotAllowed, probeMethod, neg.Path, MarkMethod, probeMethod)
		o := probe(http.StatusNoContent, http.MethodOptions, neg.Path, MarkHeaders, probeHeaders, "Access-Control-Request-Headers", probeHeaders)
		d.NotAcceptable406, d.Method405.Negotiating, d.Options.Negotiating = &a, &m, &o
	}
	return d, err
}

// changed is the headers of after that before does not have with the
// same values, but the body's length.
func changed(before, after http.Header) http.Header {
	out := http.Header{}
	for k, vs := range after {
		if k != "Content-Length" && !slices.Equal(before[k], vs) {
			out[k] = vs
		}
	}
	return out
}
