package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"folio/internal/corpus"
	"folio/internal/cputime"
	"folio/pipeline"
)

// benchServer is the 10,000-post generated corpus, as the wrk comparison
// in BENCHMARKS.md serves it.
func benchServer(b *testing.B) *Server {
	b.Helper()
	cfg := pipeline.DefaultConfig()
	cfg.BaseURL = "http://127.0.0.1:8080/"
	snap, err := pipeline.Build(corpus.MapFS(10_000, 1), cfg, pipeline.Options{}, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		b.Fatal(err)
	}
	return newServer(b, snap, false)
}

// discard is a ResponseWriter that keeps nothing, so the benchmark
// measures the handler and not a recorder's buffer.
type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(p []byte) (int, error) { return len(p), nil }
func (d *discard) WriteHeader(int)             {}

// BenchmarkServe measures answering from prepared representations: the
// per-request cost once a snapshot's bytes are made (the first request
// of each sub-benchmark makes them, outside the timer).
func BenchmarkServe(b *testing.B) {
	s := benchServer(b)
	items, next, _ := s.Snapshot().Page(pipeline.FirstCursor, 50)
	if len(items) == 0 || next == "" {
		b.Fatal("corpus too small")
	}
	article := "/" + strings.TrimPrefix(strings.TrimPrefix(s.Snapshot().URLOf(items[0]), "http://127.0.0.1:8080"), "/")
	for _, bc := range []struct{ name, path, inm string }{
		{"posts.json", "/api/posts.json", ""},
		{"cursor", "/api/posts/cursor/" + next + ".json", ""},
		{"posts.json/304", "/api/posts.json", "etag"},
		{"article", article, ""},
		{"markdown", strings.TrimSuffix(article, "/") + ".md", ""},
		{"article/304", article, "etag"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			req := httptest.NewRequest("GET", bc.path, nil)
			req.Header.Set("Accept-Encoding", "gzip")
			w := &discard{h: http.Header{}}
			s.ServeHTTP(w, req) // make the representation
			if bc.inm != "" {
				req.Header.Set("If-None-Match", w.h.Get("ETag"))
			}
			b.ReportAllocs()
			cpu := cputime.Used()
			for b.Loop() {
				clear(w.h)
				s.ServeHTTP(w, req)
			}
			b.ReportMetric(float64(cputime.Used()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
	// The bare server's handler (bench/peers/nethttp) on the article's
	// answer as folio sends it: the floor a handler's own work is
	// measured against, in the same harness.
	for _, bc := range []struct{ name, inm string }{{"article/bare", ""}, {"article/304/bare", "etag"}} {
		b.Run(bc.name, func(b *testing.B) {
			req := httptest.NewRequest("GET", article, nil)
			req.Header.Set("Accept-Encoding", "gzip")
			h := bareHandler(b, s, req)
			if bc.inm != "" {
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, req)
				req.Header.Set("If-None-Match", rec.Header().Get("ETag"))
			}
			w := &discard{h: http.Header{}}
			b.ReportAllocs()
			cpu := cputime.Used()
			for b.Loop() {
				clear(w.h)
				h.ServeHTTP(w, req)
			}
			b.ReportMetric(float64(cputime.Used()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// bareHandler answers req's path as bench/peers/nethttp does, with the
// answers s gives req (gzip) and its 304: one map lookup, "gzip" found
// in Accept-Encoding, If-None-Match compared as a string, the headers
// copied from a list.
func bareHandler(b *testing.B, s *Server, req *http.Request) http.Handler {
	type field struct {
		name   string
		values []string
	}
	type answer struct {
		etag              string
		body              []byte
		header, notModifd []field
	}
	fields := func(h http.Header) (fs []field) {
		for k, v := range h {
			if k != "Date" {
				fs = append(fs, field{k, v})
			}
		}
		return fs
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	a := &answer{etag: rec.Header().Get("ETag"), body: rec.Body.Bytes(), header: fields(rec.Header())}
	nm := req.Clone(req.Context())
	nm.Header.Set("If-None-Match", a.etag)
	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, nm)
	if rec.Code != http.StatusNotModified {
		b.Fatalf("If-None-Match: %d", rec.Code)
	}
	a.notModifd = fields(rec.Header())
	routes := map[string]*answer{req.URL.Path: a}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := routes[r.URL.Path]
		gz := false
		for _, v := range r.Header["Accept-Encoding"] {
			gz = gz || strings.Contains(v, "gzip")
		}
		if a == nil || !gz {
			http.NotFound(w, r)
			return
		}
		hd := w.Header()
		if inm := r.Header["If-None-Match"]; len(inm) == 1 && inm[0] == a.etag {
			for _, f := range a.notModifd {
				hd[f.name] = f.values
			}
			w.WriteHeader(http.StatusNotModified)
			return
		}
		for _, f := range a.header {
			hd[f.name] = f.values
		}
		w.Write(a.body)
	})
}
