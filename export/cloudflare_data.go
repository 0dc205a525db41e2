package export

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"
)

// workerData is site.json, the Worker's table: everything it answers
// with, recorded from the server.
type workerData struct {
	// Routes holds every path that answers, by its routing path (see
	// routingKey): a file, a redirect, or /healthz.
	Routes map[string]workerRoute `json:"routes"`
	// NotFound is the 404 page, the answer of any other path that is not
	// a problem's.
	NotFound workerRoute `json:"notFound"`
	// Headers are the distinct header sets of the answers, each a list of
	// [name, value] as indexes into Names and Values (a site's pages
	// share most values); routes name a set by its index.
	Headers [][][2]int `json:"headers"`
	Names   []string   `json:"names"`
	Values  []string   `json:"values"`
	// Refusals are the server's refusal rows, in table order.
	Refusals []Refusal `json:"refusals"`
	// Malformed is the shape of the paths refused with answers.malformed
	// (Site.Malformed); Valid is a regular expression Go and JavaScript
	// read alike.
	Malformed *workerMalformed `json:"malformed"`
	// Answers are those no path has on its own, with markers for what a
	// request fills in: the same recordings the nginx script reads.
	Answers jsAnswers `json:"answers"`
}

type workerMalformed struct {
	Prefix string `json:"prefix"`
	Suffix string `json:"suffix"`
	Valid  string `json:"valid"`
}

// A workerRoute is one path's answer.
type workerRoute struct {
	// File is the body's file in public/, as an escaped URL path for the
	// assets binding ("/blog/caf%C3%A9/index.html"), and Size its length.
	File string `json:"file,omitempty"`
	Size int64  `json:"size"`
	// Body is the body when there is no file (a redirect's, /healthz's).
	Body string `json:"body,omitempty"`
	// Status is the answer's status when it is not 200.
	Status int `json:"status,omitempty"`
	// Headers is the index of the answer's header set.
	Headers int `json:"headers"`
	// CORS reports that the path's row answers errors and preflights
	// with Access-Control-Allow-Origin: *.
	CORS bool `json:"cors,omitempty"`
	// Ranges marks a file the server streams with byte ranges.
	Ranges bool `json:"ranges,omitempty"`
	// Markdown, on a page that negotiates, is the routing path of the
	// route whose file is the Markdown answer, and MarkdownHeaders that
	// answer's header set.
	Markdown        string `json:"markdown,omitempty"`
	MarkdownHeaders *int   `json:"markdownHeaders,omitempty"`
}

// workerSkipped are the headers the Worker does not replay: transport,
// the body's length (the Worker sets it from the size it sends) and its
// coding (Cloudflare compresses as the client asks).
var workerSkipped = map[string]bool{
	"Date": true, "Connection": true, "Transfer-Encoding": true, "Content-Length": true, "Content-Encoding": true,
}

// headerSets gives each distinct set of headers one index, and each
// distinct name and value one.
type headerSets struct {
	list          [][][2]int
	names, values []string
	index         map[string]int // a set, as JSON, by index
	name, value   map[string]int
}

func (s *headerSets) add(h http.Header) int {
	if s.index == nil {
		s.index, s.name, s.value = map[string]int{}, map[string]int{}, map[string]int{}
	}
	var set [][2]int
	for _, name := range slices.Sorted(maps.Keys(h)) {
		name := http.CanonicalHeaderKey(name)
		if workerSkipped[name] {
			continue
		}
		for _, v := range h[name] {
			set = append(set, [2]int{intern(&s.names, s.name, name), intern(&s.values, s.value, v)})
		}
	}
	b, _ := json.Marshal(set)
	if i, ok := s.index[string(b)]; ok {
		return i
	}
	s.index[string(b)] = len(s.list)
	s.list = append(s.list, set)
	return len(s.list) - 1
}

// intern is the index of v in list, added when new.
func intern(list *[]string, index map[string]int, v string) int {
	i, ok := index[v]
	if !ok {
		i = len(*list)
		index[v] = i
		*list = append(*list, v)
	}
	return i
}

// newWorkerData makes the Worker's table from what Write exported.
func newWorkerData(site *Site, notFound string, refusals []Refusal) (*workerData, error) {
	site.fillHeaders()
	d := &workerData{Routes: map[string]workerRoute{}, Refusals: refusals, Answers: jsAnswersOf(site.Dynamic)}
	if m := site.Malformed; m != nil {
		d.Malformed = &workerMalformed{Prefix: m.Prefix, Suffix: m.Suffix, Valid: m.Valid}
	}
	if d.Refusals == nil {
		d.Refusals = []Refusal{}
	}
	var sets headerSets
	found := false
	for _, f := range site.Files {
		if f.IsAliasPage() {
			continue // the 301 is the Worker's (site.Redirects)
		}
		file, err := assetURL(f.Name)
		if err != nil {
			return nil, err
		}
		r := workerRoute{File: file, Size: int64(f.Size), Headers: sets.add(f.Header),
			CORS: f.Header.Get("Access-Control-Allow-Origin") == "*", Ranges: f.Header.Get("Accept-Ranges") == "bytes"}
		if f.Path == notFound {
			r.Status, r.CORS = http.StatusNotFound, false
			d.NotFound, found = r, true
			continue
		}
		if f.Markdown != "" {
			if r.Markdown, err = routingKey(f.Markdown); err != nil {
				return nil, err
			}
			i := sets.add(f.MarkdownHeader)
			r.MarkdownHeaders = &i
		}
		if err := d.addRoute(f.Path, r); err != nil {
			return nil, err
		}
	}
	if !found {
		return nil, fmt.Errorf("export: cloudflare: the 404 page %q is not among the exported files", notFound)
	}
	// A static folder's index.html answers at its own URL too, as its
	// folder's route does.
	for _, x := range site.Indexes {
		key, err := routingKey(x.Route)
		if err != nil {
			return nil, err
		}
		if r, ok := d.Routes[key]; ok {
			if err := d.addRoute(x.Path, r); err != nil {
				return nil, err
			}
		}
	}
	for _, a := range site.Redirects {
		r := workerRoute{Status: a.Status, Body: a.Body, Headers: sets.add(a.Header)}
		if err := d.addRoute(a.Path, r); err != nil {
			return nil, err
		}
	}
	h := site.Dynamic.Health
	health := workerRoute{Body: h.Body, Size: int64(len(h.Body)), Headers: sets.add(h.Header)}
	if err := d.addRoute(HealthPath, health); err != nil {
		return nil, err
	}
	d.Headers, d.Names, d.Values = sets.list, sets.names, sets.values
	return d, nil
}

// addRoute adds r under p's routing path. Two spellings of one path (an
// alias listed escaped and not) are one route; the first answers.
func (d *workerData) addRoute(p string, r workerRoute) error {
	key, err := routingKey(p)
	if err != nil {
		return err
	}
	if _, dup := d.Routes[key]; !dup {
		d.Routes[key] = r
	}
	return nil
}

// routingKey is the path p (escaped, as the site writes it) as the
// server's rows match a request for it (server/match.go, routingPath):
// each segment percent-decoded, except that a slash or percent sign
// decoded inside a segment stays escaped, so "/blog/caf%C3%A9/" is
// "/blog/café/". The Worker computes the same of each request's path.
func routingKey(p string) (string, error) {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		u, err := url.PathUnescape(s)
		if err != nil {
			return "", fmt.Errorf("export: cloudflare: path %q: %w", p, err)
		}
		segs[i] = segmentEscaper.Replace(u)
	}
	key := strings.Join(segs, "/")
	if !utf8.ValidString(key) {
		return "", fmt.Errorf("export: cloudflare: path %q is not UTF-8, which a Worker cannot look up", p)
	}
	return key, nil
}

var segmentEscaper = strings.NewReplacer("%", "%25", "/", "%2F")

// assetURL is the escaped URL path under which the assets binding finds
// the file name of public/.
func assetURL(name string) (string, error) {
	if !utf8.ValidString(name) {
		return "", fmt.Errorf("export: cloudflare: file name %q is not UTF-8", name)
	}
	segs := strings.Split(name, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return "/" + strings.Join(segs, "/"), nil
}
