package server

import (
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"encoding/json"
	"hash/fnv"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// A rep is one prepared representation: the bytes of a response body and
// the headers that describe it, made once per snapshot and then served
// many times. Its compressed forms are made with it.
type rep struct {
	ctype    string
	body     []byte
	etag     string // strong, quoted, of body
	modified time.Time
	encoded  []encodedBody // best first: br, zstd, gzip (those made)

	cors  bool   // Access-Control-Allow-Origin: *
	vary  string // extra Vary members, e.g. "Accept" on negotiated URLs
	link  string // Link header
	cache string // Cache-Control, when not the site default
	csp   bool   // Content-Security-Policy (HTML)
}

type encodedBody struct {
	coding string // Content-Encoding value
	body   []byte
	etag   string
}

// minCompress is the size below which bodies are sent as they are.
const minCompress = 1024

// newRep prepares a representation, compressing text bodies over 1 KiB.
func newRep(ctype string, body []byte, modified time.Time) *rep {
	r := &rep{ctype: ctype, body: body, etag: etagOf(body, ""), modified: modified.UTC().Truncate(time.Second)}
	if len(body) > minCompress && compressible(ctype) {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(body)
		zw.Close()
		if buf.Len() < len(body) {
			r.encoded = append(r.encoded, encodedBody{coding: "gzip", body: buf.Bytes(), etag: etagOf(body, "gz")})
		}
	}
	return r
}

func compressible(ctype string) bool {
	return strings.HasPrefix(ctype, "text/") || strings.Contains(ctype, "json") ||
		strings.Contains(ctype, "xml") || strings.Contains(ctype, "javascript") || strings.HasPrefix(ctype, "image/svg")
}

func etagOf(body []byte, suffix string) string {
	h := fnv.New128a()
	h.Write(body)
	tag := hex.EncodeToString(h.Sum(nil))
	if suffix != "" {
		tag += "-" + suffix
	}
	return `"` + tag + `"`
}

// serve writes rep as the answer to r: the encoding the client prefers,
// 304 when its validators match, no body for HEAD.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, st *state, rp *rep) {
	h := w.Header()
	body, etag, coding := rp.body, rp.etag, ""
	if len(rp.encoded) > 0 {
		if e := pickEncoding(r.Header.Get("Accept-Encoding"), rp.encoded); e != nil {
			body, etag, coding = e.body, e.etag, e.coding
		}
	}
	s.commonHeaders(h, st, rp)
	h.Set("ETag", etag)
	if !rp.modified.IsZero() {
		h.Set("Last-Modified", rp.modified.Format(http.TimeFormat))
	}
	if notModified(r, etag, rp.modified) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", rp.ctype)
	if coding != "" {
		h.Set("Content-Encoding", coding)
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// commonHeaders sets what a representation's answers share, 304s included.
func (s *Server) commonHeaders(h http.Header, st *state, rp *rep) {
	var vary []string
	if rp.vary != "" {
		vary = append(vary, rp.vary)
	}
	if len(rp.encoded) > 0 {
		vary = append(vary, "Accept-Encoding")
	}
	if len(vary) > 0 {
		h.Set("Vary", strings.Join(vary, ", "))
	}
	if rp.cache != "" && !s.opts.Dev {
		h.Set("Cache-Control", rp.cache)
	} else {
		h.Set("Cache-Control", s.cacheControl(st))
	}
	if rp.cors {
		h.Set("Access-Control-Allow-Origin", "*")
	}
	if rp.link != "" {
		h.Set("Link", rp.link)
	}
	if rp.csp {
		h.Set("Content-Security-Policy", s.csp())
	}
}

func (s *Server) cacheControl(st *state) string {
	if s.opts.Dev {
		return "no-cache"
	}
	return "public, max-age=" + strconv.Itoa(st.snap.Config.Cache.MaxAge)
}

// csp allows only the site's own scripts, styles and images; dev adds
// nothing (the live-reload script is served from the same origin).
func (s *Server) csp() string {
	return "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'"
}

// notModified applies If-None-Match (weak comparison, RFC 9110 §13.1.2), or
// If-Modified-Since when there is no If-None-Match.
func notModified(r *http.Request, etag string, modified time.Time) bool {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		for _, t := range strings.Split(inm, ",") {
			t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
			if t == "*" || t == etag {
				return true
			}
		}
		return false
	}
	ims := r.Header.Get("If-Modified-Since")
	if ims == "" || modified.IsZero() {
		return false
	}
	t, err := http.ParseTime(ims)
	return err == nil && !modified.After(t)
}

// codingPreference breaks ties between codings the client accepts equally.
var codingPreference = map[string]int{"br": 3, "zstd": 2, "gzip": 1}

// pickEncoding returns the encoded body the client accepts with the highest
// q, ties going to br, then zstd, then gzip; nil for identity.
func pickEncoding(header string, encoded []encodedBody) *encodedBody {
	if header == "" {
		return nil
	}
	q := map[string]float64{}
	star := -1.0
	for _, member := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(member, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		v := 1.0
		for _, p := range strings.Split(params, ";") {
			k, val, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				f, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
				if err != nil || f < 0 || f > 1 {
					f = 0
				}
				v = f
			}
		}
		if name == "*" {
			star = v
		} else if name != "" {
			q[name] = v
		}
	}
	var best *encodedBody
	bestQ := 0.0
	for i := range encoded {
		e := &encoded[i]
		v, ok := q[e.coding]
		if !ok {
			v = max(star, 0)
		}
		if v > bestQ || (v == bestQ && v > 0 && best != nil && codingPreference[e.coding] > codingPreference[best.coding]) {
			best, bestQ = e, v
		}
	}
	return best
}

// problem writes an RFC 9457 problem+json answer. extra members (such as
// "acceptable" for 406) are added to the body.
func (s *Server) problem(w http.ResponseWriter, r *http.Request, status int, detail string, extra ...any) {
	body := map[string]any{
		"type":   "about:blank",
		"title":  http.StatusText(status),
		"status": status,
		"detail": detail,
	}
	for i := 0; i+1 < len(extra); i += 2 {
		body[extra[i].(string)] = extra[i+1]
	}
	b, _ := json.Marshal(body)
	h := w.Header()
	h.Set("Content-Type", "application/problem+json")
	h.Set("Cache-Control", "no-store")
	if corsPath(r.URL.Path) {
		h.Set("Access-Control-Allow-Origin", "*")
	}
	h.Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(append(b, '\n'))
	}
}

// corsPath reports the routes that carry Access-Control-Allow-Origin: the
// API, OpenAPI, feed, llms.txt, Markdown and the JS client.
func corsPath(p string) bool {
	switch p {
	case "/openapi.json", "/rss.xml", "/llms.txt", "/sdk/blog-client.js":
		return true
	}
	return strings.HasPrefix(p, "/api/") || strings.HasSuffix(p, ".md")
}

// options answers OPTIONS with the allowed methods, and CORS preflight
// headers on CORS routes.
func (s *Server) options(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Allow", "GET, HEAD")
	if corsPath(r.URL.Path) {
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Access-Control-Allow-Methods", "GET, HEAD")
		if req := r.Header.Get("Access-Control-Request-Headers"); req != "" {
			h.Set("Access-Control-Allow-Headers", req)
		}
		h.Set("Access-Control-Max-Age", "86400")
	}
	w.WriteHeader(http.StatusNoContent)
}

// internalError logs err and answers 500 without its details, which may
// name files on the server.
func (s *Server) internalError(w http.ResponseWriter, r *http.Request, err error) {
	s.log.Error("request", "path", r.URL.Path, "err", err)
	s.problem(w, r, http.StatusInternalServerError, "the server could not prepare this answer")
}
