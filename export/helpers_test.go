package export

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// withFolderTimes skips t where folders have no status-change time (then
// every folder is listed and there is nothing to test), and sets
// racyWindow to window until t ends.
func withFolderTimes(t *testing.T, window time.Duration) {
	t.Helper()
	if _, ok := dirChanged(t.TempDir()); !ok {
		t.Skip("no folder status-change times here: every folder is listed")
	}
	w := racyWindow
	t.Cleanup(func() { racyWindow = w })
	racyWindow = window
}

// fakeSite is a small handler answering like folio's server does, for the
// export's own tests: a negotiating page with a Markdown alternate (whose
// 405 and OPTIONS say Vary: Accept), a large page (gzipped), a small file,
// a 404 page (large, so gzipped too), problem+json, a redirect.
type fakeSite struct {
	// broken makes /broken answer 500, to fail an export half way.
	broken bool
	// short makes /broken promise more bytes than it sends, as a bundle
	// file that shrinks while it is copied would.
	short bool
	// bigTwins makes the answers of /blog/p….md over 1 KiB (gzipped).
	bigTwins bool
}

var (
	fakeModified = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)
	bigPage      = "<!doctype html><title>home</title>" + strings.Repeat("<p>lorem ipsum dolor sit amet</p>\n", 60)
	dirHTML      = "<!doctype html><title>all posts</title><p>x</p>"
	dirMarkdown  = "# All posts\n\n- [x](https://example.org/blog/x/)\n"
	page404      = "<!doctype html><title>not found</title>" + strings.Repeat("<p>nothing here</p>\n", 60)
)

func (f fakeSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	if r.Method != http.MethodGet && r.Method != http.MethodHead && r.URL.Path == "/blog/" {
		h.Set("Vary", "Accept") // the page negotiates
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
	case http.MethodOptions:
		h.Set("Allow", "GET, HEAD")
		if strings.HasPrefix(r.URL.Path, "/api/") {
			h.Set("Access-Control-Allow-Origin", "*")
			if v := r.Header.Get("Access-Control-Request-Headers"); v != "" {
				h.Set("Access-Control-Allow-Headers", v)
			}
		}
		w.WriteHeader(http.StatusNoContent)
		return
	default:
		h.Set("Allow", "GET, HEAD")
		problem(w, r, http.StatusMethodNotAllowed, "method "+r.Method+" is not allowed")
		return
	}
	switch r.URL.Path {
	case "/":
		body(w, r, "text/html; charset=utf-8", bigPage, "")
	case "/blog/":
		switch accept := r.Header.Get("Accept"); {
		case accept == "application/json":
			h.Set("Vary", "Accept")
			problem(w, r, http.StatusNotAcceptable, "neither html nor markdown")
		case strings.Contains(accept, "text/markdown"):
			h.Set("Link", `<https://example.org/blog/>; rel="canonical"`)
			body(w, r, "text/markdown; charset=utf-8", dirMarkdown, "Accept")
		default:
			h.Set("Link", `<https://example.org/blog.md>; rel="alternate"; type="text/markdown"`)
			body(w, r, "text/html; charset=utf-8", dirHTML, "Accept")
		}
	case "/blog.md":
		h.Set("Link", `<https://example.org/blog/>; rel="canonical"`)
		body(w, r, "text/markdown; charset=utf-8", dirMarkdown, "")
	case "/blog/caf%C3%A9/photo.png", "/blog/café/photo.png":
		body(w, r, "image/png", "\x89PNG fake"+strings.Repeat("\x00", 2000), "")
	case "/api/posts.json":
		h.Set("Access-Control-Allow-Origin", "*")
		body(w, r, "application/json", `{"items":[]}`, "")
	case "/healthz":
		h.Set("Cache-Control", "no-store")
		body(w, r, "text/plain; charset=utf-8", "ok", "")
	case "/broken":
		if f.broken {
			problem(w, r, http.StatusInternalServerError, "broken")
			return
		}
		if f.short {
			h.Set("Content-Type", "text/plain; charset=utf-8")
			h.Set("Content-Length", "10")
			w.Write([]byte("fine"))
			return
		}
		body(w, r, "text/plain; charset=utf-8", "fine", "")
	case "/old", "/blog", "/moved/a/", "/moved/b.html", "/moved/B.html", "/blog.md/", "/moved/café/", "/blog/café":
		h.Set("Location", "https://example.org/blog/")
		h.Set("Cache-Control", "public, max-age=300")
		w.WriteHeader(http.StatusMovedPermanently)
	default:
		if strings.HasPrefix(r.URL.Path, "/blog/p") && strings.HasSuffix(r.URL.Path, ".md") {
			text := "# " + r.URL.Path + "\n"
			if f.bigTwins {
				text += strings.Repeat("Lorem ipsum dolor sit amet.\n", 60)
			}
			body(w, r, "text/markdown; charset=utf-8", text, "")
			return
		}
		if strings.HasPrefix(r.URL.Path, "/api/") || strings.HasSuffix(r.URL.Path, ".json") {
			problem(w, r, http.StatusNotFound, "no such resource: "+r.URL.Path)
			return
		}
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Cache-Control", "no-store")
		h.Set("Vary", "Accept-Encoding")
		b := []byte(page404)
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			b = gzipped(b)
			h.Set("Content-Encoding", "gzip")
		}
		h.Set("Content-Length", strconv.Itoa(len(b)))
		w.WriteHeader(http.StatusNotFound)
		if r.Method != http.MethodHead {
			w.Write(b)
		}
	}
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// body answers like the server's serve: gzip over 1 KiB when accepted.
func body(w http.ResponseWriter, r *http.Request, ctype, text, vary string) {
	h := w.Header()
	b := []byte(text)
	compress := len(b) > 1024 && !strings.HasPrefix(ctype, "image/")
	if compress {
		vary = strings.TrimPrefix(vary+", Accept-Encoding", ", ")
	}
	if vary != "" {
		h.Set("Vary", vary)
	}
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "public, max-age=300")
	}
	h.Set("Content-Type", ctype)
	sum := sha256.Sum256(b)
	etag := fmt.Sprintf("%x", sum[:4])
	h.Set("Last-Modified", fakeModified.Format(http.TimeFormat))
	if compress && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		b = gzipped(b)
		h.Set("Content-Encoding", "gzip")
		etag += "-gz" // the server's ETag of a gzip body
	}
	h.Set("ETag", `"`+etag+`"`)
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.Write(b)
}

func problem(w http.ResponseWriter, r *http.Request, status int, detail string) {
	h := w.Header()
	h.Set("Content-Type", "application/problem+json")
	h.Set("Cache-Control", "no-store")
	if strings.HasPrefix(r.URL.Path, "/api/") {
		h.Set("Access-Control-Allow-Origin", "*")
	}
	b, _ := json.Marshal(map[string]any{"detail": detail, "status": status})
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

var fakePaths = []string{"/", "/blog/", "/api/posts.json", "/blog.md", "/blog/caf%C3%A9/photo.png", "/broken", "/404.html"}

var fakeOptions = Options{NotFound: "/404.html", Redirects: []string{"/blog", "/old", "/old/", "/blog/"}}
