package front

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"
)

// DrainTimeout is how long a shutdown waits for requests in flight.
const DrainTimeout = 10 * time.Second

// Options tune Serve.
type Options struct {
	// AccessLog, when set, gets one line per request (accesslog.go),
	// buffered and flushed every 100 ms and before the shutdown line.
	AccessLog io.Writer
	// Coalesce writes each response to its connection in one write
	// (coalesce.go).
	Coalesce bool
	// OnShutdown runs when the shutdown starts: streams that never end by
	// themselves (live reload) must end there, or the drain would wait
	// for them until DrainTimeout.
	OnShutdown func()
	// Log gets the server's errors and the shutdown lines.
	Log *slog.Logger
	// MaxConns caps the connections open at once (conns.go): 0 is
	// DefaultMaxConns, what the open-file limit allows.
	MaxConns int

	// connState, when set, is told each connection's state after the
	// cap (tests: net/http reports a connection idle after its answer
	// is sent, so a client cannot tell when the cap has seen it).
	connState func(net.Conn, http.ConnState)
}

// Listen binds addr. Its error reads "listen 127.0.0.1:8080: address
// already in use": the address as the user wrote it and the system's
// reason, without Go's "listen tcp … bind:" layers.
func Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		var se *os.SyscallError
		var oe *net.OpError
		switch {
		case errors.As(err, &se):
			err = se.Err
		case errors.As(err, &oe):
			err = oe.Err
		}
		return nil, fmt.Errorf("listen %s: %w", addr, err)
	}
	return ln, nil
}

// Serve answers requests on ln with h until ctx ends, then shuts down
// gracefully: the listener closes at once, idle connections are closed,
// and requests in flight get DrainTimeout to finish before their
// connections are cut. It returns the error that stopped the server
// early, nil after a shutdown.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, opts Options) error {
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	flush := func() {}
	if opts.AccessLog != nil {
		lines := newLineBuffer(opts.AccessLog, 100*time.Millisecond)
		defer lines.Close()
		h, flush = accessLog(h, lines), func() { lines.flush() }
	}
	if opts.Coalesce {
		ln = coalesceListener{ln}
	}
	maxConns := opts.MaxConns
	if maxConns <= 0 {
		maxConns = DefaultMaxConns()
	}
	capped := newConnCap(ln, maxConns, log.Warn)
	hs := newHTTPServer(h, log)
	if opts.AccessLog != nil && opts.Coalesce {
		hs.ConnContext = connContext
	}
	hs.ConnState = capped.track
	if tell := opts.connState; tell != nil {
		hs.ConnState = func(c net.Conn, state http.ConnState) { capped.track(c, state); tell(c, state) }
	}
	if opts.OnShutdown != nil {
		hs.RegisterOnShutdown(opts.OnShutdown)
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(capped) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// The log reads in order: the requests, then the shutdown.
	flush()
	log.Info("shutting down", "drain", DrainTimeout)
	drain, cancel := context.WithTimeout(context.Background(), DrainTimeout)
	defer cancel()
	if err := hs.Shutdown(drain); err != nil {
		log.Warn("shutdown: requests still running were cut", "err", err)
		hs.Close()
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		log.Warn("serve", "err", err)
	}
	return nil
}

// writeTimeout is how long an answer may take to write (http.Server's
// WriteTimeout; coalesceConn.SetWriteDeadline reads it back).
const writeTimeout = 60 * time.Second

// newHTTPServer sets the limits a server facing the internet needs: slow
// or stalled clients cannot hold connections open forever, and headers
// are bounded.
func newHTTPServer(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		// OPTIONS * reaches the handler, which answers it as every
		// OPTIONS (net/http's own answer is a bare 200).
		DisableGeneralOptionsHandler: true,
		ErrorLog:                     slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}
