package pipeline

import (
	"bytes"
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestCacheFunc: a cache given once the content is walked (Options.
// CacheFunc, which folio serve reads meanwhile) is used as one given
// at the start: the walk keeps the stamps, so the next build reads no
// file, and the snapshot writes the next cache. It is asked for once,
// after the walk. No file is stat'ed again after the walk.
func TestCacheFunc(t *testing.T) {
	dir := stampedDir(t)
	defer func(w time.Duration) { racyWindow = w }(racyWindow)
	racyWindow = 50 * time.Millisecond
	writeFiles(t, dir, map[string]string{"blog/a.md": post("title: A"), "blog/trip/index.md": post("title: Trip"), "blog/trip/p.jpg": "jpg"})
	time.Sleep(2 * racyWindow)
	fsys := &statFS{countFS: countFS{FS: os.DirFS(dir)}}
	key := sha256.Sum256([]byte("func"))
	var file []byte
	for _, step := range []struct {
		name  string
		reads []string
	}{
		{"no cache", []string{"blog/a.md", "blog/trip/index.md"}},
		{"cached", nil},
	} {
		fsys.reset()
		fsys.stats.Store(0)
		calls := 0
		opts := Options{CacheFunc: func() *Cache {
			calls++
			if got := fsys.reads(); len(got) > 0 {
				t.Errorf("%s: the cache asked for after reading %q", step.name, got)
			}
			name := filepath.Join(t.TempDir(), "cache")
			os.WriteFile(name, file, 0o644)
			return ReadCache(name, key)
		}}
		s, err := Build(fsys, testConfig(t), opts, testNow)
		if err != nil {
			t.Fatal(err)
		}
		if n := fsys.stats.Load(); n > 0 {
			t.Errorf("%s: %d files stat'ed after the walk", step.name, n)
		}
		if calls != 1 {
			t.Errorf("%s: the cache asked for %d times", step.name, calls)
		}
		if got := fsys.reads(); !slices.Equal(got, step.reads) {
			t.Errorf("%s: read %q, want %q", step.name, got, step.reads)
		}
		var b bytes.Buffer
		if err := s.WriteCache(&b); err != nil {
			t.Fatal(err)
		}
		file = b.Bytes()
		cold, err := Build(os.DirFS(dir), testConfig(t), Options{}, testNow)
		if err != nil {
			t.Fatal(err)
		}
		sameSnapshot(t, s, cold)
	}
}

// statFS counts the Markdown files stat'ed through it too.
type statFS struct {
	countFS
	stats atomic.Int64
}

func (c *statFS) Stat(name string) (fs.FileInfo, error) {
	if strings.HasSuffix(name, ".md") {
		c.stats.Add(1)
	}
	return c.countFS.Stat(name)
}
