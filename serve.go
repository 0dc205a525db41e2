package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"folio/site"
)

// drainTimeout is how long SIGTERM waits for requests in flight.
const drainTimeout = 10 * time.Second

// runServe is the production host: it listens first (so the port is taken
// and connections queue while the content loads), builds the snapshot,
// then serves until SIGTERM or SIGINT, which drain requests in flight for
// at most drainTimeout and exit 0. SIGHUP reloads config and content.
func runServe(ctx context.Context, o *options, stderr io.Writer, log *slog.Logger) int {
	start := time.Now()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)

	// Start-up failures are one plain line, as from every command (see
	// preflight); once serving, everything is logged.
	ln, err := listen(listenAddr(o))
	if err != nil {
		fmt.Fprintf(stderr, "folio: %v\n", err)
		return 1
	}
	defer ln.Close()
	h := &host{o: o, addr: ln.Addr(), log: log, started: start}
	if err := h.load(); err != nil {
		fmt.Fprintf(stderr, "folio: %v\n", err)
		return exitCode(err)
	}
	h.watcher = h.watch(nil)
	loopCtx, stopLoop := context.WithCancel(ctx)
	loopDone := make(chan struct{})
	go func() { defer close(loopDone); h.loop(loopCtx, hup) }()
	defer func() { stopLoop(); <-loopDone }()

	// Access lines go through a buffer flushed every 100 ms; the other
	// logs are written at once.
	lines := newLineBuffer(stderr, 100*time.Millisecond)
	defer lines.Close()
	hs := newHTTPServer(accessLog(h, lines), log)
	snap := h.current().Snapshot()
	fmt.Fprintf(stderr, "folio: serving %s (%d posts, built in %s)\n",
		baseFromAddr(ln.Addr()), len(snap.Posts()), time.Since(start).Round(time.Millisecond))
	return serveUntilDone(ctx, hs, coalesceListener{ln}, log, func() { lines.flush() })
}

// newHTTPServer sets the limits a server facing the internet needs: slow
// or stalled clients cannot hold connections open forever, and headers
// are bounded.
func newHTTPServer(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		// OPTIONS * reaches folio's handler, which answers it as every
		// OPTIONS: 204 with Allow and nosniff (net/http's own is a bare 200).
		DisableGeneralOptionsHandler: true,
		ErrorLog:                     slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// serveUntilDone serves until ctx ends, then shuts down gracefully:
// listeners close at once, idle connections are closed, and requests in
// flight get drainTimeout to finish before their connections are cut.
// flushLog, when not nil, writes out buffered access lines first, so that
// the log reads in order: the requests, then the shutdown.
func serveUntilDone(ctx context.Context, hs *http.Server, ln net.Listener, log *slog.Logger, flushLog func()) int {
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		log.Error("serve", "err", err)
		return 1
	case <-ctx.Done():
	}
	if flushLog != nil {
		flushLog()
	}
	log.Info("shutting down", "drain", drainTimeout)
	drain, cancel := context.WithTimeout(context.Background(), drainTimeout)
	defer cancel()
	if err := hs.Shutdown(drain); err != nil {
		log.Warn("shutdown: requests still running were cut", "err", err)
		hs.Close()
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		log.Warn("serve", "err", err)
	}
	return 0
}

// errConfig marks a start-up failure caused by the config or flags (exit
// status 2) rather than by the content or the system (1).
var errConfig = errors.New("config")

// configError marks err as errConfig without changing its text (which
// fmt.Errorf("%w: %w", errConfig, err) would prefix with "config: ").
type configError struct{ err error }

func (e configError) Error() string        { return e.err.Error() }
func (e configError) Unwrap() error        { return e.err }
func (e configError) Is(target error) bool { return target == errConfig }

func exitCode(err error) int {
	if errors.Is(err, errConfig) {
		return 2
	}
	return 1
}

// openSite returns the embedded theme, or the folder that replaces it.
func openSite(dir string) (fs.FS, error) {
	if dir == "" {
		return site.FS, nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("siteDir: %w", err)
	}
	return root.FS(), nil
}
