package render

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"folio/internal/corpus"
	"folio/internal/cputime"
	"folio/pipeline"
)

// The benchmarks render the generated 10,000-post corpus (the one the
// pipeline's benchmarks and the Hugo comparison use), HTML and Markdown
// for every post:
//
//	go test ./render -run '^$' -bench . -benchmem
//
// BenchmarkRender reports the cost of one post; BenchmarkRenderSite the
// whole site on one goroutine and on GOMAXPROCS of them.

const benchPosts = 10_000

var (
	benchOnce sync.Once
	benchSite []*pipeline.Post
	benchRes  Resolver
)

func corpusPosts(b *testing.B) ([]*pipeline.Post, Resolver) {
	benchOnce.Do(func() {
		cfg := pipeline.DefaultConfig()
		cfg.BaseURL = "https://example.org/"
		now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		s, err := pipeline.Build(corpus.MapFS(benchPosts, 1), cfg, pipeline.Options{Drafts: true}, now)
		if err != nil {
			panic(err)
		}
		benchSite = s.Posts()
		benchRes = NewIndex(s.Posts(), func(p *pipeline.Post) bool { return p.Published(now) })
	})
	return benchSite, benchRes
}

func BenchmarkRender(b *testing.B) {
	posts, res := corpusPosts(b)
	r := New(Options{BaseURL: "https://example.org/", Section: corpus.Section})
	i := 0
	for b.Loop() {
		r.Render(posts[i%len(posts)], res)
		i++
	}
}

func BenchmarkRenderSite(b *testing.B) {
	posts, res := corpusPosts(b)
	r := New(Options{BaseURL: "https://example.org/", Section: corpus.Section})
	b.Run("serial", func(b *testing.B) {
		cpu := cputime.Used()
		for b.Loop() {
			for _, p := range posts {
				r.Render(p, res)
			}
		}
		reportPerPost(b, len(posts), cputime.Used()-cpu)
	})
	b.Run("parallel", func(b *testing.B) {
		cpu := cputime.Used()
		for b.Loop() {
			var next atomic.Int64
			var wg sync.WaitGroup
			for range runtime.GOMAXPROCS(0) {
				wg.Go(func() {
					for i := next.Add(1) - 1; i < int64(len(posts)); i = next.Add(1) - 1 {
						r.Render(posts[i], res)
					}
				})
			}
			wg.Wait()
		}
		reportPerPost(b, len(posts), cputime.Used()-cpu)
	})
}

// reportPerPost reports wall and CPU time per post. The machine is shared;
// CPU time is the steadier measure of the work done.
func reportPerPost(b *testing.B, posts int, cpu time.Duration) {
	n := float64(b.N * posts)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/post")
	b.ReportMetric(float64(cpu.Nanoseconds())/n, "cpu-ns/post")
}

// BenchmarkSiteIndex measures the index a snapshot's links and refs
// resolve against, over the 10,000-post corpus's whole site (pages,
// sections, tags and categories): folio dev makes one per change.
func BenchmarkSiteIndex(b *testing.B) {
	cfg := pipeline.DefaultConfig()
	cfg.BaseURL = "https://example.org/"
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	s, err := pipeline.Build(corpus.MapFS(benchPosts, 1), cfg, pipeline.Options{}, now)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu := cputime.Used()
	for b.Loop() {
		NewSiteIndex(s)
	}
	b.ReportMetric(float64((cputime.Used()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
