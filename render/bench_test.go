package render

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
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
// sections, tags and categories), after one post was edited: made afresh
// (New: NewSiteIndex, what every command's first snapshot pays) and
// patched from the previous snapshot's (Next: what folio dev pays on each
// save); and the site's lists templates may ask for (Lists).
func BenchmarkSiteIndex(b *testing.B) {
	fsys := corpus.MapFS(benchPosts, 1)
	cfg := pipeline.DefaultConfig()
	cfg.BaseURL = "https://example.org/"
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	snap, err := pipeline.Build(fsys, cfg, pipeline.Options{}, now)
	if err != nil {
		b.Fatal(err)
	}
	const name = corpus.Section + "/post-000100.md"
	orig := fsys[name].Data
	edit := func(i int) *pipeline.Snapshot {
		fsys[name] = &fstest.MapFile{Data: fmt.Appendf(append([]byte(nil), orig...), "\nEdit %d.\n", i)}
		next, err := snap.Update([]string{name}, now)
		if err != nil {
			b.Fatal(err)
		}
		return next
	}
	b.Run("New", func(b *testing.B) {
		next := edit(0)
		cpu := cputime.Used()
		for b.Loop() {
			NewSiteIndex(next)
		}
		b.ReportMetric(float64((cputime.Used()-cpu).Microseconds())/float64(b.N), "cpu-µs/op")
	})
	// What the first rendering whose templates list the site pays per
	// snapshot: .Site.RegularPages (and .Site.Pages); every list
	// (every section's and term's pages, the taxonomies) besides.
	for _, lists := range []struct {
		name string
		make func(*siteLists)
	}{
		{"Lists/Regular", func(l *siteLists) { l.global() }},
		{"Lists/Every", func(l *siteLists) { l.global().termLists() }},
	} {
		b.Run(lists.name, func(b *testing.B) {
			next := edit(0)
			r, _ := ForSnapshot(next)
			six := NewSiteIndex(next)
			cpu := cputime.Used()
			for b.Loop() {
				lists.make(six.again().lists(next.Config().DefaultLanguage, r))
			}
			b.ReportMetric(float64((cputime.Used()-cpu).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
	b.Run("Next", func(b *testing.B) {
		six := NewSiteIndex(snap)
		i := 0
		var cpu time.Duration
		for b.Loop() {
			b.StopTimer()
			i++
			next := edit(i)
			b.StartTimer()
			start := cputime.Used()
			six = six.Next(next)
			cpu += cputime.Used() - start
			snap = next
		}
		b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/op")
		if six.snap != snap {
			b.Fatal("the index is not the last snapshot's")
		}
	})
}

// BenchmarkMarkdownDocument is a post's Markdown twin put together: the
// front matter around the body Render made.
func BenchmarkMarkdownDocument(b *testing.B) {
	posts, res := corpusPosts(b)
	r := New(Options{BaseURL: "https://example.org/", Section: corpus.Section})
	bodies := make([]string, 100)
	for i := range bodies {
		bodies[i] = r.Render(posts[i], res).Markdown
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p := posts[i%len(bodies)]
		MarkdownDocument(p, "https://example.org/blog/"+p.Slug+"/", bodies[i%len(bodies)])
		i++
	}
}
