package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"folio/export"
	"folio/internal/corpus"
	"folio/pipeline"
	"folio/site"
)

// TestIncrementalCacheWhole: a build takes the parse cache the previous
// build read whole and left in place by the stamp that build recorded,
// without computing its CRC, and writes a cold build's bytes; a cache
// written in place since (a byte of it changed, its size kept) has
// another stamp and is checked, and refused, as ever: every file is
// parsed, and the output is a cold build's still.
func TestIncrementalCacheWhole(t *testing.T) {
	fixBuildInstant(t)
	dir := t.TempDir()
	// Enough posts that one edit leaves the cache in place (fewer than
	// one entry in 64 stale): a cache written again keeps no stamp.
	if err := corpus.Write(dir, 200, 3); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "hugo.toml", "baseURL = 'https://blog.example.org/'\ntitle = 'Whole'\n[folio]\nsiteDir = 'theme'\n")
	if err := os.CopyFS(filepath.Join(dir, "theme"), site.FS); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "public")
	cache := filepath.Join(dir, ".public.folio-cache")
	posts, _ := filepath.Glob(filepath.Join(dir, "content", "blog", "post-*.md"))
	edit := func(post string) {
		t.Helper()
		data, err := os.ReadFile(post)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(post, append(data, "\nEdited.\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The cache keeps a file's stamp only when the file was written more
	// than 3 s before the build (pipeline's racyWindow), and a stamp
	// kept anew makes the entry stale; and a build keeps the cache's own
	// stamp only when the cache is more than 3 s older than the build
	// (export's racyWindow). So the corpus is let out of that window
	// first, and then the cache.
	time.Sleep(3500 * time.Millisecond)
	build(t, dir, out) // cold: the cache written
	time.Sleep(3500 * time.Millisecond)
	build(t, dir, out) // the cache read, its CRC computed, its stamp kept
	if !cacheWhole(t, out, cache) {
		t.Fatal("the record does not know the cache it read whole by its stamp: the next build would compute its CRC")
	}
	edit(posts[0])
	checked := pipeline.CacheChecksums()
	msg := build(t, dir, out)
	if n := pipeline.CacheChecksums() - checked; n != 0 {
		t.Errorf("a build over a cache known whole computed its CRC (%d caches checked)", n)
	}
	if !strings.Contains(msg, "1 content file parsed") {
		t.Errorf("an edit over a cache known whole: %s", msg)
	}
	sameTree(t, out, coldBuild(t, dir))
	if !cacheWhole(t, out, cache) {
		t.Error("a build that took the cache by its stamp, and left it in place, does not keep that stamp")
	}

	// A letter of a body changed in place: the middle of the cache's
	// longest run of letters and spaces, not a length or a key, so that
	// a cache taken without its CRC would be read.
	data, err := os.ReadFile(cache)
	if err != nil {
		t.Fatal(err)
	}
	best, at := 0, 0
	for i := 0; i < len(data); {
		j := i
		for j < len(data) && (data[j] >= 'a' && data[j] <= 'z' || data[j] == ' ') {
			j++
		}
		if j-i > best {
			best, at = j-i, i+(j-i)/2
		}
		i = j + 1
	}
	f, err := os.OpenFile(cache, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{data[at] ^ 0x01}, int64(at)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if cacheWhole(t, out, cache) {
		t.Error("a cache written in place is still known whole by its stamp")
	}
	edit(posts[1])
	checked = pipeline.CacheChecksums()
	if msg, _ := buildAsCold(t, dir, out); strings.Contains(msg, "from the cache") || pipeline.CacheChecksums() == checked {
		t.Errorf("a cache written in place since it was known whole is taken: %s", msg)
	}
}

// coldBuild builds dir into a fresh folder and returns it.
func coldBuild(t *testing.T, dir string) string {
	t.Helper()
	cold := filepath.Join(t.TempDir(), "public")
	build(t, dir, cold)
	return cold
}

// cacheWhole reports whether the next build into out would take the
// parse cache as it is now without computing its CRC (export.Ahead).
func cacheWhole(t *testing.T, out, cache string) bool {
	t.Helper()
	info, err := os.Stat(cache)
	if err != nil {
		t.Fatal(err)
	}
	a := export.ReadAhead(out)
	defer a.Close()
	return a.CacheWhole(info)
}
