package pipeline

import (
	"fmt"
	iofs "io/fs"
	"os"
	"testing"
	"testing/fstest"
	"time"

	"folio/internal/corpus"
	"folio/internal/cputime"
)

// benchNow is after every generated post except the 2040 ones, so the
// published set is what a real site would show.
var benchNow = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

const benchPosts = 10_000

// BenchmarkBuild measures a full snapshot build of 10,000 generated posts
// (read, front matter, fields, body split, sort, lookups) from memory, and
// from a real folder through os.DirFS, where the page cache is warm after
// the first iteration.
func BenchmarkBuild(b *testing.B) {
	cfg := DefaultConfig()
	b.Run("MapFS", func(b *testing.B) {
		fsys := corpus.MapFS(benchPosts, 1)
		benchBuild(b, fsys, cfg)
	})
	b.Run("DirFS", func(b *testing.B) {
		dir := b.TempDir()
		if err := corpus.Write(dir, benchPosts, 1); err != nil {
			b.Fatal(err)
		}
		benchBuild(b, os.DirFS(dir+"/content"), cfg)
	})
}

func benchBuild(b *testing.B, fsys iofs.FS, cfg *Config) {
	b.ReportAllocs()
	var snap *Snapshot
	cpu := cputime.Used()
	for b.Loop() {
		var err error
		snap, err = Build(fsys, cfg, Options{}, benchNow)
		if err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cputime.Used()-cpu)
	if len(snap.problems) > 0 || len(snap.posts) < benchPosts*9/10 {
		b.Fatalf("%d posts, %d problems (first: %v)", len(snap.posts), len(snap.problems), snap.problems)
	}
	b.ReportMetric(float64(len(snap.posts)), "posts")
}

// BenchmarkUpdateOne measures the next snapshot after one post changed in a
// snapshot of 10,000 and of 100,000 posts: one file read and parsed, the
// rest shared. What grows with the site is what each snapshot copies.
//
//	go test ./pipeline -run '^$' -bench UpdateOne -benchtime 100x
func BenchmarkUpdateOne(b *testing.B) {
	for _, posts := range []int{benchPosts, 10 * benchPosts} {
		b.Run(fmt.Sprint(posts), func(b *testing.B) { benchUpdateOne(b, posts) })
	}
}

func benchUpdateOne(b *testing.B, posts int) {
	fsys := corpus.MapFS(posts, 1)
	snap, err := Build(fsys, DefaultConfig(), Options{}, benchNow)
	if err != nil {
		b.Fatal(err)
	}
	const name = "blog/post-000100.md"
	orig := fsys[name].Data
	b.ReportAllocs()
	i := 0
	cpu := cputime.Used()
	defer func() { reportCPU(b, cputime.Used()-cpu) }()
	for b.Loop() {
		i++
		fsys[name] = &fstest.MapFile{Data: fmt.Appendf(append([]byte(nil), orig...), "\nEdit %d.\n", i)}
		snap, err = snap.Update([]string{name}, benchNow)
		if err != nil {
			b.Fatal(err)
		}
	}
	if len(snap.problems) > 0 {
		b.Fatal(snap.problems)
	}
}

// reportCPU adds the process CPU time (all cores, GC included) per
// operation: with two cores, a fully parallel build shows about twice its
// wall time here.
func reportCPU(b *testing.B, d time.Duration) {
	b.ReportMetric(float64(d.Milliseconds())/float64(b.N), "cpu-ms/op")
}
