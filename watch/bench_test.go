package watch

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// These measure the defaults on this machine; they assert nothing.
//
//	go test ./watch -run '^$' -bench . -benchtime 50x

// BenchmarkSaveToBatch measures the time from the start of a save to the
// delivery of its batch, with the default options: the watcher's share of
// folio dev's write-to-reload time.
func BenchmarkSaveToBatch(b *testing.B) {
	saves := map[string]func(o fsops){
		"in-place": func(o fsops) { o.truncWrite("blog/x.md", "---\ntitle: x\n---\nbody\n") },
		"vim": func(o fsops) {
			o.create("blog/4913", "")
			o.remove("blog/4913")
			o.rename("blog/x.md", "blog/x.md~")
			o.overwrite("blog/x.md", "---\ntitle: x\n---\nbody\n")
			o.remove("blog/x.md~")
		},
	}
	for _, name := range []string{"in-place", "vim"} {
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			tree(b, dir, map[string]string{"blog/x.md": "x"})
			w, err := New([]string{dir}, Options{Logger: discard})
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			o := fsops{b, dir}
			var lat []time.Duration
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				saves[name](o)
				select {
				case <-w.Batches():
				case <-time.After(waitBatch):
					b.Fatal("no batch")
				}
				lat = append(lat, time.Since(start))
				time.Sleep(20 * time.Millisecond) // an author does not save twice in a millisecond
			}
			b.StopTimer()
			reportLatency(b, lat)
		})
	}
}

func reportLatency(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	at := func(q float64) float64 {
		return float64(lat[int(q*float64(len(lat)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.5), "p50-ms")
	b.ReportMetric(at(0.95), "p95-ms")
	b.ReportMetric(at(1), "max-ms")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkGitCheckout switches a real repository between two branches
// that differ in 1,000 posts, with the default options, and counts the
// deliveries per checkout (one is the goal) and the time from the start
// of the checkout to the last one. The Watcher holds bursts for git's
// index.lock, as folio dev does in a repository.
func BenchmarkGitCheckout(b *testing.B) {
	git, err := exec.LookPath("git")
	if err != nil {
		b.Skip("git not installed")
	}
	repo := b.TempDir()
	run := func(args ...string) {
		cmd := exec.Command(git, args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for _, branch := range []string{"one", "two"} {
		files := map[string]string{}
		for i := range 1000 {
			files[fmt.Sprintf("content/blog/p%04d.md", i)] = "---\ntitle: " + branch + "\n---\n"
		}
		tree(b, repo, files)
		if branch == "one" {
			run("init", "-q", "-b", "one")
		} else {
			run("checkout", "-qb", "two")
		}
		run("add", "-A")
		run("commit", "-qm", branch)
	}
	// As folio dev watches a site in a repository: holding for git's lock.
	w, err := New([]string{filepath.Join(repo, "content")}, Options{
		Logger: discard, Hold: []string{filepath.Join(repo, ".git", "index.lock")},
	})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	var deliveries int
	var lat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		run("checkout", "-q", []string{"one", "two"}[i%2])
		paths := 0
		var sizes []int
		for paths < 1000 {
			select {
			case got := <-w.Batches():
				deliveries++
				paths += len(got[0].Paths)
				sizes = append(sizes, len(got[0].Paths))
			case <-time.After(waitBatch):
				b.Fatalf("%d paths delivered, want 1000", paths)
			}
		}
		lat = append(lat, time.Since(start))
		if len(sizes) > 1 {
			b.Logf("checkout %d split: %v", i, sizes)
		}
	Settle:
		for {
			select {
			case <-w.Batches():
				deliveries++
			case <-time.After(time.Second):
				break Settle
			}
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(deliveries)/float64(b.N), "deliveries/op")
	reportLatency(b, lat)
}

var discard = slog.New(slog.NewTextHandler(io.Discard, nil))
