package server

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"folio/internal/corpus"
	"folio/internal/cputime"
	"folio/pipeline"
	"folio/site"
)

// benchPosts is the size of the generated site, as in the figures.
const benchPosts = 10_000

// corpusServer is a server over the generated corpus (internal/corpus,
// seed 1) with the embedded theme, built once per benchmark binary run.
var corpusServer = sync.OnceValues(func() (*Server, error) {
	cfg := pipeline.DefaultConfig()
	cfg.BaseURL = "https://blog.example.org/"
	// The corpus dates its future posts in 2040; now is fixed so that the
	// published set does not depend on the clock.
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	snap, err := pipeline.Build(corpus.MapFS(benchPosts, 1), cfg, pipeline.Options{}, now)
	if err != nil {
		return nil, err
	}
	return New(snap, Options{Site: site.FS})
})

// BenchmarkRenderSite renders the article page of every published post of
// the 10,000-post corpus through the real templates, on one goroutine:
// Markdown to HTML with highlighting, the page template, the ETag and the
// gzip form, which is all an article costs folio build or a cold server.
// Each iteration starts from an empty state, so nothing is reused.
func BenchmarkRenderSite(b *testing.B) {
	s, err := corpusServer()
	if err != nil {
		b.Fatal(err)
	}
	snap := s.Snapshot()
	var bytes int64
	cpu := cputime.Used()
	for b.Loop() {
		st := &state{snap: snap, theme: s.theme.Load()}
		bytes = 0
		for _, p := range snap.Posts() {
			rp, err := s.articleRep(st, p)
			if err != nil {
				b.Fatal(err)
			}
			bytes += int64(len(rp.body))
		}
	}
	reportSite(b, len(snap.Posts()), bytes, cputime.Used()-cpu)
}

// BenchmarkRenderSiteParallel is BenchmarkRenderSite on every core, as
// folio build renders.
func BenchmarkRenderSiteParallel(b *testing.B) {
	s, err := corpusServer()
	if err != nil {
		b.Fatal(err)
	}
	snap := s.Snapshot()
	workers := runtime.GOMAXPROCS(0)
	cpu := cputime.Used()
	for b.Loop() {
		st := &state{snap: snap, theme: s.theme.Load()}
		var next atomic.Int64
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for i := next.Add(1) - 1; i < int64(len(snap.Posts())); i = next.Add(1) - 1 {
					if _, err := s.articleRep(st, snap.Posts()[i]); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
	}
	reportSite(b, len(snap.Posts()), 0, cputime.Used()-cpu)
}

// reportSite reports posts per second of wall time, and the CPU time per
// iteration, the figure other people's load on a shared machine disturbs
// least.
func reportSite(b *testing.B, posts int, bytes int64, cpu time.Duration) {
	b.Helper()
	if posts < benchPosts*9/10 {
		b.Fatalf("only %d posts published of %d", posts, benchPosts)
	}
	perOp := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(posts)/perOp, "posts/s")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	if bytes > 0 {
		b.ReportMetric(float64(bytes)/float64(posts), "B/page")
	}
}

// BenchmarkArticleTemplate is the page template alone: the article layout
// around already rendered bodies, without compression.
func BenchmarkArticleTemplate(b *testing.B) {
	s, err := corpusServer()
	if err != nil {
		b.Fatal(err)
	}
	st := s.load()
	posts := st.snap.Posts()[:200]
	pages := make([]*pageData, len(posts))
	for i, p := range posts {
		pages[i] = s.articlePage(st, p)
	}
	cpu := cputime.Used()
	for i := 0; b.Loop(); i++ {
		if _, err := st.theme.execute("article", pages[i%len(pages)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cputime.Used()-cpu).Microseconds())/float64(b.N), "cpu-µs/op")
}

// BenchmarkDirectoryPage renders the directory page of the 10,000-post
// corpus: one list item per post through the "item" template.
func BenchmarkDirectoryPage(b *testing.B) {
	s, err := corpusServer()
	if err != nil {
		b.Fatal(err)
	}
	snap := s.Snapshot()
	cpu := cputime.Used()
	var size int
	for b.Loop() {
		st := &state{snap: snap, theme: s.theme.Load()}
		rp, err := s.directoryRep(st)
		if err != nil {
			b.Fatal(err)
		}
		size = len(rp.body)
	}
	b.ReportMetric(cputime.Used().Seconds()/float64(b.N)-cpu.Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(size)/1e6, "MB/page")
}
