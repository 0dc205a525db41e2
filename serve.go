package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"folio/front"
	"folio/host"
)

// runServe is the production host: it listens first (so the port is taken
// and connections queue while the content loads), loads, then serves
// until SIGTERM or SIGINT, which drain requests in flight and exit 0.
// SIGHUP reloads config, theme and content; --watch also applies content
// changes as they are saved.
func runServe(ctx context.Context, o *options, std stdio) error {
	start := time.Now()
	std, closeLog := unblockedLog(std)
	defer closeLog()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	ln, err := listen(o)
	if err != nil {
		return err
	}
	defer ln.Close()
	spec := o.spec().ForServe(o.watch)
	spec.Addr, spec.Log, spec.Started = ln.Addr(), std.log, start
	spec.Cache, spec.SaveCache = cacheFile(o, spec), true
	var gc servingGC
	defer gc.stop()
	h, err := load(ctx, spec, std, gc.start)
	if h == nil {
		return err // nil when stopped while loading
	}
	if w := baseWarning(o, h.Snapshot().Config(), ln.Addr()); w != "" {
		fmt.Fprintln(std.err, w)
	}
	h.Server().PrepareAnswers()
	return serveHost(ctx, h, ln, hup, h.Server(), front.Options{AccessLog: std.err, Coalesce: true, Log: std.log}, std, start)
}

// unblockedLog sends a server's stderr lines (its logs, the access log,
// the start line) through a front.LogWriter: a server must go on
// answering, /healthz included, when nobody reads its stderr. What it
// cannot hold is dropped, counted and said once stderr takes lines again.
func unblockedLog(std stdio) (stdio, func()) {
	w := front.NewLogWriter(std.err, front.LogBuffer)
	std.err = w
	std.log = slog.New(slog.NewTextHandler(w, nil))
	return std, func() { w.Close(2 * time.Second) }
}

// load is host.Load, unless ctx ends first: SIGTERM or SIGINT during a
// slow start (a large or hostile site) stops the process at once, exit 0,
// rather than when the site is built. It returns nil, nil then. The
// collector runs at loadGCPercent meanwhile; serving, when not nil, runs
// once the collector is put back (serve keeps its headroom, serve_gc.go).
func load(ctx context.Context, spec host.Spec, std stdio, serving func()) (*host.Host, error) {
	type loaded struct {
		h   *host.Host
		err error
	}
	done := make(chan loaded, 1)
	loadsTuning.Add(1)
	go func() {
		restore := tuneLoadGC()
		h, err := host.Load(spec)
		if err != nil {
			restore()
			loadsTuning.Done()
		} else {
			time.AfterFunc(loadGCGrace, func() {
				defer loadsTuning.Done()
				restore()
				if serving != nil {
					serving()
				}
			})
		}
		done <- loaded{h, err}
	}()
	select {
	case l := <-done:
		return l.h, l.err
	case <-ctx.Done():
		std.log.Info("stopped while loading the site")
		return nil, nil
	}
}

// loadGCPercent is the collector's GOGC while serve and dev load the
// site: nearly everything a load allocates stays live (the posts, the
// site model), so at the default the collector marks a heap that only
// grows, over and over. Measured at 100,000 posts, alternating, three
// each at load 13, a start from the parse cache to the first answer on a
// post: 3.59-3.75 s of CPU and 1.02 GB of RSS at 100, 3.04-3.32 s and
// 1.08 GB at 400. A start that parses every post made garbage as it went
// (Hugo's YAML decoder, 18 KB a post) and kept the default (at 400 it
// peaked at 1.7-2.7 GB against 1.4-1.6 GB) until the front matter's fast
// path and the shared reads made that garbage small: host.Load of
// 100,000 posts, two each alternating at load 9-10, 4.69-4.70 s of CPU
// and 1,033-1,096 MB peak at 400 against 5.48-5.57 s and 970-995 MB at
// 100. The soft memory limit tuneGCTo sets (half the machine's or the
// control group's memory) bounds it where memory is short. GOGC is put
// back loadGCGrace after the site is loaded.
const loadGCPercent = 400

// loadGCGrace is how long after a load the collector stays at
// loadGCPercent: put back at once, it marked the whole new heap (0.3 s
// of CPU at 100,000 posts) while the first requests were answered, the
// first article's site index among them. (A variable for tests.)
var loadGCGrace = 3 * time.Second

// loadsTuning counts the loads whose collector setting is not yet put
// back (and whose serving hook has not run): a test of the collector's
// setting waits for those of the tests before it.
var loadsTuning sync.WaitGroup

// tuneLoadGC sets the collector for a load (loadGCPercent) and returns
// what puts it back.
func tuneLoadGC() (restore func()) { return tuneGCTo(loadGCPercent) }

// loopWait is how long a stopping server waits for its host's loop: a
// reload that is building (a large site, a hostile post) is not cut
// short, and must not hold SIGTERM's exit either.
const loopWait = 100 * time.Millisecond

// serveHost runs h's loop (with reload signals from hup, when not nil) and
// the HTTP front end on ln, answering with handler, until ctx ends. The
// start line goes to stderr first.
func serveHost(ctx context.Context, h *host.Host, ln net.Listener, hup <-chan os.Signal, handler http.Handler, opts front.Options, std stdio, start time.Time) error {
	// Before the loop starts: what the loop logs (the parse cache saved, a
	// first change) comes after the start line.
	fmt.Fprintf(std.err, "folio: serving %s (%s, built in %s)\n",
		host.BaseOf(ln.Addr()), count(len(h.Snapshot().Posts()), "post", "posts"), time.Since(start).Round(time.Millisecond))
	if parsed, cached := h.Snapshot().CacheCounts(); cached > 0 {
		std.log.Info("started from the parse cache", "parsed", parsed, "from_cache", cached)
	}
	loopCtx, stopLoop := context.WithCancel(ctx)
	loopDone := make(chan struct{})
	go func() { defer close(loopDone); h.Run(loopCtx, hup) }()
	defer func() {
		stopLoop()
		select {
		case <-loopDone:
		case <-time.After(loopWait):
			std.log.Info("stopped while a reload was building or the parse cache being saved; the reload is dropped, the previous cache kept")
		}
	}()
	if err := front.Serve(ctx, ln, handler, opts); err != nil {
		std.log.Error("serve", "err", err)
		return errReported
	}
	return nil
}
