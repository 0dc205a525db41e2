package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"
)

// A rep is one prepared representation: the bytes of a response body and
// the headers that describe it, made once per snapshot and then served
// many times. Its compressed forms are made with it.
type rep struct {
	ctype    string
	body     []byte
	etag     string // strong, quoted, of body
	modified time.Time
	encoded  []encodedBody // compressed forms; only gzip is made (see newRep)

	cache string // Cache-Control, when not the row's (a fingerprinted asset)
	csp   bool   // Content-Security-Policy (HTML)
	// Header values of pages and Markdown, prepared once: Link, the
	// page's Content-Signal and, on Markdown, x-markdown-tokens. nil when
	// the answer has none.
	link, signal, tokens []string

	// hdr holds the header values that depend only on the bytes, made by
	// newRep so that serving allocates nothing (a copy of a rep that
	// changes only the fields above keeps them valid).
	hdr repHeaders
	// file sends a large body with sendfile (bodyfile.go); nil for others.
	file *bodyFile
}

type encodedBody struct {
	coding string // Content-Encoding value
	body   []byte
	etag   string
	hdr    repHeaders
	file   *bodyFile
}

// repHeaders are prepared header values, shared by every answer. They are
// never modified: net/http only reads them, and Header.Add on a full
// slice copies it.
type repHeaders struct {
	ctype, etag, lastModified, length, coding []string
}

// minCompress is the size below which bodies are sent as they are.
const minCompress = 1024

// newRep prepares a representation, compressing text bodies over 1 KiB.
//
// Only gzip is made. Measured on the 10,000-post corpus, brotli at
// quality 6 is 6-10% smaller than gzip -9 (posts.json 480 KB against
// 513 KB, a cursor page 3.1 KB against 3.4 KB; measured when folio made
// gzip at level 9) at about twice the
// compression time, and worse on llms.txt; zstd at its default level is
// larger than gzip on every body. The static export is served by nginx
// with gzip_static only, and serve must answer as it does, so the few
// percent are not worth a second set of files and a non-standard nginx
// module.
func newRep(ctype string, body []byte, modified time.Time) *rep {
	tag := etagHex(body)
	// Both ETags in one string, a slice of it each: a memoized answer is
	// marked by the collector in every cycle, object by object.
	etags := `"` + tag + `""` + tag + `-gz"`
	r := &rep{ctype: ctype, body: body, etag: etags[:len(tag)+2], modified: modified.UTC().Truncate(time.Second), file: newBodyFile(len(body))}
	var lastModified string
	if !r.modified.IsZero() {
		lastModified = r.modified.Format(http.TimeFormat)
	}
	r.hdr = prepareHeaders(r.ctype, r.etag, lastModified, len(body), "")
	if len(body) > minCompress && compressible(ctype) {
		var buf bytes.Buffer
		buf.Grow(len(body)/3 + 64)
		pool := &gzipWriters
		if len(body) > largeBody {
			pool = &gzipWritersBest
		}
		zw := pool.Get().(*gzip.Writer)
		zw.Reset(&buf)
		zw.Write(body)
		zw.Close()
		pool.Put(zw)
		if buf.Len() < len(body) {
			e := encodedBody{coding: "gzip", body: buf.Bytes(), etag: etags[len(tag)+2:], file: newBodyFile(buf.Len())} // etagOf(body, "gz"), hashed once
			e.hdr = prepareHeaders(r.ctype, e.etag, lastModified, buf.Len(), e.coding)
			r.encoded = append(r.encoded, e)
		}
	}
	return r
}

// prepareHeaders makes the header values of an answer, each a slice of
// one array (one object for the collector to mark, not five), of length
// and capacity one, so that Header.Add copies rather than writes into it.
// lastModified and coding are left out when "".
func prepareHeaders(ctype, etag, lastModified string, length int, coding string) repHeaders {
	vals := [5]string{ctype, etag, strconv.Itoa(length), lastModified, coding}
	all := vals[:]
	h := repHeaders{ctype: all[0:1:1], etag: all[1:2:2], length: all[2:3:3]}
	if lastModified != "" {
		h.lastModified = all[3:4:4]
	}
	if coding != "" {
		h.coding = all[4:5:5]
	}
	return h
}

// gzipWriters are reused: a new gzip.Writer allocates and zeroes its
// tables, several times the cost of compressing a 10 KB page.
//
// The compressor is klauspost/compress. Bodies up to largeBody (pages,
// Markdown, cursor pages) are compressed at its default level (5): on the
// article pages and Markdown of the 10,000-post corpus it takes 51 µs per
// body against compress/gzip's 150 µs at level 9, for output 1.4 % larger
// (29.8 % of the input against 29.4 %), and compress/gzip at level 6 is no
// faster than at 9 on bodies this small. Compression was the largest item
// of folio build's profile, and every snapshot prepares its bodies again.
// The few large bodies (posts.json, the directory, llms.txt) are made once
// per snapshot and fetched whole by every client, and level 5 leaves
// their repetitive JSON and HTML 11 % larger than level 9 does (posts.json
// of 10,000 posts: 571 KB against 513 KB), so they get level 9.
var (
	gzipWriters     = sync.Pool{New: func() any { return newGzipWriter(gzip.DefaultCompression) }}
	gzipWritersBest = sync.Pool{New: func() any { return newGzipWriter(gzip.BestCompression) }}
)

// largeBody is the size above which bodies are compressed at the best level.
const largeBody = 64 << 10

func newGzipWriter(level int) *gzip.Writer {
	zw, _ := gzip.NewWriterLevel(nil, level)
	return zw
}

func compressible(ctype string) bool {
	return strings.HasPrefix(ctype, "text/") || strings.Contains(ctype, "json") ||
		strings.Contains(ctype, "xml") || strings.Contains(ctype, "javascript") || strings.HasPrefix(ctype, "image/svg")
}

// etagOf is a strong validator of body: the first 128 bits of its
// SHA-256, which the CPU computes several times faster than FNV-128 (the
// hash was a tenth of the cost of preparing a page's representations).
func etagOf(body []byte, suffix string) string {
	tag := etagHex(body)
	if suffix != "" {
		tag += "-" + suffix
	}
	return `"` + tag + `"`
}

// etagHex is the hex of the first 128 bits of body's SHA-256.
func etagHex(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:16])
}

// Header values every answer shares, and the canonical keys they go
// under: serve assigns to the header map directly, which skips the key
// canonicalization and the slice Header.Set would make per request.
var (
	hdrStar               = []string{"*"}
	hdrNosniff            = []string{"nosniff"}
	hdrVaryEncoding       = []string{"Accept-Encoding"}
	hdrVaryAccept         = []string{"Accept"}
	hdrVaryAcceptEncoding = []string{"Accept, Accept-Encoding"}
	hdrNoCache            = []string{"no-cache"}
	hdrNoStore            = []string{"no-store"}
	hdrCSP                = []string{contentSecurityPolicy}
	cacheControlByMaxAge  sync.Map // int → []string
)

// serve writes rep as the answer to r on m's row: the encoding the client
// prefers, 304 when its validators match, no body for HEAD. It allocates
// nothing beyond what net/http does.
//
// On a path whose answer may be kept (m.keep), it is kept as a prepared
// answer first (prepared.go): the headers commonHeaders sets, made once,
// and what validators and entityHeaders set, as here.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, m match, rp *rep) {
	if m.keep != "" {
		s.keep(m, rp)
	}
	h := w.Header()
	body, etag, hdr, file := rp.form(r)
	s.validatorHeaders(h, m, rp, hdr)
	switch conditional(r, etag, rp.modified) {
	case http.StatusPreconditionFailed:
		s.problem(w, r, m, http.StatusPreconditionFailed, "the representation does not match the request's If-Match or If-Unmodified-Since")
		return
	case http.StatusNotModified:
		w.WriteHeader(http.StatusNotModified)
		return
	}
	entityHeaders(h, hdr)
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		writeBody(w, body, file)
	}
}

// validatorHeaders sets the headers of rp's answer in the form hdr
// that a 304 sends too: the row's (commonHeaders) and the validators.
func (s *Server) validatorHeaders(h http.Header, m match, rp *rep, hdr *repHeaders) {
	s.commonHeaders(h, m, rp)
	validators(h, hdr)
}

// validators sets the form's ETag and Last-Modified.
func validators(h http.Header, hdr *repHeaders) {
	h["Etag"] = hdr.etag
	if hdr.lastModified != nil {
		h["Last-Modified"] = hdr.lastModified
	}
}

// entityHeaders sets what a 200 adds: the body's type, coding and length.
func entityHeaders(h http.Header, hdr *repHeaders) {
	h["Content-Type"] = hdr.ctype
	if hdr.coding != nil {
		h["Content-Encoding"] = hdr.coding
	}
	h["Content-Length"] = hdr.length
}

// form is rp's body in the encoding r accepts best, with the ETag, the
// prepared headers and the file (for a large body) that go with it.
func (rp *rep) form(r *http.Request) (body []byte, etag string, hdr *repHeaders, file *bodyFile) {
	if len(rp.encoded) > 0 {
		if e := pickEncoding(r.Header["Accept-Encoding"], rp.encoded); e != nil {
			return e.body, e.etag, &e.hdr, e.file
		}
	}
	return rp.body, rp.etag, &rp.hdr, rp.file
}

// commonHeaders sets what a representation's answers on m's row share,
// 304s included: the row decides Vary: Accept, caching and CORS.
func (s *Server) commonHeaders(h http.Header, m match, rp *rep) {
	switch negotiates := m.route.Negotiates; {
	case negotiates && len(rp.encoded) > 0:
		h["Vary"] = hdrVaryAcceptEncoding
	case negotiates:
		h["Vary"] = hdrVaryAccept
	case len(rp.encoded) > 0:
		h["Vary"] = hdrVaryEncoding
	}
	switch {
	case s.opts.Dev:
		h["Cache-Control"] = hdrNoCache
	case m.route.Cache == CacheNoStore:
		h["Cache-Control"] = hdrNoStore
	case rp.cache != "":
		h["Cache-Control"] = []string{rp.cache}
	default:
		h["Cache-Control"] = cacheControlHeader(m.st.snap.Config().Cache.MaxAge)
	}
	if s.corsOn(m, rp) {
		h["Access-Control-Allow-Origin"] = hdrStar
	}
	if rp.link != nil {
		h["Link"] = rp.link
	}
	if rp.signal != nil {
		h["Content-Signal"] = rp.signal
	}
	if rp.tokens != nil {
		h["X-Markdown-Tokens"] = rp.tokens
	}
	if rp.csp {
		h["Content-Security-Policy"] = hdrCSP
	}
}

// cacheControl is the Cache-Control of st's pages (and redirects).
func (s *Server) cacheControl(st *state) string {
	if s.opts.Dev {
		return "no-cache"
	}
	return cacheControlHeader(st.snap.Config().Cache.MaxAge)[0]
}

// cacheControlHeader is "public, max-age=N", made once per N.
func cacheControlHeader(maxAge int) []string {
	if v, ok := cacheControlByMaxAge.Load(maxAge); ok {
		return v.([]string)
	}
	v, _ := cacheControlByMaxAge.LoadOrStore(maxAge, []string{"public, max-age=" + strconv.Itoa(maxAge)})
	return v.([]string)
}

// contentSecurityPolicy allows only the site's own scripts and styles;
// images may also come over https from elsewhere, since authors link
// remote images in posts (a browser audit found them blocked) and an image
// cannot run code. dev adds nothing (the live-reload script is served from
// the same origin).
const contentSecurityPolicy = "default-src 'self'; img-src 'self' data: https:; style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'"

func (s *Server) csp() string { return contentSecurityPolicy }

// conditional evaluates the request's preconditions against the selected
// representation (its ETag and Last-Modified) in RFC 9110's order (§13.2.2),
// and returns the status they call for: 412 when If-Match, else
// If-Unmodified-Since, fails (§13.1.1, §13.1.4); 304 when If-None-Match,
// else If-Modified-Since, matches (§13.1.2, §13.1.3); 0 to answer the
// request. A date that is not a valid HTTP-date (a list of them included)
// is ignored, as is every date when the representation has none.
func conditional(r *http.Request, etag string, modified time.Time) int {
	if im := r.Header["If-Match"]; len(im) > 0 {
		if !matchesETag(im, etag, true) {
			return http.StatusPreconditionFailed
		}
	} else if t, ok := headerDate(r, "If-Unmodified-Since", modified); ok && modified.After(t) {
		return http.StatusPreconditionFailed
	}
	if inm := r.Header["If-None-Match"]; len(inm) > 0 {
		if matchesETag(inm, etag, false) {
			return http.StatusNotModified
		}
		return 0
	}
	if t, ok := headerDate(r, "If-Modified-Since", modified); ok && !modified.After(t) {
		return http.StatusNotModified
	}
	return 0
}

// matchesETag reports whether the entity-tag list in the field lines
// holds "*" or etag: by strong comparison (no weak tag matches), or weak
// (W/ ignored) (RFC 9110 §8.8.3.2).
func matchesETag(lines []string, etag string, strong bool) bool {
	for _, line := range lines {
		for rest := line; rest != ""; {
			rest = strings.TrimLeft(rest, " \t,")
			if rest == "" {
				break
			}
			if rest[0] == '*' {
				return true
			}
			weak := strings.HasPrefix(rest, "W/")
			if weak {
				rest = rest[2:]
			}
			if !strings.HasPrefix(rest, `"`) {
				break // not an entity-tag: nothing after it is read
			}
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				break
			}
			tag := rest[:end+2]
			rest = rest[end+2:]
			if tag == etag && !(strong && weak) {
				return true
			}
		}
	}
	return false
}

// headerDate is the date of the request's field name, when it is one
// valid HTTP-date (one field line) and the representation has a date.
func headerDate(r *http.Request, name string, modified time.Time) (time.Time, bool) {
	v := r.Header[name]
	if len(v) != 1 || modified.IsZero() {
		return time.Time{}, false
	}
	t, err := http.ParseTime(v[0])
	return t, err == nil
}

// codingPreference breaks ties between codings the client accepts equally.
var codingPreference = map[string]int{"br": 3, "zstd": 2, "gzip": 1}

// pickEncoding returns the encoded body the client accepts with the highest
// q, ties going to br, then zstd, then gzip; nil for identity. header is
// the request's Accept-Encoding field lines.
//
// identity's own q is not weighed against the codings': nginx's gzip_static,
// which serves the static export, sends gzip whenever gzip's q is above 0,
// and the export must answer as serve does (CONTRACT). A client that
// wants no compression says gzip;q=0, or sends no Accept-Encoding.
func pickEncoding(header []string, encoded []encodedBody) *encodedBody {
	if len(header) == 0 {
		return nil
	}
	var q [4]float64 // q of encoded[i]; encoded holds at most three
	var named [4]bool
	star := -1.0
	for _, line := range header {
		for rest := line; rest != ""; {
			var member string
			member, rest, _ = strings.Cut(rest, ",")
			name, v := codingQ(member)
			if name == "*" {
				star = v
				continue
			}
			for i := range encoded[:min(len(encoded), len(q))] {
				if strings.EqualFold(name, encoded[i].coding) {
					q[i], named[i] = v, true
				}
			}
		}
	}
	var best *encodedBody
	bestQ := 0.0
	for i := range encoded[:min(len(encoded), len(q))] {
		e := &encoded[i]
		v := q[i]
		if !named[i] {
			v = max(star, 0)
		}
		if v > bestQ || (v == bestQ && v > 0 && best != nil && codingPreference[e.coding] > codingPreference[best.coding]) {
			best, bestQ = e, v
		}
	}
	return best
}

// codingQ parses one Accept-Encoding member, "gzip;q=0.5": its coding and
// q (1 when absent, 0 when malformed).
func codingQ(member string) (string, float64) {
	name, params, _ := strings.Cut(member, ";")
	name = strings.TrimSpace(name)
	v := 1.0
	for params != "" {
		var p string
		p, params, _ = strings.Cut(params, ";")
		k, val, ok := strings.Cut(strings.TrimSpace(p), "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
			f, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
			if err != nil || f < 0 || f > 1 {
				f = 0
			}
			v = f
		}
	}
	return name, v
}

// problem writes an RFC 9457 problem+json answer on m's row (none when
// m.route is nil: the request was refused before routing). extra members
// (such as "acceptable" for 406) are added to the body.
func (s *Server) problem(w http.ResponseWriter, r *http.Request, m match, status int, detail string, extra ...any) {
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
	if s.corsOn(m, nil) {
		h.Set("Access-Control-Allow-Origin", "*")
	}
	h.Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(append(b, '\n'))
	}
}

// corsOn reports whether an answer on m's row carries
// Access-Control-Allow-Origin: * (rp is the representation served, nil for
// errors and preflights): as the row says, and never in dev
// (devguard.go).
func (s *Server) corsOn(m match, rp *rep) bool {
	if s.opts.Dev || m.route == nil {
		return false
	}
	switch m.route.CORS {
	case CORSAll:
		return true
	case CORSMarkdown:
		return rp != nil && rp.ctype == markdownType
	}
	return false
}

// options answers OPTIONS with the allowed methods, and CORS preflight
// headers on CORS rows.
func (s *Server) options(w http.ResponseWriter, r *http.Request, m match) {
	h := w.Header()
	h.Set("Allow", "GET, HEAD")
	if s.corsOn(m, nil) {
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
func (s *Server) internalError(w http.ResponseWriter, r *http.Request, m match, err error) {
	s.log.Error("request", "path", r.URL.Path, "err", err)
	s.problem(w, r, m, http.StatusInternalServerError, "the server could not prepare this answer")
}
