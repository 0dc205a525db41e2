package host

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"folio/internal/corpus"
)

// BenchmarkServeHeap reports what the collector marks in each cycle while
// folio serve answers a 10,000-post site: the live heap's objects, its
// scannable bytes and its size after a collection, once the site is
// loaded and the routes bench/ceiling.sh asks for were answered once
// (posts.json, a post's page and Markdown, a cursor page, llms-full.txt).
// The figures do not depend on time or load.
//
//	go test ./host -run '^$' -bench ServeHeap -benchtime 1x
func BenchmarkServeHeap(b *testing.B) {
	dir := b.TempDir()
	if err := corpus.Write(dir, 10_000, 1); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		h, err := Load(Spec{Content: dir + "/content", BaseURL: "http://127.0.0.1:8080/"})
		if err != nil {
			b.Fatal(err)
		}
		get := func(path string) []byte {
			r := httptest.NewRequest("GET", path, nil)
			r.Header.Set("Accept-Encoding", "gzip")
			w := httptest.NewRecorder()
			h.Server().ServeHTTP(w, r)
			if w.Code != http.StatusOK {
				b.Fatalf("%s: %d", path, w.Code)
			}
			return w.Body.Bytes()
		}
		r := httptest.NewRequest("GET", "/api/posts.json", nil)
		w := httptest.NewRecorder()
		h.Server().ServeHTTP(w, r)
		var list struct{ Items []struct{ URL string } }
		if err := json.Unmarshal(w.Body.Bytes(), &list); err != nil || len(list.Items) == 0 {
			b.Fatalf("posts.json: %v", err)
		}
		article := "/" + strings.SplitN(list.Items[0].URL, "/", 4)[3]
		get(article)
		get(strings.TrimSuffix(article, "/") + ".md")
		get("/api/posts/cursor/0.json")
		get("/llms-full.txt")
		runtime.GC()
		s := []metrics.Sample{{Name: "/gc/heap/objects:objects"}, {Name: "/gc/scan/heap:bytes"}, {Name: "/gc/heap/live:bytes"}}
		metrics.Read(s)
		b.ReportMetric(float64(s[0].Value.Uint64()), "objects")
		b.ReportMetric(float64(s[1].Value.Uint64())/1e6, "scan-MB")
		b.ReportMetric(float64(s[2].Value.Uint64())/1e6, "live-MB")
		runtime.KeepAlive(h)
	}
}
