package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync/atomic"
	"time"

	"folio/pipeline"
	"folio/server"
	"folio/watch"
)

// A host is what folio serve runs: the server answering requests, replaced
// whole when SIGHUP brings a new config (which may move the section, the
// theme or the content folder), and moved on to the next snapshot when
// --watch sees files change. Every change is made by one goroutine (loop),
// so a reload and a watch batch never race; requests only ever Load the
// pointer.
type host struct {
	o       *options
	addr    net.Addr
	log     *slog.Logger
	started time.Time
	srv     atomic.Pointer[server.Server]
	// watcher is the --watch watcher made before serving starts (so no
	// change made after the start-up line is missed); loop owns it then.
	watcher *contentWatch
}

func (h *host) current() *server.Server { return h.srv.Load() }

// ServeHTTP answers from the server current when the request arrived.
func (h *host) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.srv.Load().ServeHTTP(w, r)
}

// load builds the first server. A broken post is left out and logged.
func (h *host) load() error {
	srv, err := h.build(nil)
	if err != nil {
		return err
	}
	h.srv.Store(srv)
	return nil
}

// config reads the config file and flags again; without a configured
// base URL the bound address is the base.
func (h *host) config() (*pipeline.Config, error) {
	o := *h.o
	cfg, err := loadConfig(&o)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errConfig, err)
	}
	if !cfg.BaseSet {
		cfg.BaseURL = baseFromAddr(h.addr)
	}
	return cfg, nil
}

// build makes a server from the config and content as they are now. With
// the previous snapshot old, posts that fail keep their last good version
// (an unchanged content folder, section and time zone are read again with
// Update); without it, or when those changed, the content is built afresh.
func (h *host) build(old *pipeline.Snapshot) (*server.Server, error) {
	cfg, err := h.config()
	if err != nil {
		return nil, err
	}
	snap, err := h.snapshot(cfg, old, time.Now())
	if err != nil {
		return nil, err
	}
	for _, p := range snap.Problems() {
		h.log.Warn("problem", "path", p.Path, "line", p.Line, "message", p.Message)
	}
	siteFS, err := openSite(cfg.SiteDir)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errConfig, err)
	}
	return server.New(snap, server.Options{Site: siteFS, Logger: h.log, Started: h.started})
}

func (h *host) snapshot(cfg *pipeline.Config, old *pipeline.Snapshot, now time.Time) (*pipeline.Snapshot, error) {
	if info, err := os.Stat(cfg.ContentDir); err != nil || !info.IsDir() {
		if err == nil {
			err = fmt.Errorf("not a directory")
		}
		return nil, fmt.Errorf("content folder %s: %w", cfg.ContentDir, err)
	}
	// sameFolder: a content folder replaced whole (mv content.new content)
	// must be read afresh; the old snapshot reads through a handle on the
	// folder it was built from (see devapply.go).
	if old != nil && old.Config().ReadsLike(cfg) && sameFolder(old.FS(), cfg.ContentDir) {
		return old.Reconfigured(cfg, []string{cfg.Section}, now)
	}
	fsys, err := openContent(cfg.ContentDir)
	if err != nil {
		return nil, err
	}
	return pipeline.Build(fsys, cfg, pipeline.Options{Root: cfg.ContentDir}, now)
}

// loop runs the scheduled publishing of the current server, reloads on
// SIGHUP and, with --watch, applies file changes, until ctx ends.
func (h *host) loop(ctx context.Context, hup <-chan os.Signal) {
	schedule := h.schedule(ctx, func() {})
	defer func() { schedule() }()
	w := h.watch(h.watcher)
	defer func() { w.close() }()
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
			if h.reload() {
				schedule = h.schedule(ctx, schedule)
				w = h.watch(w)
			}
		case batches, ok := <-w.batches():
			if !ok { // the watcher stopped; serve on without it
				h.log.Error("watch stopped; SIGHUP still reloads")
				w = nil
				continue
			}
			h.apply(batches)
		}
	}
}

// reload swaps in a server built from the config and content on disk now.
// If anything fails the old server stays and the error is logged.
func (h *host) reload() bool {
	start := time.Now()
	old := h.current()
	srv, err := h.build(old.Snapshot())
	if err != nil {
		h.log.Error("reload failed; still serving the previous snapshot", "err", err)
		return false
	}
	h.srv.Store(srv)
	snap := srv.Snapshot()
	h.log.Info("reloaded", "posts", len(snap.Posts()), "problems", len(snap.Problems()), "took", time.Since(start).Round(time.Millisecond))
	return true
}

// schedule starts RunSchedule for the current server after stopping the
// previous one's.
func (h *host) schedule(ctx context.Context, stopPrev func()) (stop func()) {
	stopPrev()
	c, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	srv := h.current()
	go func() { defer close(done); srv.RunSchedule(c) }()
	return func() { cancel(); <-done }
}

// apply moves the current server on to the snapshot with the changed
// files read again. A post that breaks keeps its last good version
// (Update does that) and is logged.
func (h *host) apply(batches []watch.Batch) {
	srv := h.current()
	old := srv.Snapshot()
	var paths []string
	rescan := false
	for _, b := range batches {
		if b.Rescan {
			paths = append(paths, old.Config().Section)
			rescan = true
		}
		paths = append(paths, b.Paths...)
	}
	var next *pipeline.Snapshot
	var err error
	if rescan {
		// The whole folder is read again; afresh if it was replaced.
		next, err = h.snapshot(old.Config(), old, time.Now())
	} else {
		next, err = old.Update(paths, time.Now())
	}
	if err != nil {
		h.log.Error("update failed; still serving the previous snapshot", "err", err)
		return
	}
	srv.Swap(next)
	for _, p := range next.Problems() {
		h.log.Warn("problem", "path", p.Path, "line", p.Line, "message", p.Message)
	}
	h.log.Info("updated", "changed", len(paths), "posts", len(next.Posts()), "problems", len(next.Problems()))
}

// contentWatch is the --watch watcher of one content folder; the zero
// value (no --watch, or a failed start) delivers nothing.
type contentWatch struct {
	dir string
	w   *watch.Watcher
}

func (c *contentWatch) batches() <-chan []watch.Batch {
	if c == nil || c.w == nil {
		return nil
	}
	return c.w.Batches()
}

func (c *contentWatch) close() {
	if c != nil && c.w != nil {
		c.w.Close()
	}
}

// watch returns the watcher for the current content folder, reusing prev
// when the folder is the same. A watcher that cannot start is logged and
// the host serves on without one.
func (h *host) watch(prev *contentWatch) *contentWatch {
	if !h.o.watch {
		return nil
	}
	dir := h.current().Snapshot().Config().ContentDir
	if prev != nil && prev.dir == dir && prev.w != nil {
		return prev
	}
	prev.close()
	w, err := watch.New([]string{dir}, watch.Options{Logger: h.log})
	if err != nil {
		h.log.Error("watch: not watching; SIGHUP still reloads", "err", err)
		return &contentWatch{dir: dir}
	}
	return &contentWatch{dir: dir, w: w}
}
