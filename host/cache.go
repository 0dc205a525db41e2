package host

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"folio/internal/digest"
	"folio/pipeline"
	"folio/render"
)

// # The parse cache of serve and dev
//
// folio build keeps its parse cache beside its output (Spec.Cache, written
// with the export). serve and dev keep theirs in a cache folder
// (CacheFile): the first snapshot is built with it, so the posts whose
// files did not change since are decoded rather than parsed, and once the
// site is served, Run writes the cache of that snapshot (saveCache) when
// it differs from the one read. The cache never changes what is served: a
// post is taken from it only when its file is the one it was parsed from
// and nothing else the parse depends on changed (cacheKey); anything else
// (no file, another key, a corrupt file) is no cache.

// cacheKey is what a parse of the site's files depends on beyond their
// bytes (see pipeline.Cache): the program, the whole config, the
// options, and the site's templates, which make the descriptions of
// posts without one. A cache made under any other is not read.
func cacheKey(cfg *pipeline.Config, opts pipeline.Options, ropts render.Options) [sha256.Size]byte {
	h := sha256.New()
	io.WriteString(h, "folio parse cache\x00")
	prog := digest.Program()
	h.Write(prog[:])
	digest.Write(h, cfg, nil)
	digest.Write(h, [...]any{opts.Root, opts.Drafts, opts.Describe != nil}, nil)
	if t := ropts.Templates; t != nil {
		ts := t.Sum()
		h.Write(ts[:])
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return key
}

// CacheFile is the parse cache file in the folder dir of the command
// (serve or dev) for the site spec names: one file per command, site
// folder, config file, content folder and drafts setting, named by a
// digest of them (their absolute paths), so that the sites a user serves
// share dir without sharing a file. The cache's own key still decides
// whether it is read.
func CacheFile(dir, command string, spec Spec) string {
	abs := func(p string) string {
		if p == "" {
			return ""
		}
		a, err := filepath.Abs(p)
		if err != nil {
			return p
		}
		return a
	}
	source := spec.Source
	if source == "" {
		source = "."
	}
	id := strings.Join([]string{command, abs(source), abs(spec.ConfigFile), abs(spec.Content), fmt.Sprint(spec.Drafts)}, "\x00")
	sum := sha256.Sum256([]byte(id))
	return filepath.Join(dir, fmt.Sprintf("%s-%x.folio-cache", command, sum[:8]))
}

// errCacheTooLarge stops a cache that would be larger than any cache
// read (pipeline.MaxCacheSize).
var errCacheTooLarge = errors.New("larger than a cache may be")

// staleTemp is the age past which a temporary file of an interrupted
// write (a process killed while writing) is removed by the next write.
const staleTemp = time.Hour

// saveCache writes the parse cache of snap to the spec's Cache file when
// it differs from the one snap was built with: into a temporary file
// beside it, renamed over it once whole, so a reader finds the old cache
// or the new one, never a part. It stops, leaving nothing, when ctx ends,
// the folder cannot be made or written (a read-only home: then there is
// no cache, which is no error), or the cache grows past what a read
// accepts. It reports whether it wrote.
func (h *Host) saveCache(ctx context.Context, snap *pipeline.Snapshot) (bool, error) {
	name := h.spec.Cache
	if name == "" || ctx.Err() != nil || !snap.CacheChanged() {
		return false, nil
	}
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return false, err
	}
	removeStaleTemps(name)
	f, err := os.CreateTemp(dir, filepath.Base(name)+".tmp*")
	if err != nil {
		return false, err
	}
	w := &boundedWriter{ctx: ctx, w: f, left: pipeline.MaxCacheSize}
	err = snap.WriteCache(w)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
		return false, err
	}
	return true, nil
}

// removeStaleTemps removes the temporary files of writes of name that
// were interrupted long ago (a write in progress is younger).
func removeStaleTemps(name string) {
	temps, _ := filepath.Glob(name + ".tmp*")
	for _, t := range temps {
		if info, err := os.Lstat(t); err == nil && info.Mode().IsRegular() && time.Since(info.ModTime()) > staleTemp {
			os.Remove(t)
		}
	}
}

// A boundedWriter fails once ctx ends or more than left bytes are
// written.
type boundedWriter struct {
	ctx  context.Context
	w    io.Writer
	left int64
}

func (b *boundedWriter) Write(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	if int64(len(p)) > b.left {
		return 0, errCacheTooLarge
	}
	b.left -= int64(len(p))
	return b.w.Write(p)
}

// saveDelay is how long after the start the cache is written: the
// write (encoding every post, and on a first start hashing every file,
// 0.7 s of CPU at 100,000 posts) would otherwise take the cores the
// first requests want, whose first render indexes the whole site.
const saveDelay = time.Second

// startSaving writes the cache of the first snapshot in the background
// (serve and dev, Spec.SaveCache), saveDelay after the start: the site is
// served meanwhile. Then it
// marks the cache used and removes others long unused (tidyCaches). The
// function returned waits for the write, which ends early once ctx ends.
func (h *Host) startSaving(ctx context.Context) (wait func()) {
	if !h.spec.SaveCache || h.spec.Cache == "" {
		return func() {}
	}
	snap := h.srv.Snapshot()
	done := make(chan struct{})
	go func() {
		defer close(done)
		select { // the first requests first
		case <-ctx.Done():
		case <-time.After(saveDelay):
		}
		start := time.Now()
		wrote, err := h.saveCache(ctx, snap)
		if ctx.Err() == nil {
			tidyCaches(h.spec.Cache, time.Now())
		}
		switch {
		case err != nil && ctx.Err() == nil:
			h.log.Info("parse cache not saved; the next start parses every file", "file", h.spec.Cache, "err", err)
		case wrote:
			parsed, cached := snap.CacheCounts()
			h.log.Info("parse cache saved", "file", h.spec.Cache, "parsed", parsed, "from_cache", cached, "took", time.Since(start).Round(time.Millisecond))
		}
	}()
	return func() { <-done }
}
