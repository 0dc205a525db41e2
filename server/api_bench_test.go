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
}
