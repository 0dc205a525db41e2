//go:build unix

package host

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"testing"

	"folio/internal/corpus"
)

// BenchmarkServeHeap reports what the collector marks in each cycle while
// folio serve answers a 10,000-post site: the live heap's objects, its
// scannable bytes and its size after a collection, once the site is
// loaded and the routes bench/ceiling.sh asks for were answered once
// (posts.json, a post's page and Markdown, a cursor page, llms-full.txt).
// The figures do not depend on time or load, but gc-ms does: the median
// CPU time (getrusage) of 21 forced collections of that heap at
// GOMAXPROCS=1, what one collection costs while serving. With
// FOLIO_GC_PROFILE=FILE a CPU profile of 201 collections is written
// there; with FOLIO_HEAP_PROFILE=FILE a heap profile of every allocation
// (go tool pprof -sample_index=inuse_space -tags FILE lists the live
// heap by object size).
//
//	go test ./host -run '^$' -bench ServeHeap -benchtime 1x
func BenchmarkServeHeap(b *testing.B) {
	dir := b.TempDir()
	if err := corpus.Write(dir, 10_000, 1); err != nil {
		b.Fatal(err)
	}
	heapProfile := os.Getenv("FOLIO_HEAP_PROFILE")
	if heapProfile != "" {
		runtime.MemProfileRate = 1
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
		if heapProfile != "" {
			writeHeapProfile(b, heapProfile)
		}
		b.ReportMetric(forcedGCMillis(b, 21), "gc-ms")
		runtime.KeepAlive(h)
	}
}

// forcedGCMillis is the median CPU time in ms of n forced collections at
// GOMAXPROCS=1.
func forcedGCMillis(b *testing.B, n int) float64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if f := os.Getenv("FOLIO_GC_PROFILE"); f != "" {
		out, err := os.Create(f)
		if err != nil {
			b.Fatal(err)
		}
		defer out.Close()
		if err := pprof.StartCPUProfile(out); err != nil {
			b.Fatal(err)
		}
		defer pprof.StopCPUProfile()
		n = 201
	}
	cpu := func() float64 {
		var u syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
			b.Fatal(err)
		}
		return float64(u.Utime.Nano()+u.Stime.Nano()) / 1e6
	}
	ms := make([]float64, n)
	for i := range ms {
		t := cpu()
		runtime.GC()
		ms[i] = cpu() - t
	}
	slices.Sort(ms)
	return ms[n/2]
}

func writeHeapProfile(b *testing.B, file string) {
	out, err := os.Create(file)
	if err != nil {
		b.Fatal(err)
	}
	defer out.Close()
	if err := pprof.Lookup("heap").WriteTo(out, 0); err != nil {
		b.Fatal(err)
	}
}
